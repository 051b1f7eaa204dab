/**
 * A stand-in for API Gateway (HTTP API, payload format 2.0) in tests: an HTTP server on loopback that
 * turns each request into the event API Gateway would send, invokes the Lambda handler with it, and
 * turns the result back into the HTTP response.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A Lambda handler for HTTP API events, as the bundle exports it. */
export type LambdaHandler = (event: ApiGatewayV2Event) => Promise<ApiGatewayV2Result>;

export interface ApiGatewayV2Event {
  version: "2.0";
  routeKey: string;
  rawPath: string;
  rawQueryString: string;
  cookies?: string[];
  headers: Record<string, string>;
  requestContext: {
    accountId: string;
    apiId: string;
    domainName: string;
    domainPrefix: string;
    http: { method: string; path: string; protocol: string; sourceIp: string; userAgent: string };
    requestId: string;
    routeKey: string;
    stage: string;
    time: string;
    timeEpoch: number;
  };
  body?: string;
  isBase64Encoded: boolean;
}

export interface ApiGatewayV2Result {
  statusCode: number;
  headers?: Record<string, string>;
  cookies?: string[];
  body?: string;
  isBase64Encoded?: boolean;
}

/** Bodies API Gateway passes as text; others arrive base64-encoded. */
const TEXT_TYPE = /^(text\/|application\/(?:[\w.+-]*\+)?(?:json|xml|x-www-form-urlencoded)|application\/javascript)/i;

async function readBody(message: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of message) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function toEvent(message: IncomingMessage): Promise<ApiGatewayV2Event> {
  // The request target as sent, split at its query (API Gateway passes a path such as `//` on as it is).
  const [rawPath = "/", rawQueryString = ""] = (message.url ?? "/").split(/\?(.*)/s);
  const headers: Record<string, string> = {};
  let cookies: string[] | undefined;
  for (const [name, value] of Object.entries(message.headers)) {
    if (value === undefined) continue;
    // HTTP API joins repeated headers with commas and moves cookies to their own field.
    if (name === "cookie") cookies = (Array.isArray(value) ? value : [value]).flatMap((cookie) => cookie.split(/;\s*/));
    else headers[name] = Array.isArray(value) ? value.join(",") : value;
  }
  const body = await readBody(message);
  const text = TEXT_TYPE.test(headers["content-type"] ?? "");
  const now = new Date();
  return {
    version: "2.0",
    routeKey: "$default",
    rawPath,
    rawQueryString,
    ...(cookies ? { cookies } : {}),
    headers,
    requestContext: {
      accountId: "123456789012",
      apiId: "bridge",
      domainName: headers.host ?? "bridge.local",
      domainPrefix: "bridge",
      http: { method: message.method ?? "GET", path: rawPath, protocol: "HTTP/1.1", sourceIp: "127.0.0.1", userAgent: headers["user-agent"] ?? "" },
      requestId: crypto.randomUUID(),
      routeKey: "$default",
      stage: "$default",
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    ...(body.length > 0 ? { body: text ? body.toString("utf8") : body.toString("base64") } : {}),
    isBase64Encoded: body.length > 0 && !text,
  };
}

export interface Bridge {
  url: string;
  /** Every event the handler was invoked with, in order. */
  events: ApiGatewayV2Event[];
  close(): Promise<void>;
}

export async function startBridge(handler: LambdaHandler): Promise<Bridge> {
  const events: ApiGatewayV2Event[] = [];
  const server: Server = createServer((message, reply) => {
    void (async () => {
      try {
        const event = await toEvent(message);
        events.push(event);
        const result = await handler(event);
        const headers: Record<string, string | string[]> = { ...result.headers };
        if (result.cookies?.length) headers["set-cookie"] = result.cookies;
        reply.writeHead(result.statusCode, headers);
        reply.end(result.body === undefined ? undefined : Buffer.from(result.body, result.isBase64Encoded ? "base64" : "utf8"));
      } catch (error) {
        // API Gateway answers 500 when the function fails instead of returning a result.
        reply.writeHead(500, { "content-type": "application/json" });
        reply.end(JSON.stringify({ message: "Internal Server Error", bridgeError: String(error) }));
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    events,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
