/**
 * AWS Lambda adapter: serves API Gateway REST API (v1) and HTTP API (v2) events through
 * @ts-rest/serverless's Lambda handler, on the same routes and pipeline as the fetch handler.
 * The options (and so the database) are made on the first event, or before it by `warm()`, and reused by later ones. A body API
 * Gateway sent base64-encoded (`isBase64Encoded`, as it sends binary media types) reaches the routes as
 * its bytes: ts-rest's Lambda handler decodes it, and a route that takes raw bytes (an edge binary's
 * upload) reads them as they are; a JSON body is read as text as before.
 */
import { createLambdaHandler } from "@ts-rest/serverless/aws";
import { ApiError, errorResponse, newRequestId } from "../../errors.js";
import { handlerOptionsFromEnv, type Env, type FromEnvOptions } from "../../from-env.js";
import { lazily, logSetupError } from "../../lazy.js";
import { createPipeline, requestIdFrom } from "../../pipeline.js";
import { createRouter, servedContract } from "../../router.js";
import type { HandlerOptions } from "../../types.js";

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
   * Makes the setup now (the database opened, its migrations checked, the routes built) instead of on the
   * first event: call it from the module's top level, which Lambda runs in the function's init phase. It
   * never rejects: a failed setup is logged, and the first event tries again.
   */
  warm(): Promise<void>;
}

/** The Lambda result of a fetch `Response` the pipeline made (always text: JSON). */
async function resultOf(response: Response): Promise<ApiGatewayV2Result> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  return { statusCode: response.status, headers, body: await response.text(), isBase64Encoded: false };
}

/**
 * A Lambda handler for API Gateway v1 and v2 events, on the handler options `create` makes on the
 * first event (a failed setup answers 503 or 500 in the envelope and is tried again on the next).
 * Lambda's own timeout bounds a request here; `timeoutMs` is the fetch handler's.
 */
export function lambdaHandler(create: () => Promise<HandlerOptions>, onError: (error: unknown) => void = logSetupError): LambdaHandler {
  const ready = lazily(async () => {
    const options = await create();
    const pipeline = createPipeline(options);
    return { pipeline, serve: createLambdaHandler(servedContract, createRouter({ ...options, memory: pipeline.memory }), pipeline.serverless) };
  }, onError);
  const serve = async (event: ApiGatewayEvent, context?: unknown) => {
    const started = performance.now();
    const app = await ready();
    if (app instanceof ApiError) return resultOf(errorResponse(app, newRequestId()));
    try {
      return (await app.serve(event, context)) as ApiGatewayV1Result | ApiGatewayV2Result;
    } catch {
      // ts-rest could not make the event into a request (a path such as `//`, a header value fetch refuses).
      const v2 = "rawPath" in event;
      const request = {
        method: v2 ? event.requestContext.http.method : event.httpMethod,
        pathname: v2 ? event.rawPath : event.path,
        requestId: requestIdFrom(event.headers?.["x-request-id"] ?? null),
        started,
        origin: event.headers?.origin ?? event.headers?.Origin,
      };
      return resultOf(app.pipeline.answerError(new ApiError("bad_request", "The request cannot be read: its URL or headers are not valid HTTP."), request));
    }
  };
  const warm = async () => {
    // Node loads its fetch classes (undici) on their first use, some 20 ms, which the first event would pay.
    void new Response(new Request("http://localhost/").body);
    await ready();
  };
  return Object.assign(serve, { warm });
}

/** `lambdaHandler` on the environment's settings (`handlerOptionsFromEnv`; Lambda's process environment by default). */
export function lambdaHandlerFromEnv(env: Env = process.env, options: FromEnvOptions = {}): LambdaHandler {
  return lambdaHandler(() => handlerOptionsFromEnv(env, options));
}
