/**
 * AWS Lambda adapter: serves API Gateway REST API (v1) and HTTP API (v2) events, answering with the
 * result each expects. A handler made by `createHandler` is served straight from the event; any other
 * fetch handler gets a `Request` and its `Response` is copied out.
 */
import { MAX_BODY_BYTES, SERVE_API, tooLarge, type ApiHandler, type ApiInput, type Handler } from "../../handler.js";

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

/** What an event says of the request, whichever payload format it came in. */
interface EventRequest {
  method: string;
  url: URL;
  /** Lower-case names; repeated headers joined with ", " as fetch `Headers` joins them. */
  headers: Record<string, string>;
  body: string | undefined;
  isBase64Encoded: boolean;
}

function addHeader(headers: Record<string, string>, name: string, value: string): void {
  const key = name.toLowerCase();
  headers[key] = headers[key] === undefined ? value : `${headers[key]}, ${value}`;
}

function readEvent(event: ApiGatewayEvent): EventRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(event.headers ?? {})) if (value !== undefined) headers[name.toLowerCase()] = value;
  const host = (domain: string | undefined) => headers.host ?? domain ?? "lambda.local";
  if (isV2(event)) {
    if (event.cookies?.length) headers.cookie = event.cookies.join("; ");
    const url = new URL(`https://${host(event.requestContext.domainName)}${event.rawPath}`);
    url.search = event.rawQueryString ?? "";
    return { method: event.requestContext.http.method, url, headers, body: event.body || undefined, isBase64Encoded: Boolean(event.isBase64Encoded) };
  }
  for (const [name, values] of Object.entries(event.multiValueHeaders ?? {})) {
    if (!values) continue;
    delete headers[name.toLowerCase()];
    for (const value of values) addHeader(headers, name, value);
  }
  const url = new URL(`https://${host(event.requestContext?.domainName)}${event.path}`);
  const multi = event.multiValueQueryStringParameters;
  if (multi) {
    for (const [name, values] of Object.entries(multi)) for (const value of values ?? []) url.searchParams.append(name, value);
  } else {
    for (const [name, value] of Object.entries(event.queryStringParameters ?? {})) if (value !== undefined) url.searchParams.append(name, value);
  }
  return { method: event.httpMethod, url, headers, body: event.body || undefined, isBase64Encoded: Boolean(event.isBase64Encoded) };
}

function bodyBytes(request: EventRequest): Uint8Array<ArrayBuffer> | undefined {
  if (request.body === undefined) return undefined;
  return request.isBase64Encoded ? Uint8Array.from(atob(request.body), (char) => char.charCodeAt(0)) : new TextEncoder().encode(request.body);
}

/** The fetch `Request` an API Gateway event stands for. */
export function toRequest(event: ApiGatewayEvent): Request {
  const request = readEvent(event);
  const hasBody = request.method !== "GET" && request.method !== "HEAD";
  return new Request(request.url, { method: request.method, headers: request.headers, body: hasBody ? bodyBytes(request) : undefined });
}

/** The event as the pipeline of a handler made by `createHandler` reads it (no fetch `Request` is made). */
function apiInput(event: ApiGatewayEvent): ApiInput {
  const request = readEvent(event);
  return {
    method: request.method,
    url: request.url,
    header: (name) => request.headers[name] ?? null,
    readBody() {
      if (request.body === undefined) return Promise.resolve("");
      if (!request.isBase64Encoded && request.body.length <= MAX_BODY_BYTES / 3) return Promise.resolve(request.body);
      const bytes = bodyBytes(request)!;
      return bytes.byteLength > MAX_BODY_BYTES ? Promise.reject(tooLarge()) : Promise.resolve(new TextDecoder().decode(bytes));
    },
  };
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
  const serveApi = (handler as Partial<ApiHandler>)[SERVE_API];
  return async (event: ApiGatewayEvent): Promise<ApiGatewayV1Result | ApiGatewayV2Result> => {
    if (serveApi) {
      // The pipeline's answers are always text (JSON, or CSV), and never set cookies.
      const { status, headers, body } = await serveApi(apiInput(event));
      return { statusCode: status, headers, body, isBase64Encoded: false };
    }
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
