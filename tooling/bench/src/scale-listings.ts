/**
 * Part 2's listings of an account's objects beyond edge apps and CDN resources: for each, the SQL that
 * bulk-generates its rows (by default 100,000, nine in ten of them the caller's, the rest another
 * account's) and the requests measured on them, each held to issue 29's p50 < 20 ms on PostgreSQL. One table-driven list: scale.ts generates, explains and
 * measures every entry alike.
 */

export interface ScaleListingRequest {
  /** As results.md names the request. */
  title: string;
  /** The path and query; `{name}` is replaced by the entry's lookup `name` (a parent's id, found after generating). */
  path: string;
  /**
   * False: shown without the listings' bound, as part 2's edge app name search is: a case-insensitive
   * substring, which no index serves, read over every row of the account.
   */
  goal?: false;
  /**
   * SQL run on the database before each request (as another server would write), the requests then sent one
   * at a time: what the first request after a change costs, where the handler keeps its answers between
   * changes. Measured on PostgreSQL alone (PGlite's database is one process's).
   */
  afterWrite?: string;
}

export interface ScaleListing {
  /** Names the entry's requests (`<id>.<n>`) and selects it with BENCH_SCALE_LISTINGS. */
  id: string;
  /** The route, as the contract writes it. */
  route: string;
  /** What is generated, in words, for results.md. */
  rows: string;
  /** The statements that generate the rows, run in order (after edge apps, CDN resources and usage lines), given the count. */
  generate: (count: number) => string[];
  /** Tables to VACUUM ANALYZE after generating. */
  tables: string[];
  /** SQL that finds a value a path needs (one row, one column), by the name the path uses. */
  lookups?: Record<string, string>;
  requests: ScaleListingRequest[];
}

/** The account of the g-th generated row: nine in ten the caller's (account 1), the rest account 2's. */
const ACCOUNT = "case when g % 10 = 0 then 2 else 1 end";

/** A fixed time the generated histories (logs, calls, events) are spread back from, so that the requests can name periods. */
export const SCALE_ANCHOR = "2026-11-20T00:00:00Z";

/**
 * An insert of `count` copies of the row `where` selects from `table` (every column but `id`), the columns of
 * `overrides` written as their SQL expressions of `g` (1..count) instead: for tables with many columns, whose
 * demo row is a valid object to copy.
 */
function copiesOf(table: string, where: string, count: number, overrides: Record<string, string>): string {
  const given = Object.entries(overrides)
    .map(([column, expression]) => `${quoteLiteral(column)}, ${quoteLiteral(expression)}`)
    .join(", ");
  return `
do $$
declare
  overrides jsonb := jsonb_build_object(${given});
  names text;
  expressions text;
begin
  select string_agg(quote_ident(column_name), ', ' order by ordinal_position),
         string_agg(coalesce(overrides ->> column_name, 'source.' || quote_ident(column_name)), ', ' order by ordinal_position)
    into names, expressions
    from information_schema.columns
   where table_schema = current_schema() and table_name = ${quoteLiteral(table)} and column_name <> 'id' and is_generated = 'NEVER';
  execute format('insert into %I (%s) select %s from (select * from %I where ${where.replace(/'/g, "''")} limit 1) source, generate_series(1, %s) g',
    ${quoteLiteral(table)}, names, expressions, ${quoteLiteral(table)}, ${count});
end $$`;
}

function quoteLiteral(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

export const SCALE_LISTINGS: ScaleListing[] = [
  {
    id: "users",
    route: "GET /iam/users",
    rows: "users",
    generate: (count) => [
      `insert into users (account_id, name, email, role_id, created)
       select ${ACCOUNT}, 'Scale user ' || g, 'scale-user-' || g || '@scale.example', (array[1, 2, 5])[1 + g % 3], now() - (g || ' minutes')::interval
       from generate_series(1, ${count}) g`,
    ],
    tables: ["users"],
    requests: [{ title: "offset 50", path: "/iam/users?limit=25&offset=50" }],
  },
  {
    id: "ruleTemplates",
    route: "GET /cdn/resources/rule_templates",
    rows: "CDN rule templates",
    generate: (count) => [
      `insert into cdn_rule_templates (account_id, name, rule, rule_type, weight, created, updated)
       select ${ACCOUNT}, 'template ' || g, '/assets/' || g || '/.*', 0, 1 + g % 100, now() - (g || ' minutes')::interval, now()
       from generate_series(1, ${count}) g`,
    ],
    tables: ["cdn_rule_templates"],
    requests: [{ title: "offset 50", path: "/cdn/resources/rule_templates?limit=25&offset=50" }],
  },
  {
    // A resource has at most the account's cdn_resources_rules_max_count rules (50 by default): the account's
    // rules are spread over the generated CDN resources, 50 each, and one resource's are listed.
    id: "rules",
    route: "GET /cdn/resources/{resource_id}/rules",
    rows: "CDN resource rules, 50 on each of as many generated CDN resources (the most a resource has by default)",
    generate: (count) => [
      `insert into cdn_resource_rules (account_id, resource_id, name, rule, rule_type, weight, created, updated)
       select r.account_id, r.id, 'rule ' || k, '/path-' || k || '/.*', 0, k, now(), now()
       from (select id, account_id from cdn_resources where cname like '%.scale.example' order by id desc limit ${Math.ceil(count / 50)}) r, generate_series(1, 50) k`,
    ],
    tables: ["cdn_resource_rules"],
    lookups: {
      resource: "select max(resource_id) from cdn_resource_rules where account_id = 1",
      // The last page of the account's resources (those with rules: the last ones made), whose every resource shows its rules.
      lastPage: "select greatest(count(*) - 25, 0) from cdn_resources where account_id = 1",
    },
    requests: [
      { title: "one resource's rules, offset 25", path: "/cdn/resources/{resource}/rules?limit=25&offset=25" },
      { title: "the last page, 50 rules on each resource", path: "/cdn/resources?limit=25&offset={lastPage}" },
    ],
  },
  {
    id: "sslData",
    route: "GET /cdn/sslData",
    rows: "SSL certificates (copies of a demo certificate, expiring over two years)",
    generate: (count) => [
      copiesOf("certificates", "kind = 'ssl' and chain_pem is not null order by id", count, {
        account_id: ACCOUNT,
        name: "'scale-ssl-' || g",
        not_after: `timestamptz '${SCALE_ANCHOR}' + ((g % 730) || ' days')::interval`,
        created: "now() - (g || ' minutes')::interval",
      }),
    ],
    tables: ["certificates"],
    requests: [
      { title: "offset 50", path: "/cdn/sslData?limit=25&offset=50" },
      { title: "expiring by a date, offset 50", path: "/cdn/sslData?validity_not_after_lte=2027-01-01T00:00:00Z&limit=25&offset=50" },
    ],
  },
  {
    id: "caCertificates",
    route: "GET /cdn/sslCertificates",
    rows: "trusted CA certificates (copies of a demo one)",
    generate: (count) => [
      copiesOf("certificates", "kind = 'ca' order by id", count, {
        account_id: ACCOUNT,
        name: "'scale-ca-' || g",
        created: "now() - (g || ' minutes')::interval",
      }),
    ],
    tables: ["certificates"],
    requests: [{ title: "offset 50", path: "/cdn/sslCertificates?limit=25&offset=50" }],
  },
  {
    id: "purgeStatuses",
    route: "GET /cdn/purge_statuses",
    rows: "purge and prefetch requests, one a minute back from now, on the account's first CDN resource",
    generate: (count) => [
      `insert into cdn_cache_requests (account_id, resource_id, cname, kind, payload, created)
       select r.account_id, r.id, r.cname, kind,
         case kind when 'purge_all' then '{"paths": []}'::jsonb when 'purge_by_pattern' then jsonb_build_object('paths', jsonb_build_array('/img/' || g || '/*'))
           else jsonb_build_object('urls', jsonb_build_array('/page/' || g || '.html')) end,
         now() - (g || ' minutes')::interval
       from (select g, ${ACCOUNT} as account_id, (array['purge_by_url', 'purge_by_pattern', 'purge_all', 'prefetch'])[1 + g % 4] as kind from generate_series(1, ${count}) g) c
       join (select distinct on (account_id) account_id, id, cname from cdn_resources order by account_id, id) r using (account_id)`,
    ],
    tables: ["cdn_cache_requests"],
    requests: [
      { title: "offset 50", path: "/cdn/purge_statuses?limit=25&offset=50" },
      { title: "purge_type=purge_by_url, offset 50", path: "/cdn/purge_statuses?purge_type=purge_by_url&limit=25&offset=50" },
    ],
  },
  {
    id: "cdnLogs",
    route: "GET /cdn/advanced/v1/logs",
    rows: `CDN request log records in the 6 hours after ${SCALE_ANCHOR}`,
    generate: (count) => [
      `insert into cdn_request_logs (account_id, timestamp, resource_id, cname, client_ip, method, path, status, size, cache_status, datacenter, referer, user_agent, content_type, tcpinfo_rtt)
       select ${ACCOUNT}, timestamptz '${SCALE_ANCHOR}' + (g * 21600.0 / ${count} || ' seconds')::interval,
         case when g % 10 = 0 then 2 else 1 end, case when g % 10 = 0 then 'cdn.globex.example' else 'cdn.acme.example' end,
         '198.51.100.' || (g % 250), (array['GET', 'GET', 'GET', 'HEAD', 'POST'])[1 + g % 5], '/assets/' || (g % 5000) || '.js',
         (array[200, 200, 200, 200, 304, 404, 200, 206, 500, 200])[1 + g % 10], 1000 + g % 90000,
         (array['HIT', 'HIT', 'MISS', 'HIT', 'EXPIRED', 'HIT', 'BYPASS'])[1 + g % 7], (array['ams', 'fra', 'lux', 'sin'])[1 + g % 4],
         '', 'Mozilla/5.0', 'application/javascript', 10 + g % 90
       from generate_series(1, ${count}) g`,
    ],
    tables: ["cdn_request_logs"],
    requests: [
      { title: "6 hours, default page (1000), offset 50", path: "/cdn/advanced/v1/logs?from=2026-11-20T00:00:00Z&to=2026-11-20T06:00:00Z&offset=50" },
      {
        title: "6 hours, status__eq=404, ordering=-timestamp, 25 from offset 50",
        path: "/cdn/advanced/v1/logs?from=2026-11-20T00:00:00Z&to=2026-11-20T06:00:00Z&status__eq=404&ordering=-timestamp&limit=25&offset=50",
      },
    ],
  },
  {
    id: "auditLog",
    route: "GET /cdn/activity_log/requests",
    rows: "CDN audit log entries, one a minute back from now",
    generate: (count) => [
      `insert into cdn_audit_log (account_id, user_id, token_id, requested_at, method, path, host, remote_ip_address, status_code, data, action_type)
       select ${ACCOUNT}, 1, 1, now() - (g || ' minutes')::interval, method, '/cdn/resources/' || (g % 1000), 'api.cloudplane.example', '203.0.113.' || (g % 200),
         case when g % 20 = 0 then 400 when method = 'POST' then 201 when method = 'DELETE' then 204 else 200 end, null,
         case when g % 20 = 0 then null when method = 'POST' then 'C' when method = 'DELETE' then 'D' else 'U' end
       from (select g, (array['PATCH', 'PATCH', 'PUT', 'POST', 'DELETE'])[1 + g % 5] as method from generate_series(1, ${count}) g) e`,
    ],
    tables: ["cdn_audit_log"],
    requests: [
      { title: "offset 50", path: "/cdn/activity_log/requests?limit=25&offset=50" },
      { title: "method=DELETE, offset 50", path: "/cdn/activity_log/requests?method=DELETE&limit=25&offset=50" },
    ],
  },
  {
    id: "originGroups",
    route: "GET /cdn/origin_groups",
    rows: "origin groups of two sources each",
    generate: (count) => [
      `insert into origin_groups (account_id, name, created, updated)
       select ${ACCOUNT}, 'scale-origins-' || g, now() - (g || ' minutes')::interval, now() from generate_series(1, ${count}) g`,
      `insert into origin_group_sources (account_id, origin_group_id, position, source)
       select account_id, id, k, 'origin-' || k || '.' || name || '.example' from origin_groups, generate_series(0, 1) k where name like 'scale-origins-%'`,
    ],
    tables: ["origin_groups", "origin_group_sources"],
    requests: [
      { title: "offset 50", path: "/cdn/origin_groups?limit=25&offset=50" },
      { title: "has_related_resources=false, offset 50", path: "/cdn/origin_groups?has_related_resources=false&limit=25&offset=50" },
    ],
  },
  {
    id: "logsUploader",
    route: "GET /cdn/logs_uploader/targets, /cdn/logs_uploader/policies, /cdn/logs_uploader/configs",
    rows: "logs uploader targets, policies and configs (copies of the demo ones; the configs disabled and for no resource)",
    generate: (count) => [
      copiesOf("logs_uploader_targets", "account_id = 1 order by id", count, { account_id: ACCOUNT, name: "'scale-target-' || g" }),
      copiesOf("logs_uploader_policies", "account_id = 1 order by id", count, { account_id: ACCOUNT, name: "'scale-policy-' || g" }),
      // Its trigger syncs the raw logs periods of every resource of the account for each config inserted (90,000 here):
      // off while copies are made that are disabled and name no resource, so change no period.
      "alter table logs_uploader_configs disable trigger logs_uploader_configs_raw_logs_period",
      copiesOf("logs_uploader_configs", "account_id = 1 order by id", count, {
        account_id: ACCOUNT,
        name: "'scale-config-' || g",
        enabled: "false",
        for_all_resources: "false",
        // A config's policy and target are of its account.
        policy_id: "(select min(id) from logs_uploader_policies where account_id = case when g % 10 = 0 then 2 else 1 end)",
        target_id: "(select min(id) from logs_uploader_targets where account_id = case when g % 10 = 0 then 2 else 1 end)",
      }),
      "alter table logs_uploader_configs enable trigger logs_uploader_configs_raw_logs_period",
    ],
    tables: ["logs_uploader_targets", "logs_uploader_policies", "logs_uploader_configs"],
    requests: [
      { title: "targets, offset 50", path: "/cdn/logs_uploader/targets?limit=25&offset=50" },
      { title: "policies, offset 50", path: "/cdn/logs_uploader/policies?limit=25&offset=50" },
      { title: "configs, offset 50", path: "/cdn/logs_uploader/configs?limit=25&offset=50" },
      { title: "configs, search, offset 0", path: "/cdn/logs_uploader/configs?search=config-77&limit=25&offset=0", goal: false },
    ],
  },
  {
    id: "kvStores",
    route: "GET /edge/v1/kv",
    rows: "edge KV stores",
    generate: (count) => [
      `insert into edge_kv_stores (account_id, name, comment, created, updated)
       select ${ACCOUNT}, 'scale-store-' || g, '', now() - (g || ' minutes')::interval, now() from generate_series(1, ${count}) g`,
    ],
    tables: ["edge_kv_stores"],
    lookups: { app: "select app_id from edge_app_stores where account_id = 1 order by app_id limit 1" },
    requests: [
      { title: "offset 50", path: "/edge/v1/kv?limit=25&offset=50" },
      { title: "the stores of one app (app_id)", path: "/edge/v1/kv?app_id={app}&limit=25&offset=0" },
    ],
  },
  {
    id: "secrets",
    route: "GET /edge/v1/secrets",
    rows: "edge secrets",
    generate: (count) => [
      `insert into edge_secrets (account_id, name, comment, created, updated)
       select ${ACCOUNT}, 'scale-secret-' || g, '', now() - (g || ' minutes')::interval, now() from generate_series(1, ${count}) g`,
    ],
    tables: ["edge_secrets"],
    requests: [{ title: "offset 50", path: "/edge/v1/secrets?limit=25&offset=50" }],
  },
  {
    id: "binaries",
    route: "GET /edge/v1/binaries",
    rows: "edge binaries (copies of a demo binary)",
    generate: (count) => [
      copiesOf("edge_binaries", "account_id = 1 order by id", count, { account_id: ACCOUNT, created: "now() - (g || ' minutes')::interval" }),
    ],
    tables: ["edge_binaries"],
    requests: [{ title: "offset 50", path: "/edge/v1/binaries?limit=25&offset=50" }],
  },
  {
    id: "templates",
    route: "GET /edge/v1/template",
    rows: "edge app templates of the account (copies of a demo one, on its binary)",
    generate: (count) => [
      copiesOf("edge_templates", "account_id = 1 order by id", count, {
        account_id: ACCOUNT,
        name: "'scale template ' || g",
        // A template's binary is of its account.
        binary_id: "case when g % 10 = 0 then (select min(id) from edge_binaries where account_id = 2) else source.binary_id end",
      }),
    ],
    tables: ["edge_templates"],
    requests: [
      { title: "public and own, offset 50", path: "/edge/v1/template?limit=25&offset=50" },
      { title: "only_mine=true, offset 50", path: "/edge/v1/template?only_mine=true&limit=25&offset=50" },
    ],
  },
  {
    id: "appLogs",
    route: "GET /edge/v1/apps/{app_id}/logs",
    rows: `calls of one edge app (the account's first), in the hour after ${SCALE_ANCHOR}`,
    generate: (count) => [
      `insert into edge_app_calls (account_id, app_id, time, status, duration_us, edge, network, client_ip, request_id, log)
       select a.account_id, a.id, timestamptz '${SCALE_ANCHOR}' + (g * 3600.0 / ${count} || ' seconds')::interval,
         (array[200, 200, 200, 404, 500])[1 + g % 5], 1000 + g % 5000, (array['ams-1', 'fra-1', 'sin-1'])[1 + g % 3],
         case when g % 3 = 2 then 'edge-asia' else 'edge-eu' end, '198.51.100.' || (g % 250), 'req-' || g, 'served /item/' || (g % 1000)
       from (select g, ${ACCOUNT} as account_id from generate_series(1, ${count}) g) c
       join (select account_id, min(id) as id from edge_apps group by account_id) a using (account_id)`,
    ],
    tables: ["edge_app_calls"],
    lookups: { app: "select min(id) from edge_apps where account_id = 1" },
    requests: [
      { title: "one hour, offset 50", path: "/edge/v1/apps/{app}/logs?from=2026-11-20T00:00:00Z&to=2026-11-20T01:00:00Z&limit=25&offset=50" },
      { title: "one hour, edge=ams-1, offset 50", path: "/edge/v1/apps/{app}/logs?from=2026-11-20T00:00:00Z&to=2026-11-20T01:00:00Z&edge=ams-1&limit=25&offset=50" },
    ],
  },
  {
    id: "streams",
    route: "GET /streaming/streams",
    rows: "streams (copies of a demo stream)",
    generate: (count) => [
      copiesOf("streams", "account_id = 1 order by id", count, {
        account_id: ACCOUNT,
        // A stream's user is of its account.
        client_user_id: "case when g % 10 = 0 then (select min(id) from users where account_id = 2) else source.client_user_id end",
        name: "'scale stream ' || g",
      }),
    ],
    tables: ["streams"],
    requests: [{ title: "page 3 (25 a page)", path: "/streaming/streams?page=3" }],
  },
  {
    id: "projects",
    route: "GET /cloud/v1/projects",
    rows: "cloud projects",
    generate: (count) => [
      `insert into cloud_projects (account_id, name, description, created)
       select ${ACCOUNT}, 'scale-project-' || g, '', now() - (g || ' minutes')::interval from generate_series(1, ${count}) g`,
    ],
    tables: ["cloud_projects"],
    requests: [
      { title: "offset 50", path: "/cloud/v1/projects?limit=25&offset=50" },
      { title: "newest first, offset 50", path: "/cloud/v1/projects?order_by=created_at.desc&limit=25&offset=50" },
    ],
  },
  {
    id: "gpuImages",
    route: "GET /cloud/v3/gpu/virtual/{project_id}/{region_id}/images",
    rows: "GPU images of one project and region of each account (copies of a demo image)",
    generate: (count) => [
      copiesOf("gpu_images", "account_id = 1 and project_id = 1 and region_id = 1 order by name", count, {
        account_id: ACCOUNT,
        project_id: "case when g % 10 = 0 then (select min(id) from cloud_projects where account_id = 2) else source.project_id end",
        name: "'scale-image-' || lpad(g::text, 7, '0')",
      }),
    ],
    tables: ["gpu_images"],
    requests: [{ title: "offset 50", path: "/cloud/v3/gpu/virtual/1/1/images?limit=25&offset=50" }],
  },
  {
    id: "securityEvents",
    route: "GET /security/notifier/v1/event_logs",
    rows: `security events, one every five minutes back from ${SCALE_ANCHOR}`,
    generate: (count) => [
      `insert into security_events (account_id, alert_type, notification_type, attack_start_time, attack_power_bps, attack_power_pps, ips_involved, targeted_ip_addresses, details)
       select ${ACCOUNT}, case when g % 4 = 0 then 'rtbh_alert' else 'ddos_alert' end, 'attack_start',
         timestamptz '${SCALE_ANCHOR}' - (g * 5 || ' minutes')::interval, 1e6 * (g % 977), 1e3 * (g % 613), 1 + g % 40, '203.0.113.' || (g % 250),
         '{"attack_packet_sizes": [], "attack_top_destination_ports": [], "attack_top_protocols": [], "attack_top_source_countries": [], "attack_top_source_ips": [], "attack_top_source_ports": [], "attack_traffic": []}'::jsonb
       from generate_series(1, ${count}) g`,
    ],
    tables: ["security_events"],
    requests: [
      { title: "offset 50", path: "/security/notifier/v1/event_logs?limit=25&offset=50" },
      {
        title: "alert_type=ddos_alert, a month, ordering=-attack_power_bps",
        path: "/security/notifier/v1/event_logs?alert_type=ddos_alert&date_from=2026-10-01&date_to=2026-10-31&ordering=-attack_power_bps&limit=25&offset=50",
      },
    ],
  },
  {
    id: "securityProfiles",
    route: "GET /security/iaas/v2/profiles",
    rows: "security profiles (an address each, the demo profile's template and field values), which are also the announces' networks",
    generate: (count) => [
      copiesOf("security_profiles", "id = (select min(id) from security_profiles where account_id = 1 and ip_address is not null and deleted is null)", count, {
        account_id: ACCOUNT,
        ip_address: "'10.' || (g / 65536) % 256 || '.' || (g / 256) % 256 || '.' || g % 256",
        options: `jsonb_build_object('bgp', g % 2 = 0, 'active', true, 'price', '120.00')`,
        created: "now() - (g || ' minutes')::interval",
      }),
      `insert into security_profile_fields (account_id, profile_id, base_field_id, field_value)
       select p.account_id, p.id, f.base_field_id, f.field_value
       from security_profiles p
       cross join (select base_field_id, field_value from security_profile_fields
                   where profile_id = (select min(id) from security_profiles where account_id = 1 and ip_address is not null and deleted is null)) f
       where p.ip_address like '10.%'`,
    ],
    tables: ["security_profiles", "security_profile_fields"],
    requests: [
      { title: "offset 50", path: "/security/iaas/v2/profiles?limit=25&offset=50" },
      { title: "one address (ip_address)", path: "/security/iaas/v2/profiles?ip_address=10.0.1.7" },
    ],
  },
  {
    // The platform's answer is one entry per account, every protected network in it: the listing pages accounts.
    id: "announces",
    route: "GET /security/sifter/v2/protected_addresses/announces",
    rows: "networks: the addresses of the profiles above",
    generate: () => [],
    tables: [],
    requests: [
      { title: "the account's entry (every network)", path: "/security/sifter/v2/protected_addresses/announces" },
      { title: "announced=true", path: "/security/sifter/v2/protected_addresses/announces?announced=true" },
      {
        title: "the account's entry, each after a write (rebuilt)",
        path: "/security/sifter/v2/protected_addresses/announces",
        goal: false,
        // One generated profile's bgp option turned over: the account's announces get a new version.
        afterWrite: `update security_profiles set options = jsonb_set(options, '{bgp}', to_jsonb(not (options ->> 'bgp')::boolean))
                     where id = (select min(id) from security_profiles where account_id = 1 and ip_address like '10.%')`,
      },
    ],
  },
  {
    id: "storages",
    route: "GET /storage/v4/object_storages, /storage/v4/sftp_storages, /storage/provisioning/v3/storage",
    rows: "S3 storages and as many SFTP storages",
    generate: (count) => [
      `insert into storages (account_id, name, type, location, created)
       select ${ACCOUNT}, 'scale-' || type || '-' || g, type, case type when 's3' then 's-ed1' else 'ams' end, now() - (g || ' minutes')::interval
       from generate_series(1, ${count}) g, (values ('s3'), ('sftp')) types(type)`,
    ],
    tables: ["storages"],
    requests: [
      { title: "object storages, offset 50", path: "/storage/v4/object_storages?limit=25&offset=50" },
      { title: "object storages by name, offset 50", path: "/storage/v4/object_storages?order_by=name&limit=25&offset=50" },
      { title: "SFTP storages, offset 50", path: "/storage/v4/sftp_storages?limit=25&offset=50" },
      { title: "every storage (v3), offset 50", path: "/storage/provisioning/v3/storage?limit=25&offset=50" },
      { title: "every storage (v3), type=sftp, newest first", path: "/storage/provisioning/v3/storage?type=sftp&order_by=created_at&order_direction=desc&limit=25&offset=50" },
    ],
  },
  {
    id: "buckets",
    route: "GET /storage/v4/object_storages/{id}/buckets, /storage/provisioning/v2/storage/{id}/s3/buckets",
    rows: "buckets of one S3 storage of each account",
    generate: (count) => [
      `insert into buckets (account_id, storage_id, name, created)
       select s.account_id, s.id, 'bucket-' || lpad(g::text, 7, '0'), now() - (g || ' minutes')::interval
       from (select g, ${ACCOUNT} as account_id from generate_series(1, ${count}) g) b
       join (select account_id, min(id) as id from storages where type = 's3' and deleted is null group by account_id) s using (account_id)`,
    ],
    tables: ["buckets"],
    lookups: { storage: "select storage_id from buckets where account_id = 1 group by storage_id order by count(*) desc limit 1" },
    requests: [
      { title: "v4, offset 50", path: "/storage/v4/object_storages/{storage}/buckets?limit=25&offset=50" },
      { title: "v2, offset 50", path: "/storage/provisioning/v2/storage/{storage}/s3/buckets?limit=25&offset=50" },
    ],
  },
  {
    id: "sshKeys",
    route: "GET /storage/v4/ssh_keys",
    rows: "SSH keys",
    generate: (count) => [
      `insert into storage_ssh_keys (account_id, name, public_key, created)
       select ${ACCOUNT}, 'scale-key-' || g, 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHg3cB7cmTqL0sVn2kX9yPq4Rz8aWfJd1oEeUu5tYi0M key-' || g, now() - (g || ' minutes')::interval
       from generate_series(1, ${count}) g`,
    ],
    tables: ["storage_ssh_keys"],
    requests: [
      { title: "offset 50", path: "/storage/v4/ssh_keys?limit=25&offset=50" },
      { title: "name substring, newest first", path: "/storage/v4/ssh_keys?name=key-77&order_by=-created_at&limit=25&offset=0", goal: false },
    ],
  },
];
