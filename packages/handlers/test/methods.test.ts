/**
 * Methods: HEAD on every GET route (the GET's status and headers, no body), 405 `method_not_allowed`
 * with `Allow` for a path the API has with other methods, 404 for paths it does not have; through the
 * fetch handler, the Lambda handler and the Node adapter.
 */
import { connect } from "node:net";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lambdaHandler, type ApiGatewayV2Event, type ApiGatewayV2Result } from "../src/adapter/aws-lambda/index.js";
import { serve } from "../src/adapter/node/index.js";
import { authorization, buildRequest, engines, expectEnvelope, replyOf, useApi, type CallOptions, type Handler, type Reply } from "./harness.js";
import { routeCases } from "./routes.js";

/** The headers of a reply, without those that differ per request or per body. */
function sameHeaders(reply: Pick<Reply, "headers">): Record<string, string> {
  const headers: Record<string, string> = {};
  reply.headers.forEach((value, name) => {
    if (name !== "x-request-id" && name !== "content-length") headers[name] = value;
  });
  return headers;
}

function v2Event(method: string, rawPath: string, headers: Record<string, string> = {}): ApiGatewayV2Event {
  return {
    version: "2.0",
    rawPath,
    rawQueryString: "",
    headers: { authorization: authorization([1, "role-1-active"]), host: "api.example.com", ...headers },
    requestContext: { domainName: "api.example.com", http: { method } },
    isBase64Encoded: false,
  };
}

/** Sends one request on its own connection and reads everything the server sends until it closes it. */
function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let received = "";
    const socket = connect(port, "127.0.0.1", () => socket.write(`${request}\r\nConnection: close\r\n\r\n`));
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => (received += chunk));
    socket.on("end", () => resolve(received));
    socket.on("error", reject);
  });
}

describe.each(engines())("methods on %s", (engine) => {
  const api = useApi(engine);

  /** A HEAD request: its status, headers and body as text (a JSON content type with no body to parse). */
  const head = async (path: string, options: CallOptions & { handler?: Handler } = {}) => {
    const response = await (options.handler ?? api.handler)(buildRequest("HEAD", path, options));
    return { status: response.status, headers: response.headers, text: await response.text() };
  };

  describe("HEAD", () => {
    it("answers every GET route with the GET's status and headers, the body's length and no body", async () => {
      const gets = routeCases.filter(({ route }) => route.method === "GET");
      expect(gets.length).toBeGreaterThan(5);
      for (const routeCase of gets) {
        const { name } = routeCase;
        // A route whose case makes its object (a task of an upload) gets a fresh one.
        const path = await routeCase.pathOn(api, 1);
        // The GET's body as bytes: some answers are not text (a zip of raw logs).
        const get = await api.handler(buildRequest("GET", path));
        const getBytes = (await get.arrayBuffer()).byteLength;
        const headReply = await head(path);
        expect(headReply.status, name).toBe(get.status);
        expect(get.status, name).toBeLessThan(300);
        expect(headReply.text, name).toBe("");
        expect(sameHeaders(headReply), name).toEqual(sameHeaders(get));
        expect(headReply.headers.get("content-length"), name).toBe(String(getBytes));
        expect(headReply.headers.get("x-request-id"), name).toMatch(/^req_/);
      }
    });

    it("answers errors without a body too, and logs the request as HEAD", async () => {
      const unauthenticated = await head("/cdn/clients/me/features", { authorization: null, headers: { "x-request-id": "head-401" } });
      expect(unauthenticated.status).toBe(401);
      expect(unauthenticated.text).toBe("");
      expect(unauthenticated.headers.get("content-type")).toBe("application/json");
      expect(unauthenticated.headers.get("x-request-id")).toBe("head-401");
      expect(api.logs.find((entry) => entry.request_id === "head-401")).toMatchObject({ method: "HEAD", path: "/cdn/clients/me/features", status: 401 });
      const missing = await head("/cdn/origin_groups/999999");
      expect(missing.status).toBe(404);
      expect(missing.text).toBe("");
    });
  });

  describe("405 and 404", () => {
    it("answers a known path with another method 405 method_not_allowed, with Allow listing the path's methods", async () => {
      const cases: [method: string, path: string, allow: string][] = [
        ["DELETE", "/cdn/resources/1/shielding_v2", "GET, HEAD, PUT"],
        ["GET", "/cloud/v1/reservation_cost_report/totals", "POST"],
        ["POST", "/cdn/clients/me/features", "GET, HEAD"],
        ["OPTIONS", "/cdn/clients/me/features", "GET, HEAD"],
        ["DELETE", "/cdn/clients/me", "GET, HEAD, PUT, PATCH"],
        ["PUT", "/edge/v1/secrets", "GET, HEAD, POST"],
        ["PATCH", "/cdn/resources/1/shielding_v2", "GET, HEAD, PUT"],
      ];
      for (const [method, path, allow] of cases) {
        const reply = await api.call(method, path);
        expectEnvelope(reply, 405, "method_not_allowed", undefined, `${method} ${path}`);
        expect(reply.headers.get("allow"), `${method} ${path}`).toBe(allow);
        expect(reply.body.message).toContain(allow);
      }
    });

    it("answers HEAD of a path without GET 405 without a body", async () => {
      const reply = await head("/cloud/v1/reservation_cost_report/totals");
      expect(reply.status).toBe(405);
      expect(reply.headers.get("allow")).toBe("POST");
      expect(reply.text).toBe("");
    });

    it("changes nothing when it answers 405", async () => {
      const before = await api.call("GET", "/cdn/clients/me/features");
      expectEnvelope(await api.call("POST", "/cdn/clients/me/features", { body: { utilization_level: 9 } }), 405, "method_not_allowed");
      expectEnvelope(await api.call("DELETE", "/cdn/clients/me", { body: { utilization_level: 9 } }), 405, "method_not_allowed");
      expect((await api.call("GET", "/cdn/clients/me/features")).body).toEqual(before.body);
    });

    it("answers paths the API does not have 404, with any method", async () => {
      for (const [method, path] of [
        ["GET", "/cdn/nothing-here"],
        ["DELETE", "/cdn/nothing-here"],
        ["OPTIONS", "/cdn/resources/1/nothing"],
        ["GET", "/"],
      ] as const) {
        const reply = await api.call(method, path);
        expectEnvelope(reply, 404, "not_found", undefined, `${method} ${path}`);
        expect(reply.headers.has("allow")).toBe(false);
      }
      const headReply = await head("/edge/v1");
      expect(headReply.status).toBe(404);
      expect(headReply.text).toBe("");
      expect(headReply.headers.has("allow")).toBe(false);
    });

    it("knows the paths under a base path", async () => {
      const handler = api.createHandler({ basePath: "/api" });
      const inside = await api.call("DELETE", "/api/cdn/resources/1/shielding_v2", { handler });
      expectEnvelope(inside, 405, "method_not_allowed");
      expect(inside.headers.get("allow")).toBe("GET, HEAD, PUT");
      expectEnvelope(await api.call("DELETE", "/cdn/resources/1/shielding_v2", { handler }), 404, "not_found");
      expect((await head("/api/cdn/clients/me/features", { handler })).status).toBe(200);
      const outside = await head("/cdn/clients/me/features", { handler });
      expect(outside.status).toBe(404);
      expect(outside.text).toBe("");
    });
  });

  describe("on AWS Lambda", () => {
    let lambda: ReturnType<typeof lambdaHandler>;
    const call = async (event: ApiGatewayV2Event) => {
      const result = (await lambda(event)) as ApiGatewayV2Result;
      api.recordReply({ method: event.requestContext.http.method, path: event.rawPath, status: result.statusCode, headers: result.headers, body: result.body });
      return result;
    };
    beforeAll(() => {
      lambda = lambdaHandler(api.createHandler());
    });

    it("answers HEAD with the GET's status and headers and no body", async () => {
      const get = await call(v2Event("GET", "/cdn/clients/me/features"));
      const head = await call(v2Event("HEAD", "/cdn/clients/me/features"));
      expect(head.statusCode).toBe(200);
      expect(head.body).toBe("");
      expect(head.headers["content-type"]).toBe(get.headers["content-type"]);
      expect(head.headers["content-length"]).toBe(String(Buffer.byteLength(get.body)));
    });

    it("answers 405 with Allow, and 404 for a path it does not have", async () => {
      const result = await call(v2Event("DELETE", "/cdn/resources/1/shielding_v2", { "x-request-id": "lambda-405" }));
      expect(result.statusCode).toBe(405);
      expect(result.headers.allow).toBe("GET, HEAD, PUT");
      expect(JSON.parse(result.body)).toMatchObject({ code: "method_not_allowed", request_id: "lambda-405" });
      expect((await call(v2Event("DELETE", "/cdn/nothing-here"))).statusCode).toBe(404);
    });
  });

  describe("on Node", () => {
    let server: Server;
    let port: number;
    beforeAll(async () => {
      server = await serve(api.handler, { port: 0, hostname: "127.0.0.1" });
      port = (server.address() as AddressInfo).port;
    });
    afterAll(async () => {
      await new Promise((resolve) => server.close(resolve));
    });

    it("answers HEAD with the GET's headers and not one byte of body", async () => {
      const request = (method: string) =>
        `${method} /cdn/clients/me/features HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: ${authorization([1, "role-1-active"])}`;
      const get = await rawExchange(port, request("GET"));
      const head = await rawExchange(port, request("HEAD"));
      const [getHead = "", getBody = ""] = get.split("\r\n\r\n");
      const [headHead = "", ...rest] = head.split("\r\n\r\n");
      expect(headHead).toMatch(/^HTTP\/1\.1 200 /);
      expect(rest.join("\r\n\r\n")).toBe("");
      const lengthOf = (text: string) => /\r\ncontent-length: (\d+)/i.exec(text)?.[1];
      expect(lengthOf(getHead)).toBe(String(Buffer.byteLength(getBody, "latin1")));
      expect(lengthOf(headHead)).toBe(lengthOf(getHead));
    });

    it("answers 405 with Allow over HTTP", async () => {
      const reply = await replyOf(await fetch(`http://127.0.0.1:${port}/cdn/resources/1/shielding_v2`, { method: "DELETE", headers: { authorization: authorization([1, "role-1-active"]) } }));
      expectEnvelope(reply, 405, "method_not_allowed");
      expect(reply.headers.get("allow")).toBe("GET, HEAD, PUT");
    });
  });
});
