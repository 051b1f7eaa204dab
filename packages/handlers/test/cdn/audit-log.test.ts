/**
 * Integration tests of the CDN audit log: every write to the CDN area leaves one entry (the caller, the
 * body without its secrets, the status, what it did), refused writes too, reads none; a write's entry is
 * in its own transaction; the listing's filters and paging; each account its own.
 */
import { routeExample } from "@cloudplane/contract";
import { sql } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { AsyncLocalStorage } from "node:async_hooks";
import { describe, expect, it, vi } from "vitest";
import { engines, expectEnvelope, useApi } from "../harness.js";

interface Entry {
  id: number;
  client_id: number;
  user_id: number;
  token_id: number;
  method: string;
  path: string;
  query_params: string;
  status_code: number;
  data: unknown;
  remote_ip_address: string | null;
  actions: Array<{ action_type: string }>;
}

describe.each(engines())("the CDN audit log on %s", (engine) => {
  const api = useApi(engine);
  const entries = async () => (await selectRows<{ n: number }>(api.database.db, sql`select count(*)::int as n from cdn_audit_log`))[0]!.n;
  const newest = async (as: Parameters<typeof api.call>[2] = {}) => {
    const reply = await api.call("GET", "/cdn/activity_log/requests?limit=1", as);
    return (reply.body as { results: Entry[] }).results[0]!;
  };

  it("answers the documented examples, to a User too", async () => {
    const list = routeExample("cdn.listAuditLog")!;
    const reply = await api.call("GET", "/cdn/activity_log/requests?limit=1&offset=0", { as: [1, "role-2-active"] });
    expect(reply.body).toEqual(list.response);
    const one = routeExample("cdn.getAuditLogEntry")!;
    expect((await api.call("GET", `/cdn/activity_log/requests/${String(one.pathParams!.id)}`)).body).toEqual(one.response);
  });

  it("logs a write with its caller, its body without secrets and what it did; reads are not logged", async () => {
    const before = await entries();
    await api.call("GET", "/cdn/resources");
    await api.call("GET", "/cdn/activity_log/requests");
    expect(await entries()).toBe(before);

    const { body } = routeExample("cdn.createLogsUploaderTarget")!;
    const created = await api.call("POST", "/cdn/logs_uploader/targets?note=1", { body, as: [1, "role-5-active"], headers: { "x-forwarded-for": "203.0.113.9, 10.0.0.1" } });
    expect(created.status, created.text).toBe(201);
    expect(await entries()).toBe(before + 1);
    const entry = await newest();
    expect(entry).toMatchObject({ client_id: 1, user_id: 5, token_id: 5, method: "POST", path: "/cdn/logs_uploader/targets", query_params: "note=1", status_code: 201, remote_ip_address: "203.0.113.9" });
    expect(entry.actions).toEqual([{ action_type: "C", state_before_request: null, state_after_request: null }]);
    const config = (entry.data as { config: Record<string, unknown> }).config;
    expect(config).not.toHaveProperty("secret_access_key");
    expect(config).toHaveProperty("access_key_id");
    expect(JSON.stringify(entry)).not.toContain((body as { config: { secret_access_key: string } }).config.secret_access_key);

    const id = (created.body as { id: number }).id;
    expect((await api.call("DELETE", `/cdn/logs_uploader/targets/${id}`)).status).toBe(204);
    expect(await newest()).toMatchObject({ method: "DELETE", status_code: 204, actions: [{ action_type: "D" }], data: null });
  });

  it("logs refused writes with their status and no action: invalid, forbidden, missing", async () => {
    const before = await entries();
    expectEnvelope(await api.call("PATCH", "/cdn/resources/1", { body: { nope: true } }), 400, "validation_error");
    expect(await newest()).toMatchObject({ method: "PATCH", path: "/cdn/resources/1", status_code: 400, actions: [], data: { nope: true } });
    // Text the database cannot store is refused, and logged with each such character replaced (secrets left out as ever).
    expectEnvelope(await api.call("PATCH", "/cdn/resources/1", { body: { description: "a\u0000b\u0000", "k\ud800": ["\udc00x"], secret_key: "s" } }), 400, "validation_error", {
      description: expect.any(Array),
      "k\ud800": expect.any(Array),
      "k\ud800.0": expect.any(Array),
    });
    expect((await newest()).data).toEqual({ description: "a\ufffdb\ufffd", "k\ufffd": ["\ufffdx"] });
    expectEnvelope(await api.call("PATCH", "/cdn/resources/1", { body: { description: "x" }, as: [1, "role-2-active"] }), 403, "permission_denied");
    expect(await newest()).toMatchObject({ status_code: 403, user_id: 3, actions: [] });
    expectEnvelope(await api.call("PATCH", "/cdn/resources/999999", { body: { description: "x" } }), 404, "not_found");
    expect(await newest()).toMatchObject({ status_code: 404, actions: [] });
    // A write of another account's object is refused as a missing one, in the caller's own log.
    expectEnvelope(await api.call("PATCH", "/cdn/resources/2", { body: { description: "x" } }), 404, "not_found");
    expect(await entries()).toBe(before + 5);
    const otherLog = await api.call("GET", "/cdn/activity_log/requests?path=/cdn/resources/2&status_code=404", { as: [2, "role-1-active"] });
    expect((otherLog.body as { count: number }).count).toBe(0);
  });

  it("writes one entry per write, in the write's own transaction, dated when the transaction began", async () => {
    const [{ id: last }] = (await selectRows<{ id: number }>(api.database.db, sql`select coalesce(max(id), 0)::int as id from cdn_audit_log`)) as [{ id: number }];
    const started = Date.now();
    const changed = await api.call("PATCH", "/cdn/resources/1", { body: { description: "Audited in one transaction." } });
    expect(changed.status, changed.text).toBe(200);
    const rows = await selectRows<{ status_code: number; action_type: string; requested_at: Date }>(api.database.db, sql`select status_code, action_type, requested_at from cdn_audit_log where id > ${last}`);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status_code: 200, action_type: "U" });
    expect(new Date(rows[0]!.requested_at).getTime()).toBeGreaterThanOrEqual(started - 1000);
  });

  it("gives each of concurrent writes its own entry, and leaves no store on the promises made once none is being served", async () => {
    const before = await entries();
    const writes = await Promise.all([
      ...[1, 3].map((id) => api.call("PATCH", `/cdn/resources/${id}`, { body: { description: `Concurrent ${id}.` } })),
      api.call("PATCH", "/cdn/resources/999999", { body: { description: "x" } }),
      api.call("GET", "/cdn/resources/1"),
    ]);
    expect(writes.map((reply) => reply.status)).toEqual([200, 200, 404, 200]);
    expect(await entries()).toBe(before + 3);
    const logged = await api.call("GET", "/cdn/activity_log/requests?method=PATCH&limit=3");
    const paths = (logged.body as { results: Entry[] }).results.map((entry) => `${entry.path} ${entry.status_code} ${entry.actions.map((action) => action.action_type).join()}`);
    expect(paths.sort()).toEqual(["/cdn/resources/1 200 U", "/cdn/resources/3 200 U", "/cdn/resources/999999 404 "]);

    // Where AsyncLocalStorage runs on async hooks (Node before 24), a storage that has run gives every new
    // promise properties for its store until it is disabled: the cost every later request would pay.
    const carried = () => Object.getOwnPropertySymbols(Promise.resolve()).length;
    const probe = new AsyncLocalStorage<number>();
    const onHooks = probe.run(1, carried) > 0;
    probe.disable();
    // Node takes its promise hooks off once the current turn is over.
    await new Promise((resolve) => setImmediate(resolve));
    if (onHooks) expect(carried()).toBe(0);
  });

  // Declared on PostgreSQL only: the write must wait inside its transaction, behind a row lock held on another
  // connection (PGlite has one connection, which the lock's own transaction would hold).
  if (engine === "postgres")
    it("runs a write's statements with the scope's hooks off once its transaction has begun", async () => {
      const carried = () => Object.getOwnPropertySymbols(Promise.resolve()).length;
      const probe = new AsyncLocalStorage<number>();
      const onHooks = probe.run(1, carried) > 0;
      probe.disable();
      const before = await entries();
      let answered: ReturnType<typeof api.call> | undefined;
      await api.database.db.transaction(async (tx) => {
        await tx.execute(sql`select id from cdn_resources where id = 1 for update`);
        answered = api.call("PATCH", "/cdn/resources/1", { body: { description: "Waited for a lock." } });
        // The PATCH's own transaction waits for the row: past the only point that reads the scope.
        await vi.waitFor(
          async () => {
            const [waiting] = await selectRows<{ n: number }>(
              api.database.db,
              sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query like '%cdn_resources%'`,
            );
            expect(waiting!.n).toBe(1);
          },
          { timeout: 20_000, interval: 20 },
        );
        await new Promise((resolve) => setImmediate(resolve));
        if (onHooks) expect(carried()).toBe(0);
      });
      const reply = await answered!;
      expect(reply.status, reply.text).toBe(200);
      expect(await entries()).toBe(before + 1);
      expect(await newest()).toMatchObject({ method: "PATCH", path: "/cdn/resources/1", status_code: 200, actions: [{ action_type: "U" }] });
    });

  it("filters by method, status prefix, path, token, user, time and account, newest first, paged", async () => {
    await api.call("PUT", "/cdn/resources/3/shielding_v2", { body: { shielding_pop: 1 }, as: [1, "role-5-active"] });
    await api.call("PUT", "/cdn/resources/3/shielding_v2", { body: { shielding_pop: null }, as: [1, "role-5-active"] });
    const byToken = await api.call("GET", "/cdn/activity_log/requests?token_id=5&method=PUT&path=/cdn/resources/3/shielding_v2&status_code=2");
    const found = byToken.body as { count: number; results: Entry[] };
    expect(found.count).toBe(2);
    expect(found.results.map((entry) => (entry.data as { shielding_pop: number | null }).shielding_pop)).toEqual([null, 1]);
    const page = await api.call("GET", "/cdn/activity_log/requests?user_id=5&limit=1&offset=1");
    expect((page.body as { results: Entry[] }).results.map((entry) => entry.id)).toEqual([found.results[1]!.id]);
    const day = await api.call("GET", "/cdn/activity_log/requests?min_requested_at=2026-10-29&max_requested_at=2026-10-29");
    expect((day.body as { results: Entry[] }).results.map((entry) => entry.id)).toEqual([2]);
    const until = await api.call("GET", "/cdn/activity_log/requests?max_requested_at=2026-10-30 09:12:00");
    expect((until.body as { results: Entry[] }).results.map((entry) => entry.id)).toEqual([3, 2, 1]);
    const otherClient = await api.call("GET", "/cdn/activity_log/requests?client_id=2");
    expect(otherClient.body).toEqual({ count: 0, results: [] });
    const conflicts = await api.call("GET", "/cdn/activity_log/requests?status_code=409");
    expect((conflicts.body as { results: Entry[] }).results.map((entry) => entry.id)).toEqual([2]);
  });

  it("answers 404 for another account's entry and 400 for bad filters", async () => {
    expectEnvelope(await api.call("GET", "/cdn/activity_log/requests/4"), 404, "not_found");
    expectEnvelope(await api.call("GET", "/cdn/activity_log/requests/99999999"), 404, "not_found");
    expect((await api.call("GET", "/cdn/activity_log/requests/4", { as: [2, "role-2-active"] })).status).toBe(200);
    expectEnvelope(await api.call("GET", "/cdn/activity_log/requests?method=get"), 400, "validation_error", { "query.method": expect.any(Array) });
    expectEnvelope(await api.call("GET", "/cdn/activity_log/requests?min_requested_at=last week"), 400, "validation_error", { "query.min_requested_at": expect.any(Array) });
    expectEnvelope(await api.call("GET", "/cdn/activity_log/requests?status_code=abc"), 400, "validation_error", { "query.status_code": expect.any(Array) });
    expectEnvelope(await api.call("GET", "/cdn/activity_log/requests?limit=5000"), 400, "validation_error", { "query.limit": expect.any(Array) });
  });
});
