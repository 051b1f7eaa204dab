/** The Lambda adapter with API Gateway REST (v1) and HTTP API (v2) events of the shapes AWS sends. */
import { createHash } from "node:crypto";
import net, { type AddressInfo } from "node:net";
import { createDatabase, demoToken } from "@cloudplane/db";
import { beforeAll, describe, expect, it } from "vitest";
import { engines, useApi } from "../../../test/harness.js";
import { lazyHandler } from "../../lazy.js";
import { lambdaHandler, type ApiGatewayEvent, type ClientErrorEntry, type ApiGatewayV1Event, type ApiGatewayV1Result, type ApiGatewayV2Event, type ApiGatewayV2Result } from "./index.js";

const token = `apikey ${demoToken(1, "role-1-active").plaintext}`;
const host = "abc123.execute-api.eu-west-1.amazonaws.com";

function v1Event(method: string, path: string, query: Record<string, string[]>, body: string | null, base64 = false): ApiGatewayV1Event {
  const headers = { Authorization: token, Host: host, "Content-Type": "application/json", "X-Request-Id": "lambda-v1" };
  return {
    resource: "/{proxy+}",
    path,
    httpMethod: method,
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]])),
    queryStringParameters: Object.keys(query).length ? Object.fromEntries(Object.entries(query).map(([name, values]) => [name, values.at(-1)!])) : null,
    multiValueQueryStringParameters: Object.keys(query).length ? query : null,
    pathParameters: { proxy: path.slice(1) },
    stageVariables: null,
    requestContext: { resourcePath: "/{proxy+}", httpMethod: method, path: `/prod${path}`, stage: "prod", domainName: host, requestId: "c6af9ac6-7b61-11e6-9a41-93e8deadbeef" },
    body: base64 && body !== null ? Buffer.from(body).toString("base64") : body,
    isBase64Encoded: base64,
  } as ApiGatewayV1Event;
}

function v2Event(method: string, rawPath: string, rawQueryString: string, body?: string, base64 = false): ApiGatewayV2Event {
  return {
    version: "2.0",
    routeKey: "$default",
    rawPath,
    rawQueryString,
    headers: { authorization: token, host, "content-type": "application/json", "x-request-id": "lambda-v2" },
    requestContext: {
      accountId: "123456789012",
      apiId: "abc123",
      domainName: host,
      http: { method, path: rawPath, protocol: "HTTP/1.1", sourceIp: "198.51.100.7", userAgent: "curl/8.0" },
      requestId: "JKJaXmPLvHcESHA=",
      routeKey: "$default",
      stage: "$default",
      time: "20/Nov/2026:19:03:58 +0000",
      timeEpoch: 1795201438000,
    },
    ...(body === undefined ? {} : { body: base64 ? Buffer.from(body).toString("base64") : body }),
    isBase64Encoded: base64,
  } as ApiGatewayV2Event;
}

describe.each(engines())("AWS Lambda adapter on %s", (engine) => {
  const api = useApi(engine);

  // ts-rest's Lambda handler on the harness's options; each result is recorded for the secrets scan.
  describe("serving API Gateway events", () => {
    let serve: ReturnType<typeof lambdaHandler>;
    const lambda = async (event: ApiGatewayEvent) => {
      const result = await serve(event);
      const path = "rawPath" in event ? event.rawPath : event.path;
      const method = "rawPath" in event ? event.requestContext.http.method : event.httpMethod;
      api.recordReply({ method, path, status: result.statusCode, headers: result.headers, body: result.body });
      return result;
    };
    beforeAll(() => {
      serve = lambdaHandler(api.createHandler());
    });

    it("serves a v1 GET with repeated and single query parameters", async () => {
      const result = (await lambda(v1Event("GET", "/edge/v1/apps", { limit: ["3"], ordering: ["-id"] }, null))) as ApiGatewayV1Result;
      expect(result.statusCode).toBe(200);
      expect(result.isBase64Encoded).toBe(false);
      expect(result.headers["x-request-id"]).toBe("lambda-v1");
      expect(result.headers["content-type"]).toContain("application/json");
      const body = JSON.parse(result.body) as { apps: { id: number }[]; count: number };
      expect(body.apps).toHaveLength(3);
      expect(body.apps.map((app) => app.id)).toEqual([...body.apps.map((app) => app.id)].sort((a, b) => b - a));
    });

    it("serves a v1 PUT with a plain and with a base64 body", async () => {
      for (const base64 of [false, true]) {
        const level = base64 ? 7 : 6;
        const result = (await lambda(v1Event("PUT", "/cdn/clients/me", {}, JSON.stringify({ utilization_level: level }), base64))) as ApiGatewayV1Result;
        expect(result.statusCode, result.body).toBe(200);
        expect(JSON.parse(result.body)).toMatchObject({ utilization_level: level });
      }
    });

    it("deletes on a DELETE event whose Content-Type is JSON and that has no body (v1 and v2), as the platform's SDKs send it", async () => {
      for (const version of [1, 2]) {
        const body = JSON.stringify({ name: `lambda-delete-${version}`, secret_slots: [{ slot: 0, value: "v" }] });
        const made = (await lambda(version === 1 ? v1Event("POST", "/edge/v1/secrets", {}, body) : v2Event("POST", "/edge/v1/secrets", "", body))) as ApiGatewayV1Result;
        expect(made.statusCode, made.body).toBe(200);
        const path = `/edge/v1/secrets/${(JSON.parse(made.body) as { id: number }).id}`;
        const deleted = (await lambda(version === 1 ? v1Event("DELETE", path, {}, null) : v2Event("DELETE", path, ""))) as ApiGatewayV1Result;
        expect(deleted.statusCode, deleted.body).toBe(204);
      }
    });

    it("answers v1 errors in the envelope", async () => {
      const result = (await lambda(v1Event("GET", "/edge/v1/apps", { limit: ["0"] }, null))) as ApiGatewayV1Result;
      expect(result.statusCode).toBe(400);
      expect(JSON.parse(result.body)).toMatchObject({ code: "validation_error", errors: { "query.limit": [expect.any(String)] }, request_id: "lambda-v1" });
    });

    it("serves a v2 GET with the raw query string and the X-Total-Count header", async () => {
      const result = (await lambda(v2Event("GET", "/streaming/streams", "page=2"))) as ApiGatewayV2Result;
      expect(result.statusCode).toBe(200);
      expect(result.headers["x-request-id"]).toBe("lambda-v2");
      expect(Number(result.headers["x-total-count"])).toBeGreaterThan(25);
      expect(Array.isArray(JSON.parse(result.body))).toBe(true);
    });

    it("serves a v2 POST with a base64 body, and returns CSV as text", async () => {
      const report = JSON.stringify({ time_from: "2026-08", time_to: "2026-10", response_format: "csv_totals" });
      const result = (await lambda(v2Event("POST", "/cloud/v1/reservation_cost_report/totals", "", report, true))) as ApiGatewayV2Result;
      expect(result.statusCode, result.body).toBe(200);
      expect(result.headers["content-type"]).toContain("text/csv");
      expect(result.isBase64Encoded).toBe(false);
      expect(result.body.split("\r\n")[0]).toBe("type,region,region_id,flavor,instance_type,volume_type,billing_metric_name,billing_feature_name,billing_value_unit,currency,billing_value,cost,err");
    });

    it("serves a raw upload (an edge binary) from a base64 body as its bytes; JSON to it is 415 and bytes to a JSON route too", async () => {
      const wasm = Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0xff, 0xfe, 0x80]);
      const raw = (method: string, path: string, body: Buffer) => {
        const event = v2Event(method, path, "");
        event.headers!["content-type"] = "application/octet-stream";
        event.body = body.toString("base64");
        event.isBase64Encoded = true;
        return event;
      };
      const uploaded = (await lambda(raw("POST", "/edge/v1/binaries/raw", wasm))) as ApiGatewayV2Result;
      expect(uploaded.statusCode, uploaded.body).toBe(201);
      const binary = JSON.parse(uploaded.body) as { id: number; checksum: string };
      // The bytes as they were sent (0xff 0xfe 0x80 are no UTF-8): the checksum is theirs.
      expect(binary.checksum).toBe(createHash("sha256").update(wasm).digest("hex"));
      const removal = v2Event("DELETE", `/edge/v1/binaries/${binary.id}`, "");
      delete removal.headers!["content-type"];
      const deleted = (await lambda(removal)) as ApiGatewayV2Result;
      expect(deleted.statusCode, deleted.body).toBe(204);

      const json = (await lambda(v2Event("POST", "/edge/v1/binaries/raw", "", JSON.stringify({ binary: "AGFzbQEAAAA=" })))) as ApiGatewayV2Result;
      expect(json.statusCode, json.body).toBe(415);
      expect(JSON.parse(json.body)).toMatchObject({ code: "unsupported_media_type" });
      const notWasm = (await lambda(raw("POST", "/edge/v1/binaries/raw", Buffer.from("hello")))) as ApiGatewayV2Result;
      expect(notWasm.statusCode, notWasm.body).toBe(400);
      expect(JSON.parse(notWasm.body)).toMatchObject({ code: "validation_error", errors: { body: [expect.any(String)] } });
      const toJsonRoute = (await lambda(raw("POST", "/edge/v1/secrets", wasm))) as ApiGatewayV2Result;
      expect(toJsonRoute.statusCode, toJsonRoute.body).toBe(415);
    });

    it("answers a v2 request without credentials with 401", async () => {
      const event = v2Event("GET", "/edge/v1/apps", "");
      delete event.headers!.authorization;
      const result = (await lambda(event)) as ApiGatewayV2Result;
      expect(result.statusCode).toBe(401);
      expect(JSON.parse(result.body)).toMatchObject({ code: "not_authenticated" });
    });
    it("answers an event that is no valid HTTP request (a header value with a line break) with 400 in the envelope, and reports it", async () => {
      const refused: ClientErrorEntry[] = [];
      const strict = lambdaHandler(api.createHandler(), { onClientError: (entry) => refused.push(entry) });
      const event = v2Event("GET", "/edge/v1/apps", "");
      event.headers!["x-note"] = "one\r\ntwo";
      const result = (await strict(event)) as ApiGatewayV2Result;
      expect(result.statusCode).toBe(400);
      expect(JSON.parse(result.body)).toMatchObject({ code: "bad_request", message: expect.any(String), request_id: "lambda-v2" });
      expect(result.headers["x-request-id"]).toBe("lambda-v2");
      expect(refused).toEqual([{ request_id: "lambda-v2", status: 400, code: "bad_request", message: expect.any(String) }]);
    });
  });

  it("answers 503 in the envelope at the handler's deadline (timeoutMs), as on every runtime", async () => {
    // A database that takes connections and never answers: the token lookup waits past the deadline.
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as AddressInfo;
    const hanging = await createDatabase({ url: `postgres://postgres@127.0.0.1:${port}/none`, max: 1, migrate: false, fetchTypes: false, connectTimeout: 30 });
    try {
      const serve = lambdaHandler(api.createHandler({ db: hanging.db, timeoutMs: 300 }));
      const started = performance.now();
      const result = (await serve(v2Event("GET", "/edge/v1/apps", ""))) as ApiGatewayV2Result;
      const waited = performance.now() - started;
      expect(result.statusCode, result.body).toBe(503);
      expect(JSON.parse(result.body)).toMatchObject({ code: "unavailable", request_id: "lambda-v2" });
      expect(result.headers["retry-after"]).toBeDefined();
      // The deadline answered, not the database's connect timeout (30 s).
      expect(waited).toBeLessThan(10_000);
    } finally {
      await Promise.race([hanging.close(), new Promise((resolve) => setTimeout(resolve, 100))]);
      silent.close();
    }
  });

  it("answers while its setup fails (500 in the envelope) and sets up again on the next event", async () => {
    let attempts = 0;
    const reported: unknown[] = [];
    const serve = lambdaHandler(
      lazyHandler(
        () => {
          attempts += 1;
          if (attempts === 1) return Promise.reject(new Error("CLOUDPLANE_SECRETS_KEY is not set"));
          return Promise.resolve(api.createHandler());
        },
        (error) => reported.push(error),
      ),
    );
    const failed = (await serve(v2Event("GET", "/edge/v1/apps", ""))) as ApiGatewayV2Result;
    expect(failed.statusCode).toBe(500);
    expect(JSON.parse(failed.body)).toMatchObject({ code: "internal", request_id: failed.headers["x-request-id"] });
    expect(failed.body).not.toContain("CLOUDPLANE_SECRETS_KEY");
    expect(reported).toHaveLength(1);
    const served = (await serve(v2Event("GET", "/edge/v1/apps", ""))) as ApiGatewayV2Result;
    expect(served.statusCode).toBe(200);
    expect(attempts).toBe(2);
  });
});
