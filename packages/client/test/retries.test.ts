/**
 * Retries, timeouts and aborts over real HTTP: a local node:http server answers 503, 429 with
 * Retry-After, 500 or nothing at all, and counts the requests it received.
 */
import { createRequire } from "node:module";
import { contract } from "@cloudplane/contract";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIResponseValidationError,
  APIUserAbortError,
  CloudplaneError,
  ConflictError,
  InternalServerError,
  RateLimitError,
  ServiceUnavailableError,
  createClient,
  type ClientOptions,
  type Logger,
} from "../src/index.js";
import { envelope, json, startScriptedServer, type ScriptedServer } from "./http-server.js";

const STREAM = { id: 1 };
const SECRET = { id: 9, name: "made", comment: "", app_count: 0, secret_slots: [] };
const clientPackage = createRequire(import.meta.url)("../package.json") as { version: string };
const SECRET_BODY = { name: "made", secret_slots: [{ slot: 0, value: "v" }] };

async function rejection(call: PromiseLike<unknown>): Promise<unknown> {
  try {
    await call;
  } catch (error) {
    return error;
  }
  throw new Error("The call succeeded; an error was expected.");
}

function gaps(server: ScriptedServer): number[] {
  return server.requests.slice(1).map((request, index) => request.at - server.requests[index]!.at);
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("retries, timeouts and aborts over HTTP", () => {
  let server: ScriptedServer;
  const client = (options: ClientOptions = {}) => createClient({ apiKey: "test-key", baseUrl: server.baseUrl, ...options });

  beforeAll(async () => {
    server = await startScriptedServer();
  });
  afterEach(() => {
    server.requests.length = 0;
  });
  afterAll(() => server.close());

  it("sends the API key, JSON headers and the body", async () => {
    server.respond = (_request, reply) => json(reply, 200, SECRET);
    await client().edge.secrets.create(SECRET_BODY);
    const [request] = server.requests;
    expect(request).toMatchObject({ method: "POST", url: "/edge/v1/secrets", body: JSON.stringify(SECRET_BODY) });
    expect(request?.headers).toMatchObject({ authorization: "apikey test-key", "content-type": "application/json", accept: "application/json" });
    expect(request?.headers["user-agent"]).toBe(`cloudplane-client/${clientPackage.version}`);
    expect(request?.headers["idempotency-key"]).toMatch(/^cp-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("tells its logger each attempt, answer, retry and failure, as its level lets it, never the key", async () => {
    const entries: Array<[string, string, Record<string, unknown>]> = [];
    const logger = Object.fromEntries(
      (["debug", "info", "warn", "error"] as const).map((level) => [level, (message: string, fields: Record<string, unknown>) => void entries.push([level, message, fields])]),
    ) as unknown as Logger;
    server.respond = (_request, reply, index) =>
      index === 0 ? json(reply, 503, envelope(503, "unavailable"), { "retry-after": "0" }) : index === 1 ? json(reply, 200, STREAM) : json(reply, 404, envelope(404, "not_found"));
    await client({ logger, logLevel: "debug" }).streaming.streams.get(1);
    await rejection(client({ logger, logLevel: "debug" }).streaming.streams.get(2));
    expect(entries.map(([level, message]) => [level, message])).toEqual([
      ["debug", "GET /streaming/streams/1"],
      ["info", "GET /streaming/streams/1: 503"],
      ["warn", "GET /streaming/streams/1: retrying in 0 ms (unavailable)"],
      ["debug", "GET /streaming/streams/1"],
      ["info", "GET /streaming/streams/1: 200"],
      ["debug", "GET /streaming/streams/2"],
      ["info", "GET /streaming/streams/2: 404"],
      ["error", "GET /streaming/streams/2 failed: Answered 404."],
    ]);
    expect(entries[2]![2]).toMatchObject({ method: "GET", path: "/streaming/streams/1", attempt: 1, status: 503, code: "unavailable", retryInMs: 0 });
    expect(entries[7]![2]).toMatchObject({ attempt: 1, status: 404, code: "not_found", requestId: "req_test_404" });
    expect(JSON.stringify(entries)).not.toContain("test-key");
    // At warn, only retries and failures; without a logger, nothing (and no error).
    entries.length = 0;
    server.requests.length = 0;
    server.respond = (_request, reply, index) => (index === 0 ? json(reply, 503, envelope(503, "unavailable"), { "retry-after": "0" }) : json(reply, 200, STREAM));
    await client({ logger, logLevel: "warn" }).streaming.streams.get(1);
    expect(entries.map(([level]) => level)).toEqual(["warn"]);
    expect(() => client({ logger, logLevel: "loud" as never })).toThrow("logLevel must be one of off, error, warn, info, debug; got loud.");
  });

  it("a GET is retried on 503 with backoff from 0.5 s, and succeeds", async () => {
    server.respond = (_request, reply, index) =>
      index < 2 ? json(reply, 503, envelope(503, "unavailable")) : json(reply, 200, STREAM);
    expect(await client().streaming.streams.get(1)).toEqual(STREAM);
    expect(server.requests).toHaveLength(3);
    const [first, second] = gaps(server);
    // 0.5 s then 1 s, each less up to 25 % jitter.
    expect(first).toBeGreaterThanOrEqual(370);
    expect(first).toBeLessThan(900);
    expect(second).toBeGreaterThanOrEqual(740);
    expect(second).toBeLessThan(1500);
  });

  it("a GET that keeps failing gives up after maxRetries with the last error", async () => {
    server.respond = (_request, reply) => json(reply, 503, envelope(503, "unavailable"), { "retry-after": "0" });
    const error = await rejection(client().streaming.streams.get(1));
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ status: 503, code: "unavailable", requestId: "req_test_503" });
    expect(server.requests).toHaveLength(3);
  });

  it("maxRetries per client and per call", async () => {
    server.respond = (_request, reply) => json(reply, 500, envelope(500, "internal"), { "retry-after": "0" });
    await rejection(client({ maxRetries: 4 }).streaming.streams.get(1));
    expect(server.requests).toHaveLength(5);
    server.requests.length = 0;
    await rejection(client({ maxRetries: 4 }).streaming.streams.get(1, { maxRetries: 0 }));
    expect(server.requests).toHaveLength(1);
  });

  it.each([
    ["408", 408, "GET"],
    ["409", 409, "PATCH"],
    ["500", 500, "PUT"],
    ["502", 502, "GET"],
  ])("retries %s on an idempotent %s", async (_label, status, method) => {
    server.respond = (_request, reply, index) =>
      index === 0 ? json(reply, status, envelope(status, "any"), { "retry-after": "0" }) : json(reply, 200, { shielding_pop: 1 });
    const api = client();
    if (method === "GET") await api.streaming.streams.get(1);
    else if (method === "PATCH") await api.cdn.resources.update(1, { name: "x" });
    else await api.cdn.resources.updateShielding(1, { shielding_pop: 1 });
    expect(server.requests.map((request) => request.method)).toEqual([method, method]);
  });

  it("honours Retry-After (seconds) on 429", async () => {
    server.respond = (_request, reply, index) =>
      index === 0 ? json(reply, 429, envelope(429, "rate_limited"), { "retry-after": "1" }) : json(reply, 200, STREAM);
    expect(await client().streaming.streams.get(1)).toEqual(STREAM);
    expect(server.requests).toHaveLength(2);
    expect(gaps(server)[0]).toBeGreaterThanOrEqual(990);
  });

  it("does not wait out a Retry-After over a minute: the RateLimitError goes to the caller", async () => {
    server.respond = (_request, reply) => json(reply, 429, envelope(429, "rate_limited"), { "retry-after": "3600" });
    const started = performance.now();
    const error = await rejection(client().streaming.streams.get(1));
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).headers?.get("retry-after")).toBe("3600");
    expect(server.requests).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it("a POST is retried on 429 and 503, which the server answers before doing anything", async () => {
    server.respond = (_request, reply, index) =>
      index === 0
        ? json(reply, 429, envelope(429, "rate_limited"), { "retry-after": "0" })
        : index === 1
          ? json(reply, 503, envelope(503, "unavailable"), { "retry-after": "0" })
          : json(reply, 200, SECRET);
    expect(await client().edge.secrets.create(SECRET_BODY)).toEqual(SECRET);
    expect(server.requests.map((request) => request.method)).toEqual(["POST", "POST", "POST"]);
  });

  it.each([
    [500, InternalServerError],
    [502, InternalServerError],
    [409, ConflictError],
  ])("a POST sent without an idempotency key is not retried after a %s", async (status, ErrorClass) => {
    server.respond = (_request, reply) => json(reply, status, envelope(status, "any"), { "retry-after": "0" });
    const error = await rejection(client({ headers: { "Idempotency-Key": null } }).edge.secrets.create(SECRET_BODY));
    expect(error).toBeInstanceOf(ErrorClass);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.headers["idempotency-key"]).toBeUndefined();
  });

  it.each([500, 502, 409])("a POST is retried after a %s with the same idempotency key, which the server does once", async (status) => {
    server.respond = (_request, reply, index) => (index === 0 ? json(reply, status, envelope(status, "any"), { "retry-after": "0" }) : json(reply, 200, SECRET));
    expect(await client().edge.secrets.create(SECRET_BODY)).toEqual(SECRET);
    const keys = server.requests.map((request) => request.headers["idempotency-key"]);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^cp-/);
    expect(keys[1]).toBe(keys[0]);
  });

  it("a POST sends the key given per call, and each call of its own gets a new one", async () => {
    server.respond = (_request, reply) => json(reply, 200, SECRET);
    await client().edge.secrets.create(SECRET_BODY, { idempotencyKey: "order-42" });
    await client().edge.secrets.create(SECRET_BODY);
    await client().edge.secrets.create(SECRET_BODY);
    const keys = server.requests.map((request) => request.headers["idempotency-key"]);
    expect(keys[0]).toBe("order-42");
    expect(new Set(keys).size).toBe(3);
    // A GET, PUT, PATCH or DELETE is idempotent by itself, and sends none.
    server.requests.length = 0;
    await client().streaming.streams.get(1);
    expect(server.requests[0]?.headers["idempotency-key"]).toBeUndefined();
    await expect(client().edge.secrets.create(SECRET_BODY, { idempotencyKey: "" })).rejects.toThrow("idempotencyKey must be 1 to 255 visible ASCII characters");
  });

  it("a GET that gets no answer times out, and is retried", async () => {
    server.respond = () => undefined;
    const started = performance.now();
    const error = await rejection(client({ timeout: 200, maxRetries: 1 }).streaming.streams.get(1));
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error).toMatchObject({ status: undefined, code: "connection_timeout", headers: undefined, errors: undefined });
    expect(server.requests).toHaveLength(2);
    expect(performance.now() - started).toBeGreaterThanOrEqual(400);
  });

  it("a POST sent without an idempotency key that times out is not retried: it may have been applied", async () => {
    server.respond = () => undefined;
    const error = await rejection(client({ timeout: 200, headers: { "idempotency-key": null } }).edge.secrets.create(SECRET_BODY));
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    await wait(700);
    expect(server.requests).toHaveLength(1);
  });

  it("the per-call timeout overrides the client's", async () => {
    server.respond = () => undefined;
    const started = performance.now();
    const error = await rejection(client({ timeout: 60_000 }).streaming.streams.get(1, { timeout: 150, maxRetries: 0 }));
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect((error as Error).message).toBe("The request timed out after 150 ms.");
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("the timeout covers a body that never ends", async () => {
    server.respond = (_request, reply) => {
      reply.writeHead(200, { "content-type": "application/json" });
      reply.write('{"id":');
    };
    const error = await rejection(client({ timeout: 200, maxRetries: 0 }).streaming.streams.get(1));
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
  });

  it("the caller's AbortSignal aborts a request in flight, without retries", async () => {
    server.respond = () => undefined;
    const controller = new AbortController();
    const call = client().streaming.streams.get(1, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("user left")), 100);
    const error = await rejection(call);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(error).toMatchObject({ code: "user_abort", status: undefined });
    expect((error as Error).cause).toEqual(new Error("user left"));
    await wait(700);
    expect(server.requests).toHaveLength(1);
  });

  it("the caller's AbortSignal cuts a backoff wait short", async () => {
    server.respond = (_request, reply) => json(reply, 503, envelope(503, "unavailable"));
    const started = performance.now();
    const error = await rejection(client().streaming.streams.get(1, { signal: AbortSignal.timeout(150) }));
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(performance.now() - started).toBeLessThan(350);
    expect(server.requests).toHaveLength(1);
  });

  it("an already aborted signal sends nothing", async () => {
    const error = await rejection(client().streaming.streams.get(1, { signal: AbortSignal.abort() }));
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(server.requests).toHaveLength(0);
  });

  it("a refused connection is an APIConnectionError with its cause", async () => {
    const closed = await startScriptedServer();
    const baseUrl = closed.baseUrl;
    await closed.close();
    const error = await rejection(client({ baseUrl, maxRetries: 0 }).streaming.streams.get(1));
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error).not.toBeInstanceOf(APIConnectionTimeoutError);
    expect(error).toMatchObject({ code: "connection_error", status: undefined });
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
  });

  it("a connection error carries the request id the caller sent", async () => {
    server.respond = () => undefined;
    const error = await rejection(
      client({ timeout: 100, maxRetries: 0, headers: { "x-request-id": "my-request" } }).streaming.streams.get(1),
    );
    expect(error).toMatchObject({ code: "connection_timeout", requestId: "my-request" });
    expect(server.requests[0]?.headers["x-request-id"]).toBe("my-request");
  });

  it("an error without the envelope keeps its status and body", async () => {
    server.respond = (_request, reply) => {
      reply.writeHead(502, { "content-type": "text/html" });
      reply.end("<html>Bad gateway</html>");
    };
    const error = await rejection(client({ maxRetries: 0 }).streaming.streams.get(1));
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ status: 502, code: undefined, body: "<html>Bad gateway</html>" });
    expect((error as Error).message).toBe("The API answered 502 without an error envelope.");
  });

  it("a 200 whose body is not JSON is an APIError, not a crash", async () => {
    server.respond = (_request, reply) => {
      reply.writeHead(200, { "content-type": "application/json" });
      reply.end("{not json");
    };
    const error = await rejection(client().streaming.streams.get(1));
    expect(error).toBeInstanceOf(APIError);
    expect(error).toMatchObject({ status: 200, code: "invalid_response", body: "{not json" });
    expect(server.requests).toHaveLength(1);
  });

  it("validateResponses: a body that does not match the contract is APIResponseValidationError", async () => {
    server.respond = (_request, reply) => json(reply, 200, { id: "one", leaked: true });
    const error = await rejection(client({ validateResponses: contract }).streaming.streams.get(1));
    expect(error).toBeInstanceOf(APIResponseValidationError);
    expect(error).toMatchObject({ status: 200, code: "response_validation", requestId: "req_test_200" });
    expect((error as APIResponseValidationError).errors).toMatchObject({ id: ["Expected number, received string"] });
    // Without the option the body is passed through as it came.
    expect(await client().streaming.streams.get(1)).toEqual({ id: "one", leaked: true });
  });
});

describe("client options", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("read CLOUDPLANE_API_KEY and CLOUDPLANE_BASE_URL when not given", async () => {
    const server = await startScriptedServer();
    try {
      vi.stubEnv("CLOUDPLANE_API_KEY", "key-from-env");
      vi.stubEnv("CLOUDPLANE_BASE_URL", `${server.baseUrl}/`);
      server.respond = (_request, reply) => json(reply, 200, STREAM);
      await createClient().streaming.streams.get(1);
      expect(server.requests[0]).toMatchObject({ url: "/streaming/streams/1", headers: { authorization: "apikey key-from-env" } });
    } finally {
      await server.close();
    }
  });

  it("throw a CloudplaneError when the key or the address is missing or wrong", () => {
    vi.stubEnv("CLOUDPLANE_API_KEY", "");
    vi.stubEnv("CLOUDPLANE_BASE_URL", "");
    expect(() => createClient({ baseUrl: "http://api.test" })).toThrow(/API key is missing/);
    expect(() => createClient({ apiKey: "k" })).toThrow(CloudplaneError);
    expect(() => createClient({ apiKey: "k", baseUrl: "api.test" })).toThrow(/absolute URL/);
    expect(() => createClient({ apiKey: "k", baseUrl: "http://api.test", maxRetries: -1 })).toThrow(/maxRetries/);
    expect(() => createClient({ apiKey: "k", baseUrl: "http://api.test", timeout: 0 })).toThrow(/timeout/);
  });

  it("withOptions makes a client with some options changed", async () => {
    const server = await startScriptedServer();
    try {
      server.respond = (_request, reply) => json(reply, 200, STREAM);
      const base = createClient({ apiKey: "first", baseUrl: server.baseUrl });
      await base.withOptions({ apiKey: "second" }).streaming.streams.get(1);
      await base.streaming.streams.get(1);
      expect(server.requests.map((request) => request.headers.authorization)).toEqual(["apikey second", "apikey first"]);
    } finally {
      await server.close();
    }
  });

  it("encode each path parameter as one segment, and refuse dot segments", async () => {
    const server = await startScriptedServer();
    try {
      server.respond = (_request, reply) => json(reply, 200, { data: { allowedOrigins: [] } });
      const client = createClient({ apiKey: "k", baseUrl: server.baseUrl });
      await client.storage.s3.buckets.getCors(1, "a/b?c");
      expect(server.requests[0]?.url).toBe("/storage/provisioning/v1/storage/1/s3/bucket/a%2Fb%3Fc/cors");
      await expect(client.storage.s3.buckets.getCors(1, "..")).rejects.toThrow(CloudplaneError);
      expect(server.requests).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});
