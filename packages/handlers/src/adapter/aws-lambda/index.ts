/**
 * AWS Lambda adapter: turns API Gateway REST API (v1) and HTTP API (v2) events into a fetch
 * `Request` for the handler, and its `Response` back into the event result each expects.
 */
import type { Handler } from "../../handler.js";

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

function isV2(event: ApiGatewayEvent): event is ApiGatewayV2Event {
  return (event as ApiGatewayV2Event).version === "2.0";
}

function decodeBody(body: string | null | undefined, base64: boolean | undefined): BodyInit | undefined {
  if (body === null || body === undefined || body === "") return undefined;
  if (!base64) return body;
  return Uint8Array.from(atob(body), (char) => char.charCodeAt(0));
}

/** The fetch `Request` an API Gateway event stands for. */
export function toRequest(event: ApiGatewayEvent): Request {
  const headers = new Headers();
  let method: string;
  let url: URL;
  let body: BodyInit | undefined;
  if (isV2(event)) {
    for (const [name, value] of Object.entries(event.headers ?? {})) if (value !== undefined) headers.set(name, value);
    if (event.cookies?.length) headers.set("cookie", event.cookies.join("; "));
    method = event.requestContext.http.method;
    url = new URL(`https://${headers.get("host") ?? event.requestContext.domainName ?? "lambda.local"}${event.rawPath}`);
    url.search = event.rawQueryString ?? "";
    body = decodeBody(event.body, event.isBase64Encoded);
  } else {
    for (const [name, value] of Object.entries(event.headers ?? {})) if (value !== undefined) headers.set(name, value);
    for (const [name, values] of Object.entries(event.multiValueHeaders ?? {})) {
      if (!values) continue;
      headers.delete(name);
      for (const value of values) headers.append(name, value);
    }
    method = event.httpMethod;
    url = new URL(`https://${headers.get("host") ?? event.requestContext?.domainName ?? "lambda.local"}${event.path}`);
    const multi = event.multiValueQueryStringParameters;
    if (multi) {
      for (const [name, values] of Object.entries(multi)) for (const value of values ?? []) url.searchParams.append(name, value);
    } else {
      for (const [name, value] of Object.entries(event.queryStringParameters ?? {})) if (value !== undefined) url.searchParams.append(name, value);
    }
    body = decodeBody(event.body, event.isBase64Encoded);
  }
  return new Request(url, { method, headers, body: method === "GET" || method === "HEAD" ? undefined : body });
}

const TEXT_TYPE = /^(text\/|application\/(?:[\w.+-]*\+)?(?:json|xml)|application\/javascript)/i;

async function responseBody(response: Response): Promise<{ body: string; isBase64Encoded: boolean }> {
  const type = response.headers.get("content-type") ?? "";
  if (!response.body) return { body: "", isBase64Encoded: false };
  if (TEXT_TYPE.test(type)) return { body: await response.text(), isBase64Encoded: false };
  const bytes = new Uint8Array(await response.arrayBuffer());
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return { body: btoa(binary), isBase64Encoded: true };
}

/**
 * Turns a fetch handler into a Lambda handler for API Gateway v1 and v2 events. Build the handler
 * with `lazyHandler` so the database is opened on the first event and reused by later ones.
 */
export function handle(handler: Handler) {
  return async (event: ApiGatewayEvent): Promise<ApiGatewayV1Result | ApiGatewayV2Result> => {
    const response = await handler(toRequest(event));
    const { body, isBase64Encoded } = await responseBody(response);
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (name !== "set-cookie") headers[name] = value;
    });
    const cookies = response.headers.getSetCookie();
    if (isV2(event)) return { statusCode: response.status, headers, body, isBase64Encoded, ...(cookies.length ? { cookies } : {}) };
    return {
      statusCode: response.status,
      headers,
      ...(cookies.length ? { multiValueHeaders: { "set-cookie": cookies } } : {}),
      body,
      isBase64Encoded,
    };
  };
}
