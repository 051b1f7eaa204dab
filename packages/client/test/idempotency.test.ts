/**
 * A create retried after a dropped connection makes one object: the client sends one idempotency key
 * with every attempt of a POST, and the server (served over HTTP on 127.0.0.1, on each engine) does the
 * request once and answers a repeat with the first answer. Between them, a TCP proxy drops the first
 * connection the moment the server's answer starts to come back: the server did the work, the client
 * never heard of it.
 */
import net, { type AddressInfo } from "node:net";
import type { Server } from "node:http";
import { demoToken } from "@cloudplane/db";
import { serve } from "@cloudplane/handlers/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type ClientOptions } from "../src/index.js";
import { engines, useClientApi } from "./api.js";

/** A TCP proxy that forwards every connection, and drops the next one whose answer starts, when asked. */
async function droppingProxy(port: number) {
  const state = { dropNextAnswer: false, dropped: 0 };
  const proxy = net.createServer((client) => {
    const upstream = net.connect(port, "127.0.0.1");
    for (const socket of [client, upstream]) socket.on("error", () => socket.destroy());
    client.pipe(upstream);
    upstream.on("data", (chunk: Buffer) => {
      if (state.dropNextAnswer) {
        state.dropNextAnswer = false;
        state.dropped++;
        client.destroy();
        upstream.destroy();
      } else client.write(chunk);
    });
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  return { proxy, state, url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` };
}

describe.each(engines())("an idempotent create over HTTP on %s", (engine) => {
  const api = useClientApi(engine);
  let server: Server;
  let through: Awaited<ReturnType<typeof droppingProxy>>;
  const client = (options: ClientOptions = {}) => createClient({ apiKey: demoToken(1, "role-1-active").plaintext, baseUrl: through.url, ...options });
  const secretsNamed = async (name: string) => (await api.client.edge.secrets.list({ secret_name: name, limit: 1000 })).items.filter((secret) => secret.name === name);
  const post = (body: unknown, headers: Record<string, string>, as: Parameters<typeof demoToken> = [1, "role-1-active"]) =>
    fetch(`${through.url}/edge/v1/secrets`, {
      method: "POST",
      headers: { authorization: `apikey ${demoToken(...as).plaintext}`, "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    server = await serve(api.handler, { port: 0 });
    through = await droppingProxy((server.address() as AddressInfo).port);
  });
  afterAll(async () => {
    await new Promise((resolve) => through.proxy.close(resolve));
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("makes one object when the first answer is lost and the client retries", async () => {
    api.logs.length = 0;
    through.state.dropNextAnswer = true;
    const made = await client().edge.secrets.create({ name: "idempotent-once", secret_slots: [{ slot: 0, value: "v" }] }).withResponse();
    expect(through.state.dropped).toBe(1);
    // Two POSTs reached the server; the second was answered from the first.
    expect(api.logs.filter((entry) => entry.method === "POST").map((entry) => [entry.path, entry.status])).toEqual([
      ["/edge/v1/secrets", 200],
      ["/edge/v1/secrets", 200],
    ]);
    expect(made.headers.get("idempotent-replayed")).toBe("true");
    const found = await secretsNamed("idempotent-once");
    expect(found.map((secret) => secret.id)).toEqual([made.body.id]);
  });

  it("answers a repeat with the first answer, under the repeat's own request id", async () => {
    const key = `key-${engine}-repeat`;
    const body = { name: "idempotent-repeat", secret_slots: [{ slot: 0, value: "v" }] };
    const first = await post(body, { "idempotency-key": key });
    const second = await post(body, { "idempotency-key": key, "x-request-id": "repeat-1" });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.headers.get("x-request-id")).toBe("repeat-1");
    expect(second.headers.get("content-type")).toBe(first.headers.get("content-type"));
    expect(await second.json()).toEqual(await first.json());
    expect(await secretsNamed("idempotent-repeat")).toHaveLength(1);
  });

  it("refuses the key with another request (422) and a key that is not one (400), changing nothing", async () => {
    const key = `key-${engine}-other`;
    expect((await post({ name: "idempotent-first", secret_slots: [{ slot: 0, value: "v" }] }, { "idempotency-key": key })).status).toBe(200);
    const other = await post({ name: "idempotent-second", secret_slots: [{ slot: 0, value: "v" }] }, { "idempotency-key": key });
    expect(other.status).toBe(422);
    expect(await other.json()).toMatchObject({ code: "unprocessable", message: expect.stringMatching(/^This Idempotency-Key was sent with another request/) });
    const bad = await post({ name: "idempotent-bad", secret_slots: [{ slot: 0, value: "v" }] }, { "idempotency-key": "x".repeat(256) });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: "validation_error", errors: { "header.Idempotency-Key": ["Must be 1 to 255 visible ASCII characters, e.g. a UUID."] } });
    expect(await secretsNamed("idempotent-second")).toEqual([]);
    expect(await secretsNamed("idempotent-bad")).toEqual([]);
  });

  it("does the request once when the same key arrives several times at once: the others wait (409) or get the answer", async () => {
    const key = `key-${engine}-race`;
    const body = { name: "idempotent-race", secret_slots: [{ slot: 0, value: "v" }] };
    const answers = await Promise.all(Array.from({ length: 5 }, () => post(body, { "idempotency-key": key })));
    const kinds = answers.map((answer) => (answer.status === 200 ? (answer.headers.get("idempotent-replayed") ? "replayed" : "done") : answer.status));
    expect(kinds.filter((kind) => kind === "done")).toHaveLength(1);
    for (const kind of kinds) expect(["done", "replayed", 409]).toContain(kind);
    for (const answer of answers.filter((each) => each.status === 409)) expect(answer.headers.get("retry-after")).toBe("1");
    expect(await secretsNamed("idempotent-race")).toHaveLength(1);
  });

  it("keeps each user's keys apart, and does not keep an answer the server could not give", async () => {
    const key = `key-${engine}-users`;
    const body = { name: "idempotent-users", secret_slots: [{ slot: 0, value: "v" }] };
    expect((await post(body, { "idempotency-key": key })).status).toBe(200);
    // Another user of the account with the same key: a request of their own (409: the name is taken), not a replay.
    const theirs = await post(body, { "idempotency-key": key }, [1, "role-5-active"]);
    expect(theirs.headers.get("idempotent-replayed")).toBeNull();
    expect(theirs.status).toBe(409);
    // Without the header, a POST is done every time.
    expect((await post({ ...body, name: "idempotent-none" }, {})).status).toBe(200);
    expect((await post({ ...body, name: "idempotent-none" }, {})).status).toBe(409);
  });
});
