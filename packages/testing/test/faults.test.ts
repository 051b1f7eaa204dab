/**
 * Failure injection: 429 and 503 in the API's envelope with Retry-After, calls that never answer, per
 * route, area or everything, for N calls; expired and revoked tokens; all undone by reset().
 */
import {
  APIConnectionTimeoutError,
  APIUserAbortError,
  AuthenticationError,
  RateLimitError,
  ServiceUnavailableError,
  createClient,
} from "@cloudplane/client";
import { errorEnvelope } from "@cloudplane/contract";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestPlatform, PlatformClosedError, type TestPlatform } from "../src/index.js";

let platform: TestPlatform;
beforeAll(async () => {
  platform = await createTestPlatform();
});
afterEach(() => platform.reset());
afterAll(() => platform.close());

const noRetries = () => platform.client.withOptions({ maxRetries: 0 });
const authorization = () => ({ authorization: `apikey ${platform.administrator.token}` });

describe("rateLimit and unavailable", () => {
  it("answer the next call of the route 429 in the envelope with Retry-After, then the API answers again", async () => {
    platform.faults.rateLimit("streaming.listStreams");
    const limited = await platform.fetch("/streaming/streams", { headers: { ...authorization(), "x-request-id": "mine-1" } });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("1");
    expect(limited.headers.get("x-request-id")).toBe("mine-1");
    const body = await limited.json();
    expect(errorEnvelope.parse(body)).toEqual({ message: expect.stringContaining("Too many requests"), code: "rate_limited", request_id: "mine-1" });
    const next = await platform.fetch("/streaming/streams", { headers: authorization() });
    expect(next.status).toBe(200);
    expect(platform.calls.map((call) => [call.route, call.status, call.fault])).toEqual([
      ["streaming.listStreams", 429, "rate_limited"],
      ["streaming.listStreams", 200, null],
    ]);
  });

  it("reach the client as its typed errors, with the status, code and Retry-After", async () => {
    platform.faults.rateLimit("streaming.listStreams", { retryAfter: 30 });
    const limited = await noRetries().streaming.streams.list().catch((error: unknown) => error);
    expect(limited).toBeInstanceOf(RateLimitError);
    expect(limited).toMatchObject({ status: 429, code: "rate_limited" });
    expect((limited as RateLimitError).headers?.get("retry-after")).toBe("30");
    platform.faults.unavailable("streaming.listStreams", { retryAfter: 7 });
    const unavailable = await noRetries().streaming.streams.list().catch((error: unknown) => error);
    expect(unavailable).toBeInstanceOf(ServiceUnavailableError);
    expect(unavailable).toMatchObject({ status: 503, code: "unavailable" });
    expect((unavailable as ServiceUnavailableError).headers?.get("retry-after")).toBe("7");
  });

  it("count calls: `times` of them fail, so a client's retries can outlast them", async () => {
    platform.faults.unavailable("streaming.listStreams", { times: 2, retryAfter: 0 });
    expect((await platform.client.streaming.streams.list()).items).toEqual([]);
    expect(platform.calls.map((call) => call.status)).toEqual([503, 503, 200]);
    platform.faults.rateLimit("streaming.listStreams", { times: 3, retryAfter: 0 });
    await expect(platform.client.streaming.streams.list()).rejects.toBeInstanceOf(RateLimitError);
    expect(platform.faults.pending()).toEqual([]);
  });

  it("cover one route, its aliases, an area or every route, and only calls of those", async () => {
    const { accountId } = platform.administrator;
    platform.faults.unavailable("iam.listTokens", { times: 2 });
    await expect(noRetries().iam.account.get()).resolves.toMatchObject({ id: accountId });
    expect((await platform.fetch(`/iam/v2/clients/${accountId}/tokens`, { headers: authorization() })).status).toBe(503);
    await expect(noRetries().iam.tokens.list(accountId)).rejects.toBeInstanceOf(ServiceUnavailableError);
    platform.faults.unavailable("iam.v2ListTokens");
    await expect(noRetries().iam.tokens.list(accountId)).resolves.toHaveLength(1);
    expect(platform.faults.pending()).toEqual([{ route: "iam.v2ListTokens", kind: "unavailable", remaining: 1 }]);
    platform.faults.clear();

    platform.faults.rateLimit("streaming.*", { times: Infinity });
    await expect(noRetries().streaming.streams.list()).rejects.toBeInstanceOf(RateLimitError);
    await expect(noRetries().streaming.streams.get(1)).rejects.toBeInstanceOf(RateLimitError);
    await expect(noRetries().iam.account.get()).resolves.toMatchObject({ id: accountId });
    expect(platform.faults.pending()).toEqual([{ route: "streaming.*", kind: "rate_limited", remaining: Infinity }]);
    platform.faults.clear();

    platform.faults.unavailable("*");
    await expect(noRetries().iam.account.get()).rejects.toBeInstanceOf(ServiceUnavailableError);
    // A path the contract does not have is no route's: the API answers it.
    platform.faults.unavailable("*");
    expect((await platform.fetch("/no/such/route", { headers: authorization() })).status).toBe(404);
    expect(platform.faults.pending()).toEqual([{ route: "*", kind: "unavailable", remaining: 1 }]);
  });

  it("answer HEAD without a body", async () => {
    platform.faults.rateLimit("streaming.listStreams");
    const head = await platform.fetch("/streaming/streams", { method: "HEAD", headers: authorization() });
    expect(head.status).toBe(429);
    expect(await head.text()).toBe("");
  });

  it("are refused with a count that is not a whole number, and cleared by reset()", async () => {
    expect(() => platform.faults.rateLimit("streaming.listStreams", { times: 1.5 })).toThrow(new TypeError("times must be a whole number of 0 or more (or Infinity); got 1.5."));
    expect(() => platform.faults.unavailable("streaming.listStreams", { retryAfter: -1 })).toThrow(new TypeError("retryAfter must be a whole number of 0 or more; got -1."));
    expect(() => platform.faults.timeout("streaming.listStreams", { times: Infinity })).not.toThrow();
    platform.faults.rateLimit("streaming.listStreams", { times: 0 });
    expect(platform.faults.pending()).toEqual([{ route: "streaming.listStreams", kind: "timeout", remaining: Infinity }]);
    await platform.reset();
    expect(platform.faults.pending()).toEqual([]);
    expect((await platform.client.streaming.streams.list()).items).toEqual([]);
  });
});

describe("timeout", () => {
  it("holds the call until the client's timeout gives up on it", async () => {
    platform.faults.timeout("streaming.listStreams");
    const started = performance.now();
    const failed = await platform.client.streaming.streams.list({}, { timeout: 200, maxRetries: 0 }).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(APIConnectionTimeoutError);
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
    expect(platform.calls).toEqual([{ route: "streaming.listStreams", method: "GET", path: "/streaming/streams", status: null, fault: "timeout" }]);
  });

  it("lets a client's retry through once the timeouts are used up", async () => {
    platform.faults.timeout("streaming.listStreams");
    expect((await platform.client.streaming.streams.list({}, { timeout: 100, maxRetries: 1 })).items).toEqual([]);
    expect(platform.calls.map((call) => [call.status, call.fault])).toEqual([
      [null, "timeout"],
      [200, null],
    ]);
  });

  it("rejects fetch with its signal's reason, as fetch does", async () => {
    platform.faults.timeout("streaming.listStreams", { times: 3 });
    const controller = new AbortController();
    const aborted = platform.fetch("/streaming/streams", { headers: authorization(), signal: controller.signal });
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ name: "AbortError" });
    await expect(platform.fetch("/streaming/streams", { headers: authorization(), signal: AbortSignal.timeout(50) })).rejects.toMatchObject({ name: "TimeoutError" });
    const user = new AbortController();
    const call = platform.client.streaming.streams.list({}, { signal: user.signal });
    setTimeout(() => user.abort(), 20);
    await expect(call).rejects.toBeInstanceOf(APIUserAbortError);
  });

  it("fails calls still held when the platform closes", async () => {
    const own = await createTestPlatform();
    own.faults.timeout("*");
    const held = own.fetch("/streaming/streams");
    await own.close();
    await expect(held).rejects.toBeInstanceOf(PlatformClosedError);
  });
});

describe("faults over the loopback server", () => {
  it("answer HTTP clients the same way, and a held call ends when the client gives up", async () => {
    const own = await createTestPlatform({ listen: true });
    // The server's own log (stderr) is read through, to see that a client giving up is no error of the server's.
    const stderr = vi.spyOn(process.stderr, "write");
    try {
      const client = createClient({ apiKey: own.administrator.token, baseUrl: own.baseUrl, maxRetries: 0 });
      own.faults.rateLimit("streaming.listStreams", { retryAfter: 2 });
      const limited = await client.streaming.streams.list().catch((error: unknown) => error);
      expect(limited).toBeInstanceOf(RateLimitError);
      expect((limited as RateLimitError).headers?.get("retry-after")).toBe("2");
      own.faults.timeout("streaming.listStreams");
      await expect(client.streaming.streams.list({}, { timeout: 200 })).rejects.toBeInstanceOf(APIConnectionTimeoutError);
      expect((await client.streaming.streams.list()).items).toEqual([]);
      own.faults.timeout("streaming.listStreams");
      const held = client.streaming.streams.list({}, { timeout: 5_000 }).catch((error: unknown) => error);
      await vi.waitFor(() => expect(own.calls.at(-1)).toMatchObject({ status: null, fault: "timeout" }));
      await own.close();
      expect(await held).toMatchObject({ status: 503 });
      expect(stderr.mock.calls.map(([chunk]) => String(chunk)).filter((line) => line.includes("unexpected error"))).toEqual([]);
    } finally {
      stderr.mockRestore();
      await own.close();
    }
  });
});

describe("expireToken and revokeToken", () => {
  it("make the client's own token answer 401 until reset()", async () => {
    await platform.faults.expireToken();
    const expired = await noRetries().iam.account.get().catch((error: unknown) => error);
    expect(expired).toBeInstanceOf(AuthenticationError);
    expect(expired).toMatchObject({ status: 401, code: "token_not_valid" });
    await platform.reset();
    await expect(noRetries().iam.account.get()).resolves.toMatchObject({ id: platform.administrator.accountId });
    await platform.faults.revokeToken();
    await expect(noRetries().iam.account.get()).rejects.toMatchObject({ status: 401, code: "token_not_valid" });
  });

  it("take a token by itself, by its id or by the object a builder answered, and leave other tokens working", async () => {
    const [byText, byId, byObject] = await Promise.all([platform.build.token(), platform.build.token(), platform.build.token({ role: "users" })]);
    await platform.faults.revokeToken(byText.token);
    await platform.faults.expireToken(byId.id);
    await platform.faults.revokeToken(byObject);
    for (const token of [byText, byId, byObject])
      await expect(platform.clientFor(token.token, { maxRetries: 0 }).iam.account.get()).rejects.toMatchObject({ status: 401 });
    await expect(noRetries().iam.account.get()).resolves.toMatchObject({ id: platform.administrator.accountId });
    const listed = await noRetries().iam.tokens.list(platform.administrator.accountId);
    expect(listed.find((token) => token.id === byText.id)?.deleted).toBe(true);
    expect(listed.find((token) => token.id === byId.id)?.expired).toBe(true);
  });

  it("refuse a token the platform does not have", async () => {
    await expect(platform.faults.revokeToken("cp_nothing")).rejects.toThrow("The platform has no such token to revoke.");
    await expect(platform.faults.expireToken(987_654)).rejects.toThrow("The platform has no such token to expire.");
  });
});
