/**
 * Integration tests of what the edge apps did, counted from their calls (the demo generator's week of
 * them): an app's logs with the platform's filters and paging, the call and duration series per slot,
 * and the account's overview; another account's apps answered as missing ones.
 */
import { DEMO_CALLS_FROM, demoFixture, sql } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi } from "../harness.js";

const FROM = DEMO_CALLS_FROM;
const DAY_END = new Date(Date.parse(FROM) + 86_400_000).toISOString();
const firstServing = (account: number) => demoFixture.edgeApps.find((app) => app.accountId === account && app.status === 1 && app.binaryId !== null)!;

interface Log {
  id: string;
  app_name: string;
  client_ip: string;
  edge: string;
  log: string;
  request_id: string;
  timestamp: string;
}

describe.each(engines())("edge apps' logs and statistics on %s", (engine) => {
  const api = useApi(engine);
  const rows = <T extends Record<string, unknown>>(query: ReturnType<typeof sql>) => selectRows<T>(api.database.db, query);
  const app = firstServing(1);

  it("lists an app's log lines in the period, newest first, with every field, paged, total_count counting all", async () => {
    const [{ total }] = (await rows<{ total: number }>(
      sql`select count(*)::int as total from edge_app_calls where app_id = ${app.id} and time >= ${FROM}::timestamptz and time < ${DAY_END}::timestamptz`,
    )) as [{ total: number }];
    const reply = await api.call("GET", `/fastedge/v1/apps/${app.id}/logs?from=${FROM}&to=${DAY_END}&limit=1000`);
    expect(reply.status, reply.text).toBe(200);
    const { logs, total_count } = reply.body as { logs: Log[]; total_count: number };
    expect(total_count).toBe(total);
    expect(logs).toHaveLength(total);
    expect(logs.every((entry) => entry.app_name === app.name)).toBe(true);
    const times = logs.map((entry) => entry.timestamp);
    expect(times).toEqual([...times].sort().reverse());
    const asc = (await api.call("GET", `/fastedge/v1/apps/${app.id}/logs?from=${FROM}&to=${DAY_END}&sort=asc&limit=2&offset=1`)).body as { logs: Log[]; total_count: number };
    expect(asc).toEqual({ logs: [...logs].reverse().slice(1, 3), total_count: total });
    // Without from and to: the last hour, in which the demo's week has no calls.
    expect((await api.call("GET", `/fastedge/v1/apps/${app.id}/logs`)).body).toEqual({ logs: [], total_count: 0 });
  });

  it("filters the lines by client address, edge, request id and text", async () => {
    const base = `/fastedge/v1/apps/${app.id}/logs?from=${FROM}&to=${DAY_END}&limit=1000`;
    const all = ((await api.call("GET", base)).body as { logs: Log[] }).logs;
    const one = all[3]!;
    const pick = async (query: string) => ((await api.call("GET", `${base}&${query}`)).body as { logs: Log[] }).logs.map((entry) => entry.id);
    expect(await pick(`request_id=${one.request_id}`)).toEqual([one.id]);
    expect(await pick(`client_ip=${one.client_ip}`)).toEqual(all.filter((entry) => entry.client_ip === one.client_ip).map((entry) => entry.id));
    expect(await pick(`edge=${one.edge}`)).toEqual(all.filter((entry) => entry.edge === one.edge).map((entry) => entry.id));
    expect(await pick("search=answered%20500")).toEqual(all.filter((entry) => entry.log.includes("answered 500")).map((entry) => entry.id));
  });

  it("refuses another account's app (404), a period that ends before it starts and bad parameters (400)", async () => {
    const theirs = firstServing(2);
    expectEnvelope(await api.call("GET", `/fastedge/v1/apps/${theirs.id}/logs?from=${FROM}&to=${DAY_END}`), 404, "not_found");
    expectEnvelope(await api.call("GET", `/fastedge/v1/apps/999999/logs`), 404, "not_found");
    expectEnvelope(await api.call("GET", `/fastedge/v1/apps/${app.id}/logs?from=${DAY_END}&to=${FROM}`), 400, "validation_error", { "query.to": expect.any(Array) });
    expectEnvelope(await api.call("GET", `/fastedge/v1/apps/${app.id}/logs?from=yesterday&sort=up&limit=0`), 400, "validation_error", {
      "query.from": expect.any(Array),
      "query.sort": expect.any(Array),
      "query.limit": expect.any(Array),
    });
  });

  it("counts the calls per slot by status, every slot listed, for the account, one app and one network", async () => {
    const reply = await api.call("GET", `/fastedge/v1/stats/calls?from=${FROM}&to=${DAY_END}&step=3600`);
    expect(reply.status, reply.text).toBe(200);
    const { stats } = reply.body as { stats: { time: string; count_by_status: { status: number; count: number }[] }[] };
    expect(stats).toHaveLength(24);
    expect(stats[1]!.time).toBe(new Date(Date.parse(FROM) + 3_600_000).toISOString());
    const expected = await rows<{ hour: number; status: number; count: number }>(sql`
      select floor(extract(epoch from (time - ${FROM}::timestamptz)) / 3600)::int as hour, status, count(*)::int as count
      from edge_app_calls where account_id = 1 and time >= ${FROM}::timestamptz and time < ${DAY_END}::timestamptz
      group by 1, 2 order by 1, 2`);
    expect(stats.flatMap((slot, hour) => slot.count_by_status.map((entry) => ({ hour, ...entry })))).toEqual(expected);
    // One app, one network.
    const ofApp = (await api.call("GET", `/fastedge/v1/stats/calls?from=${FROM}&to=${DAY_END}&step=86400&id=${app.id}`)).body;
    const [{ calls }] = (await rows<{ calls: number }>(sql`select count(*)::int as calls from edge_app_calls where app_id = ${app.id} and time < ${DAY_END}::timestamptz`)) as [{ calls: number }];
    expect((ofApp as { stats: { count_by_status: { count: number }[] }[] }).stats[0]!.count_by_status.reduce((sum, entry) => sum + entry.count, 0)).toBe(calls);
    const [{ eu }] = (await rows<{ eu: number }>(
      sql`select count(*)::int as eu from edge_app_calls where account_id = 1 and network = 'edge-eu' and time >= ${FROM}::timestamptz and time < ${DAY_END}::timestamptz`,
    )) as [{ eu: number }];
    const ofNetwork = (await api.call("GET", `/fastedge/v1/stats/calls?from=${FROM}&to=${DAY_END}&step=86400&network=edge-eu`)).body as { stats: { count_by_status: { count: number }[] }[] };
    expect(ofNetwork.stats[0]!.count_by_status.reduce((sum, entry) => sum + entry.count, 0)).toBe(eu);
    // Another account's app: no calls, as for one that does not exist.
    const theirs = (await api.call("GET", `/fastedge/v1/stats/calls?from=${FROM}&to=${DAY_END}&step=86400&id=${firstServing(2).id}`)).body;
    expect(theirs).toEqual({ stats: [{ time: FROM.replace(".000Z", ".000Z"), count_by_status: [] }] });
  });

  it("summarises the durations of the slots that had calls", async () => {
    const reply = await api.call("GET", `/fastedge/v1/stats/app_duration?from=${FROM}&to=${DAY_END}&step=21600&id=${app.id}`);
    expect(reply.status, reply.text).toBe(200);
    const expected = await rows<Record<string, number>>(sql`
      select floor(extract(epoch from (time - ${FROM}::timestamptz)) / 21600)::int as slot,
        round(avg(duration_us))::int as avg, min(duration_us) as min, max(duration_us) as max,
        round(percentile_cont(0.5) within group (order by duration_us))::int as median,
        round(percentile_cont(0.75) within group (order by duration_us))::int as perc75,
        round(percentile_cont(0.9) within group (order by duration_us))::int as perc90
      from edge_app_calls where app_id = ${app.id} and time >= ${FROM}::timestamptz and time < ${DAY_END}::timestamptz group by 1 order by 1`);
    expect(reply.body).toEqual({
      stats: expected.map(({ slot, ...figures }) => ({ time: new Date(Date.parse(FROM) + slot! * 21_600_000).toISOString(), ...figures })),
    });
    // A period without calls: no slots.
    expect((await api.call("GET", `/fastedge/v1/stats/app_duration?from=2020-01-01T00:00:00Z&to=2020-01-02T00:00:00Z&step=3600`)).body).toEqual({ stats: [] });
  });

  it("refuses a period that ends before it starts, too many slots and bad parameters, naming each", async () => {
    for (const path of ["/fastedge/v1/stats/calls", "/fastedge/v1/stats/app_duration"]) {
      expectEnvelope(await api.call("GET", `${path}?from=${DAY_END}&to=${FROM}&step=60`), 400, "validation_error", { "query.to": expect.any(Array) });
      expectEnvelope(await api.call("GET", `${path}?from=2026-01-01T00:00:00Z&to=2026-12-31T00:00:00Z&step=60`), 400, "validation_error", { "query.step": expect.any(Array) });
      expectEnvelope(await api.call("GET", `${path}?from=now&step=1`), 400, "validation_error", {
        "query.from": expect.any(Array),
        "query.to": expect.any(Array),
        "query.step": expect.any(Array),
      });
    }
  });

  it("gives the account's overview: its apps, the plan of new apps, the networks, and its calls this hour, day and month", async () => {
    const reply = await api.call("GET", "/fastedge/v1/me");
    expect(reply.status, reply.text).toBe(200);
    const now = new Date();
    const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();
    const [{ monthly }] = (await rows<{ monthly: number }>(
      sql`select count(*)::int as monthly from edge_app_calls where account_id = 1 and time >= ${month}::timestamptz and time <= now()`,
    )) as [{ monthly: number }];
    expect(reply.body).toMatchObject({
      app_count: demoFixture.edgeApps.filter((candidate) => candidate.accountId === 1).length,
      monthly_consumption: monthly,
      plan_id: 1,
      plan: "basic",
      status: 1,
    });
    const body = reply.body as { hourly_consumption: number; daily_consumption: number; monthly_consumption: number; networks: { is_default: boolean }[] };
    expect(body.hourly_consumption).toBeLessThanOrEqual(body.daily_consumption);
    expect(body.daily_consumption).toBeLessThanOrEqual(body.monthly_consumption);
    expect(body.networks.filter((network) => network.is_default)).toHaveLength(1);
    // A new app counts at once.
    const binary = demoFixture.edgeBinaries.find((candidate) => candidate.accountId === 1)!;
    expect((await api.call("POST", "/fastedge/v1/apps", { body: { name: "overview-count", binary: binary.id } })).status).toBe(200);
    expect((await api.call("GET", "/fastedge/v1/me")).body).toMatchObject({ app_count: demoFixture.edgeApps.filter((candidate) => candidate.accountId === 1).length + 1 });
  });
});
