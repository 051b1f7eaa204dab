/**
 * AWS Lambda adapter: an API Gateway event becomes a fetch `Request`, the one fetch handler every runtime
 * serves answers it, and its `Response` becomes the event's result (ts-rest's own conversions, from
 * `@ts-rest/serverless/aws`). REST API (v1) and HTTP API (v2) events; a body API Gateway sent
 * base64-encoded (`isBase64Encoded`, as it sends binary media types) reaches the handler as its bytes.
 */
import { requestFromEvent, responseToResult } from "@ts-rest/serverless/aws";
import { ApiError, errorResponse } from "../../errors.js";
import { createHandlerFromEnv, type Env, type FromEnvOptions } from "../../from-env.js";
import { lazyHandler } from "../../lazy.js";
import { requestIdFrom } from "../../front.js";
import type { ClientErrorEntry, Handler } from "../../types.js";

/** API Gateway REST API (payload format 1.0) proxy event, the fields this adapter reads. */
export interface ApiGatewayV1Event {
  httpMethod: string;
  path: string;
  headers?: Record<string, string | undefined> | null;
  multiValueHeaders?: Record<string, string[] | undefined> | null;
  queryStringParameters?: Record<string, string | undefined> | null;
  multiValueQueryStringParameters?: Record<string, string[] | undefined> | null;
  body?: string | null;
  isBase64Encoded?: boolean;
  requestContext?: { domainName?: string; stage?: string; path?: string };
}

/** API Gateway HTTP API (payload format 2.0) event, the fields this adapter reads. */
export interface ApiGatewayV2Event {
  version: "2.0";
  rawPath: string;
  rawQueryString?: string;
  headers?: Record<string, string | undefined>;
  cookies?: string[];
  body?: string;
  isBase64Encoded?: boolean;
  requestContext: { domainName?: string; http: { method: string } };
}

export type ApiGatewayEvent = ApiGatewayV1Event | ApiGatewayV2Event;

export interface ApiGatewayV1Result {
  statusCode: number;
  headers: Record<string, string>;
  multiValueHeaders?: Record<string, string[]>;
  body: string;
  isBase64Encoded: boolean;
}

export interface ApiGatewayV2Result {
  statusCode: number;
  headers: Record<string, string>;
  cookies?: string[];
  body: string;
  isBase64Encoded: boolean;
}

export interface LambdaHandler {
  (event: ApiGatewayEvent, context?: unknown): Promise<ApiGatewayV1Result | ApiGatewayV2Result>;
  /**
   * Makes the handler's setup now (the database opened, its migrations checked, the routes built) instead
   * of on the first event: call it from the module's top level, which Lambda runs in the function's init
   * phase. It never rejects: a failed setup is logged, and the first event tries again.
   */
  warm(): Promise<void>;
}

/** The request id an event's client sent, if it is one the handler would echo, else a new one (header names in any case, as REST API events keep them). */
function requestIdOf(event: ApiGatewayEvent): string {
  const sent = Object.entries(event.headers ?? {}).find(([name]) => name.toLowerCase() === "x-request-id")?.[1];
  return requestIdFrom(sent ?? null);
}

export type { ClientErrorEntry };

export interface LambdaOptions {
  /** Called for each event answered without reaching the handler (one no HTTP request can be made of: 400). */
  onClientError?: (entry: ClientErrorEntry) => void;
}

/**
 * A Lambda handler that serves API Gateway v1 and v2 events with `handler`, the fetch handler every
 * runtime serves (`createHandler`, or `lazyHandler` for one set up on its first event; `warm` is its
 * `warm` when it has one). Its deadline (`timeoutMs`) holds here as everywhere; Lambda's own timeout
 * should be longer.
 */
export function lambdaHandler(handler: Handler & { warm?: () => Promise<void> }, options: LambdaOptions = {}): LambdaHandler {
  const serve = async (event: ApiGatewayEvent) => {
    let request: Request;
    try {
      request = requestFromEvent(event as Parameters<typeof requestFromEvent>[0]);
    } catch {
      // No HTTP request can be made of the event (a path such as `//`, a header value fetch refuses).
      const refused = new ApiError("bad_request", "The request cannot be read: its URL or headers are not valid HTTP.");
      const requestId = requestIdOf(event);
      options.onClientError?.({ request_id: requestId, status: refused.status, code: refused.code, message: refused.message });
      return responseToResult(event as Parameters<typeof responseToResult>[0], errorResponse(refused, requestId)) as Promise<ApiGatewayV2Result>;
    }
    const response = await handler(request);
    return responseToResult(event as Parameters<typeof responseToResult>[0], response) as Promise<ApiGatewayV1Result | ApiGatewayV2Result>;
  };
  const warm = async () => {
    // Node loads its fetch classes (undici) on their first use, some 20 ms, which the first event would pay.
    void new Response(new Request("http://localhost/").body);
    await handler.warm?.();
  };
  return Object.assign(serve, { warm });
}

/**
 * `lambdaHandler` on the environment's settings (`createHandlerFromEnv`; Lambda's process environment by
 * default), set up on its first event or by `warm()`. Each request is logged as a JSON line, and so is
 * each event refused before the handler (`"msg": "client error"`).
 */
export function lambdaHandlerFromEnv(env: Env = process.env, options: FromEnvOptions = {}): LambdaHandler {
  return lambdaHandler(lazyHandler(() => createHandlerFromEnv(env, options)), {
    onClientError: (entry) => console.log(JSON.stringify({ level: "info", msg: "client error", ...entry })),
  });
}
