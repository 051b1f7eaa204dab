/** The contract holds every specified route, each fully described, and every schema parses what it should. */
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import * as examples from "./examples.js";
import {
  AREAS,
  CDN_OPTION_NAMES,
  INT32_MAX,
  INT32_MIN,
  limitedFields,
  updateSecurityProfileBody as securityBody,
  type FieldPath,
  ROUTES,
  routeById,
  routeExample,
  apiToken,
  bucketCors,
  cdnClientSettings,
  cdnFeatures,
  cdnResource,
  cdnResourceOptions,
  cdnRuleOptions,
  clipRecording,
  completeCdnRuleOptions,
  contract,
  costReportTotals,
  costReportTotalsBody,
  createClipRecordingBody,
  createEdgeAppSecretBody,
  createLogsUploaderTargetBody,
  edgeApp,
  edgeAppSecret,
  edgeAppTemplate,
  errorEnvelope,
  gpuImage,
  inferenceModel,
  listApiTokensQuery,
  listEdgeAppsQuery,
  listInferenceModelsQuery,
  logsUploaderTarget,
  originGroup,
  replaceCdnResourceBody,
  securityProfile,
  shieldingSetting,
  shieldingSettingWrite,
  stream,
  updateCdnResourceBody,
  updateEdgeAppBody,
  updateSecurityProfileBody,
} from "./index.js";

/** The first operations the platform's API was specified with, as its reference writes them: each must stay served. */
const SPECIFIED_ROUTES = [
  "PATCH /cdn/resources/{resource_id}",
  "PUT /cdn/resources/{resource_id}",
  "PUT /cdn/resources/{resource_id}/shielding_v2",
  "POST /cdn/logs_uploader/targets",
  "GET /cdn/clients/me/features",
  "PUT /cdn/clients/me",
  "GET /cdn/origin_groups/{origin_group_id}",
  "GET /edge/v1/apps",
  "PUT /edge/v1/apps/{id}",
  "GET /edge/v1/template/{id}",
  "POST /edge/v1/secrets",
  "GET /streaming/streams",
  "GET /streaming/streams/{stream_id}",
  "PUT /streaming/streams/{stream_id}/clip_recording",
  "GET /cloud/v2/inference/models",
  "GET /cloud/v3/gpu/virtual/{project_id}/{region_id}/images",
  "POST /cloud/v1/reservation_cost_report/totals",
  "PUT /security/iaas/v2/profiles/{id}",
  "GET /iam/clients/{clientId}/tokens",
  "GET /storage/provisioning/v1/storage/{id}/s3/bucket/{name}/cors",
];

const routes = ROUTES.map(({ id, route }) => [id, route] as const);

/** Issues of a failed parse as `path → messages`, the shape of the error envelope's `errors`. */
function fieldErrors(schema: z.ZodTypeAny, value: unknown): Record<string, string[]> {
  const result = schema.safeParse(value);
  if (result.success) return {};
  const errors: Record<string, string[]> = {};
  for (const issue of result.error.issues) (errors[issue.path.join(".")] ??= []).push(issue.message);
  return errors;
}

describe("routes", () => {
  it("holds every specified route, and no method and path twice", () => {
    const actual = routes.map(([, route]) => `${route.method} ${route.path.replace(/:(\w+)/g, "{$1}")}`);
    expect(actual).toEqual(expect.arrayContaining(SPECIFIED_ROUTES));
    expect(new Set(actual).size).toBe(actual.length);
  });

  it("lists every route of the contract tree in ROUTES, in its order, with its id, area, name and access", () => {
    const tree = Object.entries(contract).flatMap(([area, router]) =>
      Object.entries(router as Record<string, unknown>).map(([name, route]) => ({ id: `${area}.${name}`, area, name, route })),
    );
    expect(ROUTES.map(({ id, area, name, route }) => ({ id, area, name, route }))).toEqual(tree);
    expect(new Set(ROUTES.map(({ id }) => id)).size).toBe(ROUTES.length);
    for (const entry of ROUTES) {
      expect(entry.access).toBe((entry.route.metadata as { access: string }).access);
      expect(routeById(entry.id)).toBe(entry);
    }
    expect(() => routeById("cdn.noSuchRoute" as never)).toThrow("The contract has no route cdn.noSuchRoute.");
  });

  it("nests routes by area, the first path segment of each primary route", () => {
    expect(Object.keys(contract).sort()).toEqual(Object.keys(AREAS).sort());
    for (const { id, area, route, aliasOf } of ROUTES) if (!aliasOf) expect(route.path.split("/")[1], id).toBe(area);
  });

  it("serves each alias with a primary route of its area that takes the same path parameters and access", () => {
    const paramNames = (path: string) => [...path.matchAll(/:(\w+)/g)].map((match) => match[1]).sort();
    for (const { id, area, route, access, aliasOf } of ROUTES.filter((entry) => entry.aliasOf)) {
      const primary = routeById(aliasOf!);
      expect(primary.aliasOf, id).toBeUndefined();
      expect(primary.area, id).toBe(area);
      expect(access, id).toBe(primary.access);
      expect(paramNames(route.path), id).toEqual(paramNames(primary.route.path));
      expect(`${route.method} ${route.path}`, id).not.toBe(`${primary.route.method} ${primary.route.path}`);
      expect(route.description, id).toContain(`An alias of \`${primary.route.method} ${primary.route.path}\``);
    }
  });

  it.each(routes)("%s is described, declares its access, the Authorization header and the error envelope", (_name, route) => {
    expect(route.summary?.length).toBeGreaterThan(5);
    expect(route.description?.length).toBeGreaterThan(20);
    expect(["read", "purge", "write"]).toContain((route.metadata as { access?: string } | undefined)?.access);
    expect(route.strictStatusCodes).toBe(true);
    const headers = route.headers as z.AnyZodObject;
    expect(headers.safeParse({ authorization: "apikey abc" }).success).toBe(true);
    expect(headers.safeParse({}).success).toBe(false);
    const statuses = Object.keys(route.responses).map(Number);
    expect(statuses.filter((status) => status < 300)).toHaveLength(1);
    for (const status of [400, 401, 403, 404, 429, 500, 503]) expect(statuses).toContain(status);
    if ("body" in route) for (const status of [413, 415]) expect(statuses).toContain(status);
    for (const status of statuses.filter((code) => code >= 400))
      expect((route.responses as Record<number, z.ZodTypeAny>)[status]!.safeParse(examples.validationErrorExample).success).toBe(true);
  });

  it("marks only GET routes, the cost and usage reports, the storage statistics and the CDN metrics (reads asked for with a POST) as reads", () => {
    const reads = routes.filter(([, route]) => (route.metadata as { access: string }).access === "read").map(([name]) => name);
    const POST_READS = [
      "cloud.getReservationCostReportTotals",
      "cloud.getCostReportAggregated",
      "cloud.getCostReportDetailed",
      "cloud.getUsageReport",
      "storage.getUsageAggregated",
      "storage.getUsageSeries",
      "cdn.listMetrics",
    ];
    const expected = routes
      .filter(([name, route]) => route.method === "GET" || POST_READS.includes(name))
      .map(([name]) => name);
    expect(reads.sort()).toEqual(expected.sort());
  });
});

describe("examples parse with their schemas", () => {
  const pairs: Array<[string, z.ZodTypeAny, unknown]> = [
    ["cdnResource", cdnResource, examples.cdnResourceExample],
    ["updateCdnResourceBody", updateCdnResourceBody, examples.updateCdnResourceExample],
    ["replaceCdnResourceBody", replaceCdnResourceBody, examples.replaceCdnResourceExample],
    ["shieldingSetting", shieldingSetting, examples.shieldingSettingExample],
    ["shieldingSettingWrite", shieldingSettingWrite, examples.shieldingSettingExample],
    ["createLogsUploaderTargetBody", createLogsUploaderTargetBody, examples.createLogsUploaderTargetExample],
    ["logsUploaderTarget", logsUploaderTarget, examples.logsUploaderTargetExample],
    ["cdnFeatures", cdnFeatures, examples.cdnFeaturesExample],
    ["cdnClientSettings", cdnClientSettings, examples.cdnClientSettingsExample],
    ["originGroup", originGroup, examples.originGroupExample],
    ["edgeApp", edgeApp, examples.edgeAppExample],
    ["updateEdgeAppBody", updateEdgeAppBody, examples.updateEdgeAppExample],
    ["edgeAppTemplate", edgeAppTemplate, examples.edgeAppTemplateExample],
    ["createEdgeAppSecretBody", createEdgeAppSecretBody, examples.createEdgeAppSecretExample],
    ["edgeAppSecret", edgeAppSecret, examples.edgeAppSecretExample],
    ["stream", stream, examples.streamExample],
    ["createClipRecordingBody", createClipRecordingBody, examples.createClipRecordingExample],
    ["clipRecording", clipRecording, examples.clipRecordingExample],
    ["inferenceModel", inferenceModel, examples.inferenceModelExample],
    ["gpuImage", gpuImage, examples.gpuImageExample],
    ["costReportTotalsBody", costReportTotalsBody, examples.costReportTotalsRequestExample],
    ["costReportTotals", costReportTotals, examples.costReportTotalsExample],
    ["securityProfile", securityProfile, examples.securityProfileExample],
    ["updateSecurityProfileBody", updateSecurityProfileBody, examples.updateSecurityProfileExample],
    ["apiToken", apiToken, examples.apiTokenExample],
    ["bucketCors", bucketCors, examples.bucketCorsExample],
    ["errorEnvelope", errorEnvelope, examples.validationErrorExample],
  ];

  it.each(pairs)("%s", (_name, schema, example) => {
    expect(fieldErrors(schema, example)).toEqual({});
  });

  it("covers every example the module exports", () => {
    const used = new Set(pairs.map(([, , example]) => example));
    expect(Object.values(examples).filter((example) => !used.has(example))).toEqual([]);
  });
});

describe("the example of every route", () => {
  const asText = (values: Record<string, unknown> | undefined) =>
    Object.fromEntries(Object.entries(values ?? {}).map(([key, value]) => [key, String(value)]));

  it("is declared beside each primary route, with its case; an alias shows its primary's", () => {
    for (const { id, route, aliasOf } of ROUTES) {
      const metadata = route.metadata as { example?: unknown; case?: unknown };
      expect(metadata.example, id).toBeDefined();
      expect(metadata.case, id).toBeDefined();
      if (aliasOf) {
        const primary = routeById(aliasOf).route.metadata as { example?: unknown; case?: unknown };
        expect(routeExample(id), id).toBe(primary.example);
        expect(metadata.case, id).toBe(primary.case);
      } else expect(routeExample(id), id).toBe(metadata.example);
    }
  });

  it.each(ROUTES.map((entry) => [entry.id, entry] as const))("%s parses with the route's own schemas", (id, { route }) => {
    const example = routeExample(id)!;
    const names = [...route.path.matchAll(/:(\w+)/g)].map((match) => match[1]!);
    expect(Object.keys(example.pathParams ?? {}).sort(), id).toEqual([...names].sort());
    if (route.pathParams) expect(fieldErrors(route.pathParams as z.ZodTypeAny, asText(example.pathParams)), id).toEqual({});
    if (route.query) expect(fieldErrors(route.query as z.ZodTypeAny, asText(example.query)), id).toEqual({});
    else expect(example.query, id).toBeUndefined();
    if ("body" in route) {
      expect(example.body, id).toBeDefined();
      expect(fieldErrors(route.body as z.ZodTypeAny, example.body), id).toEqual({});
    } else expect(example.body, id).toBeUndefined();
    const success = Object.keys(route.responses).find((status) => Number(status) < 300)!;
    // A 204 answers no body, and its example shows none.
    if (success === "204") expect(example.response, id).toBeUndefined();
    else {
      expect(example.response, id).toBeDefined();
      expect(fieldErrors((route.responses as Record<string, z.ZodTypeAny>)[success]!, example.response), id).toEqual({});
    }
  });
});

describe("bad input fails with the right path and message", () => {
  it("rejects an unknown option key, and a bad field inside a known option", () => {
    expect(
      fieldErrors(updateCdnResourceBody, {
        options: { gzipon: { enabled: true, value: true }, cors: { enabled: true, value: ["not a domain"] } },
      }),
    ).toEqual({ "options.gzipon": ["Unknown option."], "options.cors.value.0": ["Must be a domain name."] });
  });

  it("rejects unknown fields inside an option", () => {
    expect(fieldErrors(updateCdnResourceBody, { options: { gzipOn: { enabled: true, value: true, level: 9 } } })).toEqual({
      "options.gzipOn.level": ["Unknown field: this operation does not take it."],
    });
  });

  it("rejects a wrong enum value with the values it takes", () => {
    expect(fieldErrors(updateCdnResourceBody, { originProtocol: "FTP" })).toEqual({
      originProtocol: ["Must be one of: HTTP, HTTPS, MATCH."],
    });
    expect(
      fieldErrors(updateCdnResourceBody, { options: { country_acl: { enabled: true, policy_type: "block", excepted_values: ["XX", "DE"] } } }),
    ).toEqual({
      "options.country_acl.policy_type": ["Must be one of: allow, deny."],
      "options.country_acl.excepted_values.0": ["Must be an ISO 3166-1 alpha-2 country code such as DE."],
    });
  });

  it("rejects an edge app status of 9, and the statuses only the service sets", () => {
    expect(Object.keys(fieldErrors(updateEdgeAppBody, { status: 9 }))).toEqual(["status"]);
    expect(fieldErrors(updateEdgeAppBody, { status: 4 })).toEqual({ status: ["Statuses 3, 4 and 5 are set by the service, not by callers."] });
    expect(fieldErrors(edgeApp, { ...examples.edgeAppExample, status: 9 })).toHaveProperty("status");
  });

  it("rejects read-only fields in a PATCH body, each with its own path", () => {
    expect(fieldErrors(updateCdnResourceBody, { name: "ok", id: 5, cname: "x.example.com" })).toEqual({
      id: ["Read-only field: it is set by the service and cannot be written."],
      cname: ["Read-only field: it is set by the service and cannot be written."],
    });
    expect(fieldErrors(updateCdnResourceBody, { waap_api_domain_enabled: true })).toEqual({
      waap_api_domain_enabled: ["Only the full-replace operation (PUT) takes this field."],
    });
    expect(fieldErrors(replaceCdnResourceBody, { originGroup: 101, waap_api_domain_enabled: true })).toEqual({});
  });

  it("checks the options' own constraints (methods, TLS versions, …)", () => {
    const options = (value: unknown) => Object.keys(fieldErrors(updateCdnResourceBody, { options: value }));
    expect(options({ allowedHttpMethods: { enabled: true, value: ["GET", "TRACE"] } })).toEqual(["options.allowedHttpMethods.value.1"]);
    expect(options({ tls_versions: { enabled: true, value: ["TLSv1.4"] } })).toEqual(["options.tls_versions.value.0"]);
    expect(options({ follow_origin_redirect: { enabled: true, codes: [301, 304] } })).toEqual(["options.follow_origin_redirect.codes.1"]);
    expect(options({ rewrite: { enabled: true, body: "/(.*) /$1", flag: "stop" } })).toEqual(["options.rewrite.flag"]);
    expect(options({ sni: { enabled: true, sni_type: "custom" } })).toEqual(["options.sni.custom_hostname"]);
    expect(options({ sni: { enabled: true, sni_type: "custom", custom_hostname: "origin.example.com" } })).toEqual([]);
    expect(options({ limit_bandwidth: { enabled: true, limit_type: "burst", speed: 100, buffer: 10 } })).toEqual(["options.limit_bandwidth.limit_type"]);
    expect(options({ secure_key: { enabled: true, key: "secret-key", type: 1 } })).toEqual(["options.secure_key.type"]);
    expect(options({ browser_cache_settings: { enabled: true, value: "366d" } })).toEqual(["options.browser_cache_settings.value"]);
    expect(options({ browser_cache_settings: { enabled: true, value: "365d" } })).toEqual([]);
    expect(options({ edge_cache_settings: { enabled: true, custom_values: { "404": "1x" } } })).toEqual(["options.edge_cache_settings.custom_values.404"]);
    expect(options({ cache_http_headers: { enabled: true, value: ["Content-Type"] } })).toEqual(["options.cache_http_headers.value.0"]);
    expect(options({ ip_address_acl: { enabled: true, policy_type: "allow", excepted_values: ["10.0.0.0/33", "2001:db8::/32", "1.2.3.4"] } })).toEqual([
      "options.ip_address_acl.excepted_values.0",
      "options.ip_address_acl.excepted_values.2",
    ]);
    expect(options({ gzipOn: { value: true } })).toEqual(["options.gzipOn.enabled"]);
    expect(options({ gzipOn: null })).toEqual([]);
  });

  it("knows exactly the specified option keys, in their case", () => {
    const apiMd =
      "disable_cache disable_proxy_force_ranges fetch_compressed forward_host_header gzipOn http3_enabled ignore_cookie " +
      "ignoreQueryString proxy_cache_methods_set redirect_http_to_https redirect_https_to_http slice use_default_le_chain " +
      "use_dns01_le_challenge use_rsa_le_cert waap websockets allowedHttpMethods bot_protection brotli_compression " +
      "browser_cache_settings cache_http_headers cors country_acl ip_address_acl referrer_acl user_agent_acl " +
      "edge_cache_settings edge follow_origin_redirect force_return hostHeader image_stack limit_bandwidth proxy_cache_key " +
      "proxy_connect_timeout proxy_read_timeout query_params_blacklist query_params_whitelist query_string_forwarding " +
      "request_limiter response_headers_hiding_policy rewrite secure_key sni stale static_response_headers staticHeaders " +
      "staticRequestHeaders tls_versions";
    // The keys of the platform's SDK (its resource options model) that the specification does not name.
    const sdk = "fastedge grpc_passthrough network_error_logging";
    const keys = `${apiMd} ${sdk}`.split(" ").sort();
    expect([...CDN_OPTION_NAMES].sort()).toEqual(keys);
    expect(Object.keys(cdnResourceOptions.shape).sort()).toEqual(keys);
  });

  it("completes stored options to their returned form: every option and field in order, null without a value", () => {
    const optionKeys = Object.keys(cdnRuleOptions.shape);
    const none = Object.fromEntries(optionKeys.map((key) => [key, null]));
    expect(completeCdnRuleOptions({})).toEqual(none);
    expect(Object.keys(completeCdnRuleOptions({}))).toEqual(optionKeys);
    // A set option gets its missing fields as null; a null option stays null, keys of no option are left out.
    const completed = completeCdnRuleOptions({ cors: null, edge_cache_settings: { enabled: true, default: "2h" }, not_an_option: { enabled: true } });
    expect(Object.keys(completed)).toEqual(optionKeys);
    expect(completed).toEqual({ ...none, edge_cache_settings: { enabled: true, value: null, default: "2h", custom_values: null } });
    expect(Object.keys(completed.edge_cache_settings!)).toEqual(["enabled", "value", "default", "custom_values"]);
    expect(cdnRuleOptions.safeParse(completed).success).toBe(true);
    // A required field the stored option lacks is not made up.
    expect(completeCdnRuleOptions({ gzipOn: { value: true } }).gzipOn).toEqual({ value: true });
  });

  it("accepts only digit strings as integer path and query parameters", () => {
    const page = (value: unknown) => listEdgeAppsQuery.safeParse({ limit: value });
    expect(page("10").data?.limit).toBe(10);
    for (const bad of ["1e1", "0x10", " 10", "10abc", "", "0", "1001", "2.5"]) expect(page(bad).success).toBe(false);
    const params = contract.cdn.getOriginGroup.pathParams;
    expect(params.safeParse({ origin_group_id: "2147483648" }).success).toBe(false);
    expect(params.safeParse({ origin_group_id: "2147483647" }).success).toBe(true);
    expect(listApiTokensQuery.parse({ role: "3009" })).toEqual({ role: 3009 });
    for (const bad of ["4", "1e0", " 1", "1.5", "abc", ""])
      expect(fieldErrors(listApiTokensQuery, { role: bad }), bad).toEqual({ role: ["Must be one of: 1, 2, 5, 3009, 3022."] });
  });

  it("applies the documented query defaults", () => {
    expect(listEdgeAppsQuery.parse({})).toEqual({ limit: 25, offset: 0, ordering: "id" });
    expect(listInferenceModelsQuery.parse({})).toEqual({ limit: 1000, offset: 0, order_by: "name.asc" });
    expect(listApiTokensQuery.parse({ deleted: "false", role: "3022", unknown: "x" })).toEqual({ deleted: false, role: 3022 });
    expect(Object.keys(fieldErrors(listApiTokensQuery, { deleted: "yes", role: "4" })).sort()).toEqual(["deleted", "role"]);
  });

  it("checks cross-field rules of request bodies", () => {
    expect(fieldErrors(costReportTotalsBody, { time_from: "2026-03", time_to: "2026-01" })).toEqual({ time_to: ["Must not be before time_from."] });
    expect(Object.keys(fieldErrors(costReportTotalsBody, { time_from: "2026-13", time_to: "2026-01", types: ["gpu"] })).sort()).toEqual(["time_from", "types.0"]);
    expect(
      fieldErrors(createEdgeAppSecretBody, { name: "key", secret_slots: [{ slot: 1, value: "a" }, { slot: 1, value: "b" }] }),
    ).toEqual({ "secret_slots.1.slot": ["Slots must be unique within the secret."] });
    expect(Object.keys(fieldErrors(updateSecurityProfileBody, { profile_template: 1, ip_address: "300.1.1.1", fields: [{ base_field: 1 }], site: "ED" })).sort()).toEqual([
      "fields.0.field_value",
      "ip_address",
    ]);
  });

  it("never accepts a secret in a response, so response validation catches a leak", () => {
    const leaked = { ...examples.logsUploaderTargetExample, config: { ...examples.logsUploaderTargetExample.config, secret_access_key: "x" } };
    expect(logsUploaderTarget.safeParse(leaked).success).toBe(false);
    const leakedKey = { ...examples.cdnResourceExample, options: { secure_key: { enabled: true, type: 2, key: "abcdefg" } } };
    expect(cdnResource.safeParse(leakedKey).success).toBe(false);
    const leakedSlot = { ...examples.edgeAppSecretExample, secret_slots: [{ slot: 0, checksum: "ab", value: "v" }] };
    expect(edgeAppSecret.safeParse(leakedSlot).success).toBe(false);
    expect(edgeApp.safeParse({ ...examples.edgeAppExample, env: { A: "b" } }).success).toBe(false);
  });
});

/** `value` set at `path` inside `root`, making the objects and arrays on the way (an index makes an array). */
function setAt(root: Record<string, unknown>, path: FieldPath, value: unknown): Record<string, unknown> {
  let container: Record<string | number, unknown> = root;
  path.forEach((key, index) => {
    if (index === path.length - 1) container[key] = value;
    else container = (container[key] ??= typeof path[index + 1] === "number" ? [] : {}) as Record<string | number, unknown>;
  });
  return root;
}

describe("limits", () => {
  /** Every schema a route takes (path, query, body) and its success response's, by route. */
  const schemasOf = (route: (typeof ROUTES)[number]["route"]) => {
    const responses = route.responses as Record<string, z.ZodTypeAny>;
    const success = responses[Object.keys(responses).find((status) => Number(status) < 300)!]!;
    const inputs = [route.pathParams, route.query, "body" in route ? route.body : undefined].filter(Boolean) as z.ZodTypeAny[];
    return { inputs, success };
  };

  it.each(ROUTES.map((entry) => [entry.id, entry] as const))(
    "%s: every integer it takes or answers has its column's range, int32 or (bigint) the safe integers",
    (_id, { route }) => {
      const { inputs, success } = schemasOf(route);
      const integers = [...inputs, success].flatMap((schema) => limitedFields(schema)).filter((field) => field.kind === "integer");
      for (const field of integers) {
        const where = field.path.join(".");
        expect(Number.isSafeInteger(field.min) && Number.isSafeInteger(field.max), where).toBe(true);
        const int32 = field.min >= INT32_MIN && field.max <= INT32_MAX;
        expect(int32 || field.max === Number.MAX_SAFE_INTEGER, `${where}: ${field.min} to ${field.max}`).toBe(true);
      }
    },
  );

  it("finds the integers of a body, in lists and maps too", () => {
    const paths = (schema: z.ZodTypeAny) => limitedFields(schema).filter((field) => field.kind === "integer").map((field) => field.path.join("."));
    expect(paths(updateEdgeAppBody)).toEqual(["binary", "template", "status", "secrets.KEY.id", "stores.KEY.id"]);
    expect(paths(securityBody)).toEqual(["profile_template", "fields.0.base_field"]);
    expect(paths(costReportTotalsBody)).toEqual(["regions.0"]);
  });

  // Each with the schema it sits in: the body's, or the query's.
  const sized = ROUTES.flatMap(({ id, route }) =>
    schemasOf(route).inputs.flatMap((schema) =>
      limitedFields(schema)
        .filter((field) => field.kind !== "integer")
        .map((field) => [`${id} ${field.path.join(".")}`, field, schema] as const),
    ),
  );

  it("walks every list and map a client sends", () => {
    expect(sized.length).toBeGreaterThan(30);
    expect(sized.map(([name]) => name)).toEqual(
      expect.arrayContaining(["edge.updateApp secrets", "security.updateProfile fields", "cloud.getReservationCostReportTotals regions"]),
    );
  });

  it.each(sized)("%s has a maximum, said in its description", (_name, field) => {
    expect(field.max).toBeDefined();
    expect(field.max).toBeLessThanOrEqual(1000);
    expect(field.description).toContain(`At most ${field.max} `);
  });

  it.each(sized)("%s over its maximum is refused once, before any entry is checked", (_name, field, schema) => {
    const size = field.max! + 1;
    const entries = field.kind === "list" ? Array.from({ length: size }, () => null) : Object.fromEntries(Array.from({ length: size }, (_, index) => [`~${index}`, null]));
    // A body that is itself a list (a stream's overlays) is the list.
    const input = field.path.length === 0 ? entries : setAt({}, field.path, entries);
    const errors = fieldErrors(schema, input);
    const where = field.path.join(".");
    expect(errors[where]).toEqual([expect.stringMatching(new RegExp(`^At most ${field.max} `))]);
    // No entry was looked at: none of them (all invalid) has a problem of its own.
    expect(Object.keys(errors).filter((key) => key.startsWith(`${where}.`))).toEqual([]);
  });

  it("bounds a security field's value: nesting, items, keys and string length, checked before what lies inside", () => {
    const value = (fieldValue: unknown) => fieldErrors(securityBody, { ...examples.updateSecurityProfileExample, fields: [{ base_field: 1, field_value: fieldValue }] });
    let deep: unknown = 1;
    for (let level = 0; level < 100_000; level++) deep = [deep];
    expect(value(deep)).toEqual({ "fields.0.field_value.0.0.0.0.0.0.0.0": ["Nested too deep: at most 8 levels of arrays and objects."] });
    expect(value(Array.from({ length: 100_000 }, (_, index) => ({ index })))).toEqual({ "fields.0.field_value": ["At most 1000 items."] });
    expect(value({ list: Object.fromEntries(Array.from({ length: 101 }, (_, index) => [`k${index}`, "x".repeat(2000)])) })).toEqual({
      "fields.0.field_value.list": ["At most 100 keys."],
    });
    expect(value(["DE", "x".repeat(1025)])).toEqual({ "fields.0.field_value.1": ["At most 1024 characters."] });
    expect(value(Array.from({ length: 1000 }, (_, index) => [index, { port: index }]))).toEqual({});
  });

  it("rejects more than 100 unknown fields as one problem that says how many", () => {
    const body = Object.fromEntries(Array.from({ length: 70_000 }, (_, index) => [`field${index}`, index]));
    expect(fieldErrors(updateEdgeAppBody, body)).toEqual({
      "": ['70000 fields this operation does not take (unknown or read-only), such as "field0", "field1", "field2".'],
    });
    expect(Object.keys(fieldErrors(updateEdgeAppBody, { ...Object.fromEntries(Array.from({ length: 100 }, (_, index) => [`f${index}`, 1])) }))).toHaveLength(100);
  });
});
