/**
 * CORS (the `cors` option, CLOUDPLANE_CORS_ORIGINS): preflights answered without authentication, the
 * origin's headers on every answer (success, error, and errors raised before ts-rest), nothing for
 * origins not allowed, nothing at all when it is off; through the fetch and the Lambda handlers.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { lambdaHandler, type ApiGatewayV2Event, type ApiGatewayV2Result } from "../src/adapter/aws-lambda/index.js";
import { corsFromEnv, handlerOptionsFromEnv, MAX_BODY_BYTES } from "../src/index.js";
import { authorization, engines, expectEnvelope, useApi, type Handler } from "./harness.js";

const APP = "https://app.example.com";
const OTHER = "https://evil.example.net";

function preflightHeaders(origin: string, method = "GET"): Record<string, string> {
  return { origin, "access-control-request-method": method, "access-control-request-headers": "authorization,content-type" };
}

describe("CLOUDPLANE_CORS_ORIGINS", () => {
  it("is * or a comma-separated list of origins, written as browsers send them", () => {
    expect(corsFromEnv({})).toBeUndefined();
    expect(corsFromEnv({ CLOUDPLANE_CORS_ORIGINS: "" })).toBeUndefined();
    expect(corsFromEnv({ CLOUDPLANE_CORS_ORIGINS: "*" })).toEqual({ origins: "*" });
    expect(corsFromEnv({ CLOUDPLANE_CORS_ORIGINS: " https://App.Example.com/ , http://localhost:5173,https://app.example.com:443" })).toEqual({
      origins: ["https://app.example.com", "http://localhost:5173"],
    });
  });

  it("refuses what is not an origin, naming it", () => {
    for (const value of ["https://app.example.com/path", "app.example.com", "ftp://files.example.com", "https://user@app.example.com", "*,https://a.example.com", ","])
      expect(() => corsFromEnv({ CLOUDPLANE_CORS_ORIGINS: value }), value).toThrow(/CLOUDPLANE_CORS_ORIGINS must be \* or a comma-separated list of origins/);
  });

  it("wins over the caller's default in handlerOptionsFromEnv, which stays when the environment says nothing", async () => {
    const given = { db: {} as never, secretsKey: {} as CryptoKey, handler: { cors: { origins: [APP] } } };
    expect((await handlerOptionsFromEnv({ CLOUDPLANE_CORS_ORIGINS: "*" }, given)).cors).toEqual({ origins: "*" });
    expect((await handlerOptionsFromEnv({}, given)).cors).toEqual({ origins: [APP] });
    expect((await handlerOptionsFromEnv({}, { db: given.db, secretsKey: given.secretsKey })).cors).toBeUndefined();
  });
});

describe.each(engines())("CORS on %s", (engine) => {
  const api = useApi(engine);
  let listed: Handler;
  let anyOrigin: Handler;
  beforeAll(() => {
    listed = api.createHandler({ cors: { origins: [APP, "http://localhost:5173"] } });
    anyOrigin = api.createHandler({ cors: { origins: "*" } });
  });

  it("answers a preflight without authentication: 204 with the origin, methods, headers and how long to keep it", async () => {
    const count = api.logs.length;
    const reply = await api.call("OPTIONS", "/cdn/resources/1", { handler: listed, authorization: null, headers: preflightHeaders(APP, "PATCH") });
    expect(reply.status).toBe(204);
    expect(reply.text).toBe("");
    expect(reply.headers.get("access-control-allow-origin")).toBe(APP);
    expect(reply.headers.get("access-control-allow-methods")).toBe("GET,HEAD,POST,PUT,PATCH,DELETE");
    expect(reply.headers.get("access-control-allow-headers")).toBe("authorization,content-type,x-request-id,idempotency-key");
    expect(reply.headers.get("access-control-max-age")).toBe("7200");
    expect(reply.headers.get("access-control-allow-credentials")).toBeNull();
    expect(reply.headers.get("vary")).toBe("Origin");
    expect(reply.headers.get("x-request-id")).toMatch(/^req_/);
    expect(api.logs.slice(count)).toEqual([expect.objectContaining({ method: "OPTIONS", path: "/cdn/resources/1", status: 204 })]);
  });

  it("gives an origin it does not allow no CORS header, so the browser refuses the call", async () => {
    const preflight = await api.call("OPTIONS", "/cdn/clients/me/features", { handler: listed, authorization: null, headers: preflightHeaders(OTHER) });
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
    const call = await api.call("GET", "/cdn/clients/me/features", { handler: listed, headers: { origin: OTHER } });
    expect(call.status).toBe(200);
    expect(call.headers.get("access-control-allow-origin")).toBeNull();
    expect(call.headers.get("access-control-expose-headers")).toBeNull();
    expect(call.headers.get("vary")).toBe("Origin");
  });

  it("lets an allowed origin read successes and their headers", async () => {
    const reply = await api.call("GET", "/streaming/streams", { handler: listed, headers: { origin: "http://localhost:5173" } });
    expect(reply.status).toBe(200);
    expect(reply.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
    expect(reply.headers.get("access-control-expose-headers")).toBe("x-request-id,x-total-count,retry-after,allow,idempotent-replayed");
    expect(reply.headers.get("vary")).toBe("Origin");
    expect(Number(reply.headers.get("x-total-count"))).toBeGreaterThan(0);
    expect(Array.isArray(reply.body)).toBe(true);
  });

  it("lets an allowed origin read errors: from the routes, from authentication, 405, and those raised before ts-rest", async () => {
    const headers = { origin: APP };
    const replies = [
      [await api.call("GET", "/cdn/origin_groups/999999", { handler: listed, headers }), 404, "not_found"],
      [await api.call("GET", "/cdn/clients/me/features", { handler: listed, headers, authorization: null }), 401, "not_authenticated"],
      [await api.call("DELETE", "/cdn/resources/1/shielding_v2", { handler: listed, headers }), 405, "method_not_allowed"],
      [await api.call("PUT", "/cdn/clients/me", { handler: listed, headers: { ...headers, "content-type": "text/plain" }, rawBody: "x" }), 415, "unsupported_media_type"],
      [
        await api.call("POST", "/edge/v1/secrets", { handler: listed, headers: { ...headers, "content-type": "application/json" }, rawBody: "x".repeat(MAX_BODY_BYTES + 1) }),
        413,
        "payload_too_large",
      ],
    ] as const;
    for (const [reply, status, code] of replies) {
      expectEnvelope(reply, status, code);
      expect(reply.headers.get("access-control-allow-origin"), code).toBe(APP);
      expect(reply.headers.get("access-control-expose-headers"), code).toBe("x-request-id,x-total-count,retry-after,allow,idempotent-replayed");
      expect(reply.headers.get("vary"), code).toBe("Origin");
    }
    expect(replies[2][0].headers.get("allow")).toBe("GET, HEAD, PUT, OPTIONS");
  });

  it("with origins *, allows every origin with *", async () => {
    const preflight = await api.call("OPTIONS", "/edge/v1/apps", { handler: anyOrigin, authorization: null, headers: preflightHeaders(OTHER) });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    const reply = await api.call("GET", "/edge/v1/apps?limit=1", { handler: anyOrigin, headers: { origin: OTHER } });
    expect(reply.status).toBe(200);
    expect(reply.headers.get("access-control-allow-origin")).toBe("*");
    expect(reply.headers.get("vary")).toBeNull();
  });

  it("answers a preflight that carries a body (JSON null included) as any preflight, without reading it for a route", async () => {
    for (const rawBody of ["null", "{}"]) {
      const preflight = await api.call("OPTIONS", "/edge/v1/apps", {
        handler: anyOrigin,
        authorization: null,
        headers: { ...preflightHeaders(OTHER, "POST"), "content-type": "application/json" },
        rawBody,
      });
      expect(preflight.status, rawBody).toBe(204);
      expect(preflight.headers.get("access-control-allow-origin"), rawBody).toBe("*");
    }
  });

  it("takes a test of the origin", async () => {
    const handler = api.createHandler({ cors: { origins: (origin) => origin.endsWith(".example.com") } });
    const allowed = await api.call("OPTIONS", "/edge/v1/apps", { handler, authorization: null, headers: preflightHeaders(APP) });
    expect(allowed.headers.get("access-control-allow-origin")).toBe(APP);
    const refused = await api.call("OPTIONS", "/edge/v1/apps", { handler, authorization: null, headers: preflightHeaders(OTHER) });
    expect(refused.headers.get("access-control-allow-origin")).toBeNull();
    const withoutOrigin = await api.call("GET", "/edge/v1/apps?limit=1", { handler });
    expect(withoutOrigin.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("is off by default: no CORS header, and OPTIONS is a method like any other (401 without a token, then 405)", async () => {
    const preflight = await api.call("OPTIONS", "/cdn/clients/me/features", { authorization: null, headers: preflightHeaders(APP) });
    expectEnvelope(preflight, 401, "not_authenticated");
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
    const options = await api.call("OPTIONS", "/cdn/clients/me/features", { headers: { origin: APP } });
    expectEnvelope(options, 405, "method_not_allowed");
    expect(options.headers.get("allow")).toBe("GET, HEAD");
    const reply = await api.call("GET", "/cdn/clients/me/features", { headers: { origin: APP } });
    expect(reply.status).toBe(200);
    for (const name of ["access-control-allow-origin", "access-control-expose-headers", "vary"]) expect(reply.headers.get(name), name).toBeNull();
  });

  it("behaves the same on AWS Lambda", async () => {
    const lambda = lambdaHandler(api.createHandler({ cors: { origins: [APP] } }));
    const event = (method: string, headers: Record<string, string>): ApiGatewayV2Event => ({
      version: "2.0",
      rawPath: "/cdn/clients/me/features",
      rawQueryString: "",
      headers: { host: "api.example.com", ...headers },
      requestContext: { domainName: "api.example.com", http: { method } },
    });
    const call = async (method: string, headers: Record<string, string>) => {
      const result = (await lambda(event(method, headers))) as ApiGatewayV2Result;
      api.recordReply({ method, path: "/cdn/clients/me/features", status: result.statusCode, headers: result.headers, body: result.body });
      return result;
    };
    const preflight = await call("OPTIONS", preflightHeaders(APP));
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers["access-control-allow-origin"]).toBe(APP);
    const reply = await call("GET", { origin: APP, authorization: authorization([1, "role-1-active"]) });
    expect(reply.statusCode, reply.body).toBe(200);
    expect(reply.headers["access-control-allow-origin"]).toBe(APP);
    expect(reply.headers["access-control-expose-headers"]).toBe("x-request-id,x-total-count,retry-after,allow,idempotent-replayed");
  });
});
