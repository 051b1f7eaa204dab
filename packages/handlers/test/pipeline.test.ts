/**
 * What every route shares (the guide's Errors and Rate limits): request ids, the error envelope for unknown routes,
 * malformed JSON, wrong content types and oversized bodies, validation paths, the base path, and
 * request logs that never carry a credential.
 */
import type { ErrorCode } from "@cloudplane/contract";
import { demoFixture, sql } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { initContract } from "@ts-rest/core";
import { TsRestRequest, TsRestResponse } from "@ts-rest/serverless";
import { createFetchHandler } from "@ts-rest/serverless/fetch";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { newRequestId } from "../src/errors.js";
import { createHandler, MAX_BODY_BYTES } from "../src/index.js";
import { authorization, BASE, buildRequest, engines, expectEnvelope, replyOf, useApi } from "./harness.js";

/**
 * A PUT whose body stops half-way (with or without a declared length), its client giving up after
 * `gaveUpMs`; sent with `auth` as its Authorization header (null: none).
 */
function halfABody(declared: boolean, gaveUpMs: number, auth: string | null = authorization([1, "role-1-active"])): Request {
  const body = new ReadableStream<Uint8Array>({
    start: (controller) => {
      controller.enqueue(new TextEncoder().encode('{"utilization_level":'));
      setTimeout(() => controller.error(new Error("the client gave up")), gaveUpMs);
    },
  });
  const headers = new Headers({ "content-type": "application/json" });
  if (auth !== null) headers.set("authorization", auth);
  if (declared) headers.set("content-length", "40");
  return new Request(`${BASE}/cdn/clients/me`, { method: "PUT", headers, body, duplex: "half" } as RequestInit);
}

/**
 * `request`, whose headers count how often they are walked whole (`forEach`, `entries`, `keys`, `values`
 * or iterated): what copying them into an object does. On Node, walking the server's light headers
 * makes a full `Headers` of them first.
 */
function countingWalks<R extends Request>(request: R): { request: R; walks: { count: number } } {
  const walks = { count: 0 };
  const own = request.headers;
  const walking = new Set<PropertyKey>(["forEach", "entries", "keys", "values", Symbol.iterator]);
  const headers = new Proxy(own, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      if (typeof value !== "function") return value;
      const method = value as (...args: unknown[]) => unknown;
      return (...args: unknown[]) => {
        if (walking.has(key)) walks.count++;
        return method.apply(target, args);
      };
    },
  });
  Object.defineProperty(request, "headers", { value: headers });
  return { request, walks };
}

describe.each(engines())("request pipeline on %s", (engine) => {
  const api = useApi(engine);

  it("reads a request's headers one by one and never copies them all, on success and on error", async () => {
    const cases: [Request, number][] = [
      [buildRequest("GET", "/cdn/clients/me/features"), 200],
      [buildRequest("GET", "/edge/v1/apps?limit=1"), 200],
      [buildRequest("POST", "/cloud/v1/reservation_cost_report/totals", { body: { time_from: "2026-01", time_to: "2026-12" } }), 200],
      [buildRequest("GET", "/cdn/origin_groups/999999"), 404],
      [buildRequest("GET", "/cdn/clients/me/features", { authorization: null }), 401],
    ];
    for (const [sent, status] of cases) {
      const { request, walks } = countingWalks(sent);
      const reply = await replyOf(await api.handler(request));
      expect(reply.status, `${request.method} ${request.url}`).toBe(status);
      expect(walks.count, `${request.method} ${request.url}`).toBe(0);
    }
  });

  describe("request ids", () => {
    it("makes one when none is sent, on success and on error", async () => {
      const ok = await api.call("GET", "/cdn/clients/me/features");
      expect(ok.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{32}$/);
      const failed = await api.call("GET", "/cdn/origin_groups/999999");
      expect(failed.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{32}$/);
      expectEnvelope(failed, 404, "not_found");
      expect(failed.headers.get("x-request-id")).not.toBe(ok.headers.get("x-request-id"));
    });

    it("makes each new id from fresh random bits, across the draws of random bytes", () => {
      const ids = Array.from({ length: 1000 }, () => newRequestId());
      for (const id of ids) expect(id).toMatch(/^req_[0-9a-f]{32}$/);
      expect(new Set(ids).size).toBe(ids.length);
      // Every hex digit turns up in every position: no part of the id is fixed.
      for (let position = 4; position < 36; position++) expect(new Set(ids.map((id) => id[position])).size, `position ${position}`).toBe(16);
    });

    it("answers and logs an error under its request's id, whichever part of the pipeline raised it", async () => {
      const cases: Array<[string, string, number, ErrorCode, { body: unknown }?]> = [
        ["GET", "/cdn/origin_groups/999999", 404, "not_found"],
        ["GET", "/no/such/route", 404, "not_found"],
        ["DELETE", "/cdn/clients/me/features", 405, "method_not_allowed"],
        ["GET", "/cdn/origin_groups/not-a-number", 400, "validation_error"],
        ["PATCH", "/cdn/origin_groups/1", 400, "validation_error", { body: { sources: "no" } }],
      ];
      for (const [method, path, status, code, init] of cases)
        for (const sent of [undefined, `case-${method}-${status}`]) {
          const count = api.logs.length;
          const reply = await api.call(method, path, { ...init, headers: sent ? { "x-request-id": sent } : {} });
          const envelope = expectEnvelope(reply, status, code, undefined, `${method} ${path}`);
          expect(envelope.request_id).toBe(sent ?? reply.headers.get("x-request-id"));
          expect(api.logs.slice(count)).toEqual([expect.objectContaining({ request_id: envelope.request_id, method, status })]);
        }
    });

    it("echoes a reasonable one, and replaces one that is not", async () => {
      const echoed = await api.call("GET", "/cdn/origin_groups/999999", { headers: { "x-request-id": "trace-1.2_3" } });
      expect(echoed.headers.get("x-request-id")).toBe("trace-1.2_3");
      expectEnvelope(echoed, 404, "not_found");
      for (const bad of ["x".repeat(129), "has space", "semi;colon"]) {
        const replaced = await api.call("GET", "/cdn/clients/me/features", { headers: { "x-request-id": bad } });
        expect(replaced.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{32}$/);
      }
    });
  });

  it("answers unknown routes with 404, and a known path with another method 405 with Allow, in the envelope", async () => {
    expectEnvelope(await api.call("GET", "/cdn/nothing-here"), 404, "not_found");
    expectEnvelope(await api.call("GET", "/"), 404, "not_found");
    const wrongMethod = await api.call("DELETE", "/cdn/resources/1/shielding_v2");
    expectEnvelope(wrongMethod, 405, "method_not_allowed");
    expect(wrongMethod.headers.get("allow")).toBe("GET, HEAD, PUT");
  });

  it("answers 400 malformed_json for a body that is not JSON, changing nothing", async () => {
    const row = () => selectRows(api.database.db, sql`select * from cdn_resources where id = 1`);
    const before = await row();
    const reply = await api.call("PATCH", "/cdn/resources/1", { rawBody: '{"name": "x",', headers: { "content-type": "application/json" } });
    expectEnvelope(reply, 400, "malformed_json");
    expect(await row()).toEqual(before);
  });

  it("answers 415 for a body that is not JSON by its content type", async () => {
    const reply = await api.call("POST", "/edge/v1/secrets", { rawBody: "name=x", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expectEnvelope(reply, 415, "unsupported_media_type");
    expectEnvelope(await api.call("PUT", "/cdn/clients/me", { rawBody: '{"utilization_level":1}' }), 415, "unsupported_media_type");
  });

  it("takes JSON with a charset and the +json types", async () => {
    const reply = await api.call("PUT", "/cdn/clients/me", {
      rawBody: '{"utilization_level":4}',
      headers: { "content-type": "application/json; charset=utf-8" },
    });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.utilization_level).toBe(4);
  });

  it("answers 400 naming the body when a route that needs one gets none", async () => {
    const reply = await api.call("PUT", "/cdn/clients/me");
    expectEnvelope(reply, 400, "validation_error", { body: [expect.any(String)] });
  });

  it("takes a request without a body as one without a body, whatever its content type says (the platform's SDKs send it on every DELETE)", async () => {
    const made = await api.call("POST", "/edge/v1/secrets", { body: { name: "deleted-with-a-type", secret_slots: [{ slot: 0, value: "v" }] } });
    expect(made.status).toBe(200);
    const { id } = made.body as { id: number };
    const headers = { authorization: authorization([1, "role-1-active"]), "content-type": "application/json" };
    const reply = await replyOf(await api.handler(new Request(`${BASE}/edge/v1/secrets/${id}`, { method: "DELETE", headers })));
    expect(reply.status).toBe(204);
    expect((await api.call("GET", `/edge/v1/secrets/${id}`)).status).toBe(404);
    // A POST without a body that needs one is refused for the body it lacks, not as malformed JSON.
    const none = await replyOf(await api.handler(new Request(`${BASE}/cdn/origin_groups`, { method: "POST", headers })));
    expectEnvelope(none, 400, "validation_error", { body: [expect.any(String)] });
  });

  it("answers 400 naming the body for JSON null (no body of this API), changing nothing, and hands a raw route without a body empty bytes", async () => {
    const made = await api.call("POST", "/edge/v1/secrets", { body: { name: "kept-under-null", secret_slots: [{ slot: 0, value: "v" }] } });
    const { id } = made.body as { id: number };
    const auth = authorization([1, "role-1-active"]);
    const nulled = await replyOf(await api.handler(new Request(`${BASE}/edge/v1/secrets/${id}`, { method: "DELETE", headers: { authorization: auth, "content-type": "application/json" }, body: "null" })));
    expectEnvelope(nulled, 400, "validation_error", { body: ["Must be a JSON object, or no body at all where the route takes none."] });
    expect((await api.call("GET", `/edge/v1/secrets/${id}`)).status).toBe(200);
    // The raw route's own schema answers for the bytes it did not get, with or without a content type.
    for (const headers of [{ authorization: auth, "content-type": "application/octet-stream" }, { authorization: auth }] as Record<string, string>[]) {
      const raw = await replyOf(await api.handler(new Request(`${BASE}/edge/v1/binaries/raw`, { method: "POST", headers })));
      expectEnvelope(raw, 400, "validation_error", { body: ["Must not be empty: send the compiled WebAssembly module."] });
    }
  });

  it("answers 413 for a body over 1 MiB, and takes one just under", async () => {
    const big = JSON.stringify({ name: "big", secret_slots: [{ slot: 0, value: "x".repeat(MAX_BODY_BYTES) }] });
    expectEnvelope(await api.call("POST", "/edge/v1/secrets", { rawBody: big, headers: { "content-type": "application/json" } }), 413, "payload_too_large");
    // Just under the limit the body is read and validated (the value is over 4096 characters).
    const under = JSON.stringify({ name: "under", secret_slots: [{ slot: 0, value: "x".repeat(MAX_BODY_BYTES - 100) }] });
    const reply = await api.call("POST", "/edge/v1/secrets", { rawBody: under, headers: { "content-type": "application/json" } });
    expectEnvelope(reply, 400, "validation_error", ["secret_slots.0.value"]);
  });

  it("answers 408 to a body that is not received in time, with or without a declared length", async () => {
    const handler = api.createHandler({ timeoutMs: 300 });
    for (const declared of [true, false]) {
      // The client stalls, and gives up a while after the deadline.
      const reply = await replyOf(await handler(halfABody(declared, 1000)));
      expectEnvelope(reply, 408, "request_timeout");
      expect(reply.headers.get("connection"), `content-length declared: ${declared}`).toBe("close");
    }
  });

  it("answers 400 to a body the client stops sending before the deadline, reporting no error of its own", async () => {
    for (const declared of [true, false]) {
      expectEnvelope(await replyOf(await api.handler(halfABody(declared, 50))), 400, "bad_request");
    }
  });

  it("checks the token before it reads a body: a client without a valid one is answered 401 while its body is still coming", async () => {
    // The body would take until long after the deadline; read first, it would answer 408 at the deadline.
    // Built here, not by the harness, whose recording reads each body to its end before the answer.
    const handler = createHandler(api.handlerOptions({ timeoutMs: 2000 }));
    for (const [auth, code] of [
      [null, "not_authenticated"],
      ["apikey not-a-token", "token_not_valid"],
      ["Bearer x", "token_not_valid"],
    ] as const) {
      const started = performance.now();
      const reply = await replyOf(await handler(halfABody(true, 10_000, auth)));
      const ms = performance.now() - started;
      api.recordReply({ method: "PUT", path: "/cdn/clients/me", status: reply.status, headers: Object.fromEntries(reply.headers), body: reply.text });
      expectEnvelope(reply, 401, code);
      expect(ms, `${auth}: answered before the deadline`).toBeLessThan(1500);
    }
  });

  it("refuses JSON nested deeper than 64 levels before it is parsed, with or without a token, and takes 64", async () => {
    const nested = (depth: number) => `{"utilization_level":${"[".repeat(depth - 1)}${"]".repeat(depth - 1)}}`;
    const deep = `${"[".repeat(500_000)}${"]".repeat(500_000)}`;
    const headers = { "content-type": "application/json" };
    expectEnvelope(await api.call("PUT", "/cdn/clients/me", { rawBody: deep, headers }), 400, "validation_error", {
      body: ["Must not nest arrays and objects more than 64 levels deep."],
    });
    expectEnvelope(await api.call("PUT", "/cdn/clients/me", { rawBody: deep, headers, authorization: null }), 401, "not_authenticated");
    expectEnvelope(await api.call("PUT", "/cdn/clients/me", { rawBody: nested(65), headers }), 400, "validation_error", {
      body: ["Must not nest arrays and objects more than 64 levels deep."],
    });
    // Brackets inside strings are text, not nesting.
    const inText = JSON.stringify({ utilization_level: 1, extra: "[".repeat(1000) });
    expectEnvelope(await api.call("PUT", "/cdn/clients/me", { rawBody: inText, headers }), 400, "validation_error", ["extra"]);
    // 64 levels are read and validated: the value is no integer.
    expectEnvelope(await api.call("PUT", "/cdn/clients/me", { rawBody: nested(64), headers }), 400, "validation_error", ["utilization_level"]);
  });

  it("names path, query and body fields in validation errors", async () => {
    // A parameter given twice is a list, not its last value, even when the first is empty.
    expectEnvelope(await api.call("GET", "/edge/v1/apps?name=&name=resize"), 400, "validation_error", ["query.name"]);
    const path = await api.call("PATCH", "/cdn/resources/abc", { body: {} });
    expectEnvelope(path, 400, "validation_error", ["path.resource_id"]);
    const query = await api.call("GET", "/edge/v1/apps?limit=0&ordering=size&unknown=ignored");
    expectEnvelope(query, 400, "validation_error", ["query.limit", "query.ordering"]);
    const body = await api.call("PATCH", "/cdn/resources/1", { body: { options: { cors: { enabled: true, value: ["not a domain"] } }, id: 4 } });
    expectEnvelope(body, 400, "validation_error", {
      "options.cors.value.0": ["Must be a domain name."],
      id: ["Read-only field: it is set by the service and cannot be written."],
    });
  });

  it("checks the role before the input: a User's write is 403 even when the body is bad", async () => {
    const reply = await api.call("PATCH", "/cdn/resources/1", { as: [1, "role-2-active"], body: { nonsense: true } });
    expectEnvelope(reply, 403, "permission_denied");
  });

  it("logs every request without a credential in it", async () => {
    const count = api.logs.length;
    await api.call("GET", "/edge/v1/apps?limit=1", { headers: { "x-request-id": "log-check" } });
    const entry = api.logs[count]!;
    expect(entry).toMatchObject({ request_id: "log-check", method: "GET", path: "/edge/v1/apps", status: 200 });
    expect(entry.duration_ms).toBeGreaterThanOrEqual(0);
    const logged = JSON.stringify(api.logs);
    for (const account of demoFixture.apiTokens) expect(logged).not.toContain(account.plaintext);
  });

  it("serves under a base path and answers 404 outside it", async () => {
    const handler = api.createHandler({ basePath: "/api/" });
    const inside = await api.call("GET", "/api/cdn/clients/me/features", { handler });
    expect(inside.status, inside.text).toBe(200);
    for (const path of ["/cdn/clients/me/features", "/apix/cdn/clients/me/features"])
      expectEnvelope(await api.call("GET", path, { handler }), 404, "not_found");
  });
});

describe("@ts-rest/serverless's fetch handler and router (patches/)", () => {
  const c = initContract();
  const contract = c.router({
    getThing: { method: "GET", path: "/things/:id", pathParams: z.object({ id: z.coerce.number() }), responses: { 200: z.object({ id: z.number() }) } },
    addThing: { method: "POST", path: "/things", body: z.object({ name: z.string() }), responses: { 201: z.object({ name: z.string() }) } },
  });
  // The route is given the request itself: not a copy (which would lack a mark set on the request given), nor a proxy of it.
  const given = Symbol("given");
  const seen: Request[] = [];
  const isGiven = (request: (Request & { [given]?: true }) | undefined) => request?.[given] === true;
  const mark = <R extends Request>(request: R): R => Object.assign(request, { [given]: true as const });
  const serve = createFetchHandler(contract, {
    getThing: ({ params }, { request }) => {
      seen.push(request);
      return Promise.resolve({ status: 200 as const, body: { id: params.id } });
    },
    addThing: ({ body }, { request }) => {
      seen.push(request);
      return Promise.resolve({ status: 201 as const, body });
    },
  });

  it("routes the request it is given, not a copy nor a proxy of it, with its route, params and query set on it, a body read once", async () => {
    const get = mark(new Request("http://api.test/things/7?view=full"));
    const reply = (await serve(get)) as Response;
    expect(reply.status).toBe(200);
    expect(await reply.json()).toEqual({ id: 7 });
    expect(isGiven(seen.at(-1))).toBe(true);
    // itty-router's withParams handed every handler a Proxy of the request (each property read through a trap).
    expect(seen.at(-1)).toBe(get);
    expect(get).toMatchObject({ route: "/things/:id", params: { id: "7" }, query: { view: "full" } });

    const post = mark(new Request("http://api.test/things", { method: "POST", headers: { "content-type": "application/json" }, body: '{"name":"a"}' }));
    const created = (await serve(post)) as Response;
    expect(created.status).toBe(201);
    expect(await created.json()).toEqual({ name: "a" });
    expect(isGiven(seen.at(-1))).toBe(true);
    expect(seen.at(-1)).toBe(post);
    expect(post.bodyUsed).toBe(true);
  });

  it("reads no body of a request whose content the caller has set (undefined for none)", async () => {
    const read = Object.assign(new Request("http://api.test/things", { method: "POST", headers: { "content-type": "application/json" }, body: '{"name":"sent"}' }), {
      content: { name: "read" },
    });
    const created = (await serve(read)) as Response;
    expect(created.status).toBe(201);
    expect(await created.json()).toEqual({ name: "read" });
    expect(read.bodyUsed).toBe(false);
    // A JSON content type and no content: validated as no body, not read as JSON (which would fail).
    const none = Object.assign(new Request("http://api.test/things", { method: "POST", headers: { "content-type": "application/json" } }), { content: undefined });
    const refused = (await serve(none)) as Response;
    expect(refused.status).toBe(400);
    expect(JSON.stringify(await refused.json())).toContain("bodyErrors");
  });

  it("routes a TsRestRequest as it is too", async () => {
    const request = mark(new TsRestRequest("http://api.test/things/8"));
    expect(((await serve(request)) as Response).status).toBe(200);
    expect(isGiven(seen.at(-1))).toBe(true);
    expect(seen.at(-1)).toBe(request);
  });

  it("with CORS on, answers ts-rest's own response as a TsRestResponse copied from its raw body, with the origin's headers, the response it copied left as it was", async () => {
    // A response a middleware answers with, the same object for every request that asks.
    const shared = TsRestResponse.fromJson({ shared: true }, { status: 200 });
    const serveCors = createFetchHandler(
      contract,
      {
        getThing: ({ params }) => Promise.resolve({ status: 200 as const, body: { id: params.id } }),
        addThing: ({ body }) => Promise.resolve({ status: 201 as const, body }),
      },
      {
        cors: { origin: ["http://app.test", "http://other.test"], exposeHeaders: ["x-request-id"] },
        requestMiddleware: [(request) => (request.headers.has("x-shared") ? shared : undefined)],
      },
    );
    const call = async (path: string, headers: Record<string, string>) => (await serveCors(new Request(`http://api.test${path}`, { headers }))) as TsRestResponse;
    const allowed = await call("/things/7", { origin: "http://app.test" });
    // itty-router's corsify answered in a plain Response copied through the body's stream, without rawBody.
    expect(allowed).toBeInstanceOf(TsRestResponse);
    expect(allowed.rawBody).toBe('{"id":7}');
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get("content-type")).toBe("application/json");
    expect(allowed.headers.get("access-control-allow-origin")).toBe("http://app.test");
    expect(allowed.headers.get("vary")).toBe("Origin");
    expect(await allowed.json()).toEqual({ id: 7 });
    const refused = await call("/things/7", { origin: "http://elsewhere.test" });
    expect(refused).toBeInstanceOf(TsRestResponse);
    expect(refused.headers.has("access-control-allow-origin")).toBe(false);
    expect(await refused.json()).toEqual({ id: 7 });
    // Each request gets its own origin's headers on a copy; the shared response is never changed.
    for (const origin of ["http://app.test", "http://other.test"]) {
      const answer = await call("/things/7", { origin, "x-shared": "1" });
      expect(answer).not.toBe(shared);
      expect(answer.headers.get("access-control-allow-origin")).toBe(origin);
      expect(await answer.json()).toEqual({ shared: true });
    }
    expect(shared.headers.has("access-control-allow-origin")).toBe(false);
    expect(shared.headers.has("vary")).toBe(false);
    // A preflight is answered as before.
    const preflight = (await serveCors(new Request("http://api.test/things", { method: "OPTIONS", headers: { origin: "http://app.test", "access-control-request-method": "POST" } }))) as Response;
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("http://app.test");
  });

  it("copies a request's headers only for a route with a headers schema, or when the implementation reads them", async () => {
    const withHeaders = c.router({
      owner: { method: "GET", path: "/things/:id/owner", headers: z.object({ "x-owner": z.string() }), responses: { 200: z.object({ owner: z.string() }) } },
      agent: { method: "GET", path: "/agent", responses: { 200: z.object({ agent: z.string(), names: z.array(z.string()), spread: z.array(z.string()) }) } },
    });
    const serveHeaders = createFetchHandler(c.router({ ...contract, ...withHeaders }), {
      getThing: ({ params }) => Promise.resolve({ status: 200 as const, body: { id: params.id } }),
      addThing: ({ body }) => Promise.resolve({ status: 201 as const, body }),
      owner: ({ headers }) => Promise.resolve({ status: 200 as const, body: { owner: headers["x-owner"] } }),
      agent: (given) => {
        // ts-rest types no `headers` for a route without a headers schema, and passes them all the same.
        const args = given as unknown as { headers: Record<string, string> };
        // Read twice: copied once.
        const { headers } = args;
        // A spread of the argument copies what it always did, and nothing the patch keeps on it.
        const spread = Reflect.ownKeys({ ...args }).map(String);
        return Promise.resolve({ status: 200 as const, body: { agent: headers["user-agent"]!, names: Object.keys(args.headers).sort(), spread } });
      },
    });
    const counted = (path: string, headers: Record<string, string>) => countingWalks(new Request(`http://api.test${path}`, { headers }));
    const plain = counted("/things/3", { "user-agent": "test" });
    const reply = (await serveHeaders(plain.request)) as Response;
    expect(reply.status).toBe(200);
    expect(await reply.json()).toEqual({ id: 3 });
    expect(plain.walks.count).toBe(0);

    const read = counted("/agent", { "user-agent": "agent/1", "x-extra": "1" });
    const agent = (await serveHeaders(read.request)) as Response;
    expect(agent.status).toBe(200);
    expect(await agent.json()).toEqual({ agent: "agent/1", names: ["user-agent", "x-extra"], spread: ["params", "body", "query", "headers"] });
    expect(read.walks.count).toBe(1);

    const owned = counted("/things/3/owner", { "x-owner": "ann" });
    const owner = (await serveHeaders(owned.request)) as Response;
    expect(owner.status).toBe(200);
    expect(await owner.json()).toEqual({ owner: "ann" });
    expect(owned.walks.count).toBe(1);
    const missing = counted("/things/3/owner", {});
    const refused = (await serveHeaders(missing.request)) as Response;
    expect(refused.status).toBe(400);
    expect(JSON.stringify(await refused.json())).toContain("headerErrors");
  });
});
