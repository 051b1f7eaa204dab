/**
 * Database outages: with PostgreSQL cut off (live connections killed, new ones refused) every
 * request answers 503 with Retry-After within a bound, no write is left half done, and service resumes
 * by itself once the database is back. Needs PostgreSQL (DATABASE_URL); CI always sets it.
 */
import net from "node:net";
import type { AddressInfo } from "node:net";
import { createDatabase, sql, type CloudplaneDatabase } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectEnvelope, useApi, type Handler } from "./harness.js";

/** A TCP proxy to PostgreSQL that can be cut (refuse and drop every connection) and restored. */
class CuttableProxy {
  private server: net.Server | undefined;
  private sockets = new Set<net.Socket>();
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async open(): Promise<void> {
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on("close", () => this.sockets.delete(socket));
        socket.on("error", () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
      client.on("close", () => upstream.destroy());
      upstream.on("close", () => client.destroy());
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, "127.0.0.1", resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => server?.close(resolve));
  }
}

const serverUrl = process.env.DATABASE_URL;

/** Error reports of a database that went away (connections refused, destroyed, ended or terminated by the server), and nothing else. */
function expectOutageErrors(reports: unknown[]): void {
  for (const report of reports) {
    const { code, message } = report as { code?: unknown; message?: unknown };
    expect(`${String(code)}: ${String(message)}`).toMatch(/CONNECTION_(DESTROYED|CLOSED|ENDED)|ECONNREFUSED|ECONNRESET|57P01|terminat/i);
  }
}

describe.skipIf(!serverUrl)("database outage on postgres", () => {
  // The suite's database; the handler under test reaches it through the proxy.
  const api = useApi("postgres");
  let proxy: CuttableProxy;
  let database: CloudplaneDatabase;
  let handler: Handler;

  const timed = async (path: string, init: { method?: string; body?: unknown } = {}) => {
    const started = performance.now();
    const response = await api.call(init.method ?? "GET", path, { handler, ...(init.body === undefined ? {} : { body: init.body }) });
    return { response, ms: performance.now() - started };
  };

  beforeAll(async () => {
    const url = new URL(api.database.url!);
    proxy = new CuttableProxy({ host: url.hostname, port: Number(url.port || 5432) });
    await proxy.open();
    url.hostname = "127.0.0.1";
    url.port = String(proxy.port);
    database = await createDatabase({ url: url.toString(), max: 4, connectTimeout: 2, migrate: false });
    // createHandler's own rate limit and response handling, as before the harness: only the database changes.
    handler = api.createHandler({ db: database.db, rateLimit: undefined, responseValidation: undefined });
  });
  afterAll(async () => {
    await proxy.cut();
    await database.close();
    // Requests still waiting on the closed connections are answered (and report it) once their
    // rejections have run through the pipeline: a few event-loop turns after close.
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Writes cut off mid-way may report their connection's end after the last test: expected too, and nothing else.
    expectOutageErrors(api.takeErrors());
  });

  it("answers 503 within a bound while the database is cut off, and resumes by itself", async () => {
    expect((await timed("/edge/v1/apps?limit=1")).response.status).toBe(200);
    await proxy.cut();
    const during = await Promise.all([
      timed("/edge/v1/apps?limit=1"),
      timed("/streaming/streams/1"),
      timed("/edge/v1/secrets", { method: "POST", body: { name: "during-outage", secret_slots: [{ slot: 0, value: "v" }] } }),
    ]);
    const slowest = Math.max(...during.map((reply) => reply.ms));
    console.log(`outage: ${during.length} requests answered ${during.map((reply) => reply.response.status).join(", ")}, slowest ${slowest.toFixed(0)} ms`);
    for (const { response } of during) {
      const body = expectEnvelope(response, 503, "unavailable");
      expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(body.message).not.toMatch(/ECONN|postgres|127\.0\.0\.1|socket/i);
    }
    // Bounded by the 2 s connect timeout, far from a hang.
    expect(slowest).toBeLessThan(15_000);

    await proxy.open();
    let resumed = 0;
    for (let attempt = 0; attempt < 20 && resumed === 0; attempt++) {
      if ((await timed("/edge/v1/apps?limit=1")).response.status === 200) resumed = attempt + 1;
    }
    console.log(`outage: served again on attempt ${resumed} after the database came back`);
    expect(resumed).toBeGreaterThan(0);
    const [secret] = await selectRows(api.database.db, sql`select count(*)::int as n from edge_secrets where name = 'during-outage'`);
    expect(secret).toEqual({ n: 0 });
  });

  it("answers 503 when the server terminates its backends, then serves again", async () => {
    expect((await timed("/edge/v1/apps?limit=1")).response.status).toBe(200);
    await api.database.db.execute(
      sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and application_name = 'cloudplane'`,
    );
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await timed("/edge/v1/apps?limit=1")).response.status);
    console.log(`terminated backends: statuses ${statuses.join(", ")}`);
    expect(statuses.every((status) => status === 200 || status === 503)).toBe(true);
    expect(statuses.at(-1)).toBe(200);
  });

  it("leaves no write half done when connections die mid-write", async () => {
    let serial = 0;
    const write = () =>
      timed("/edge/v1/secrets", {
        method: "POST",
        body: { name: `mid-write-${serial++}`, secret_slots: [{ slot: 0, value: "a" }, { slot: 1, value: "b" }] },
      });
    const replies: Awaited<ReturnType<typeof write>>[] = [];
    // Some writes commit before the cut (whatever the machine's speed) ...
    while (replies.filter((reply) => reply.response.status === 200).length < 3 && replies.length < 50) replies.push(await write());
    // ... twenty are in flight when it comes ...
    const inFlight = Array.from({ length: 20 }, write);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await proxy.cut();
    replies.push(...(await Promise.all(inFlight)));
    // ... and some start while the database is gone.
    replies.push(...(await Promise.all(Array.from({ length: 5 }, write))));
    await proxy.open();
    const statuses = replies.map((reply) => reply.response.status);
    console.log(`mid-write cut: ${statuses.filter((s) => s === 200).length} written, ${statuses.filter((s) => s === 503).length} refused with 503`);
    expect(statuses.every((status) => status === 200 || status === 503)).toBe(true);
    expect(statuses).toContain(200);
    expect(statuses).toContain(503);
    const rows = await selectRows<{ name: string; slots: number }>(
      api.database.db,
      sql`select s.name, count(sl.slot)::int as slots from edge_secrets s left join edge_secret_slots sl on sl.secret_id = s.id where s.name like 'mid-write-%' group by s.name`,
    );
    // Every secret that exists has both its slots: a transaction either committed whole or not at all.
    for (const row of rows) expect(row.slots).toBe(2);
    const written = new Set(replies.flatMap((reply, i) => (reply.response.status === 200 ? [`mid-write-${i}`] : [])));
    for (const name of written) expect(rows.map((row) => row.name)).toContain(name);
  });

  it("reported the outages as unavailability, not as bugs", () => {
    // Expected here, and taken: the harness checks that nothing else was reported.
    const reported = api.takeErrors();
    expect(reported.length).toBeGreaterThan(0);
    expectOutageErrors(reported);
  });
});
