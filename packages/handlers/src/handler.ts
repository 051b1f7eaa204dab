/**
 * `createHandler`: the whole API as one fetch handler `(Request) => Promise<Response>`, built once:
 * @ts-rest/serverless's fetch handler over the routes (router.ts) with the pipeline's middleware
 * (pipeline.ts), behind what has to happen before ts-rest reads the request: the body limit and its
 * type, the base path, the request id, and the deadline.
 */
import { JSON_BODY, RAW_BODY } from "@cloudplane/contract";
import { TsRestResponse } from "@ts-rest/serverless";
import { createFetchHandler } from "@ts-rest/serverless/fetch";
import { ApiError } from "./errors.js";
import {
  createPipeline,
  MAX_BODY_BYTES,
  noRoute,
  refuseDeclaredTooLarge,
  refuseOtherBodyType,
  requestIdFrom,
  storableJson,
  tooLarge,
  underBasePath,
  withDeadline,
  type PlatformContext,
  type RequestProgress,
} from "./pipeline.js";
import type { BodyTypeOf } from "./body-types.js";
import { createRouter, servedContract } from "./router.js";
import type { Handler, HandlerOptions } from "./types.js";

/** Reads a body of unknown length up to `MAX_BODY_BYTES`; a larger one is refused without reading it whole. */
async function readLimited(body: ReadableStream<Uint8Array>): Promise<Uint8Array<ArrayBuffer>> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** Does the request come with a body? (Asked of the headers first: a Node request makes its body stream only when asked.) */
function hasBody(request: Request): boolean {
  if (request.method === "GET" || request.method === "HEAD") return false;
  return request.headers.has("content-length") || request.headers.has("transfer-encoding") || request.body !== null;
}

/**
 * The request ts-rest is given, with its body read: within the limit and only if it has the type the
 * route takes (`bodyTypeOf`): JSON, passed on as its text, or for a route that takes raw bytes those
 * bytes, passed on as they came (never decoded as text). A body with a Content-Length is as long as it
 * says (every runtime holds it to that), so it is read at once; one without is read chunk by chunk and
 * refused past the limit. `progress` says while it is being received. (ts-rest copies the request it is
 * given in any case; Node's bridge hands over a light request that cannot be copied by ts-rest's own
 * Request class, so this copy is made here, with the bridge's class. A runtime's own request is copied
 * here too, even one without a body: it is cheaper. In a CPU profile in workerd, ts-rest's copy of the
 * request the runtime made took 64 µs a request; this copy took 17 µs, and ts-rest's copy of it 9 µs.)
 */
async function servable(request: Request, url: URL, progress: RequestProgress, bodyTypeOf: BodyTypeOf): Promise<Request> {
  let headers = request.headers;
  let body: string | Uint8Array<ArrayBuffer> | undefined;
  if (hasBody(request)) {
    refuseDeclaredTooLarge(headers);
    progress.bodyRead = false;
    let bytes: Uint8Array<ArrayBuffer>;
    try {
      bytes = headers.has("content-length") ? new Uint8Array(await request.arrayBuffer()) : await readLimited(request.body!);
    } catch (error) {
      if (error instanceof ApiError) throw error;
      throw new ApiError("bad_request", "The request's body could not be read to its end: the client stopped sending it.");
    }
    progress.bodyRead = true;
    const bodyType = bytes.byteLength > 0 ? await bodyTypeOf(request.method, url.href) : undefined;
    progress.bodyType = bodyType;
    if (bodyType === RAW_BODY) {
      refuseOtherBodyType(headers, RAW_BODY);
      body = bytes;
    } else {
      const text = new TextDecoder().decode(bytes);
      progress.bodyStorable = storableJson(text);
      // A body that decodes to no text (none, or a byte order mark alone) is no body.
      if (text.length > 0) {
        refuseOtherBodyType(headers, JSON_BODY);
        body = text;
      } else {
        headers = new Headers(headers);
        headers.delete("content-type");
        headers.delete("content-length");
      }
    }
  }
  try {
    return new Request(url, { method: request.method, headers, body });
  } catch {
    // fetch refuses some methods (CONNECT, TRACE, TRACK) outright.
    throw new ApiError("bad_request", `The method ${request.method} cannot be served.`);
  }
}

/**
 * ts-rest builds its answers on the `Response` class there was when it was loaded. Where the runtime has
 * put another in its place since (Node's bridge, @hono/node-server, puts its own light class there, whose
 * text bodies it writes straight to the socket instead of streaming them through a web stream), the
 * answer is given in the runtime's class; elsewhere it is passed on as it is.
 */
function inRuntimeResponse(response: Response): Response {
  // Asked on each answer: the bridge puts its class in place when it starts serving, after this module loaded.
  if (!(response instanceof TsRestResponse) || Object.getPrototypeOf(TsRestResponse) === Response) return response;
  const body: unknown = response.rawBody;
  if (body !== null && typeof body !== "string") return response;
  return new Response(body, { status: response.status, headers: response.headers });
}

export function createHandler(options: HandlerOptions): Handler {
  const pipeline = createPipeline(options);
  const serve = createFetchHandler(servedContract, createRouter({ ...options, memory: pipeline.memory }), pipeline.serverless);
  return async (request) => {
    const started = performance.now();
    const requestId = requestIdFrom(request.headers.get("x-request-id"));
    const url = new URL(request.url);
    try {
      if (!underBasePath(pipeline.basePath, url.pathname)) throw noRoute(request.method, url.pathname);
      const progress: RequestProgress = {};
      const context: PlatformContext = { started, requestId, progress, url };
      // ts-rest types its fetch handler's answer as any; it is the Response its router made.
      const answer = servable(request, url, progress, pipeline.bodyTypeOf).then((servedRequest) => serve(servedRequest, context) as Promise<Response>);
      return inRuntimeResponse(await withDeadline(answer, pipeline.timeoutMs, progress));
    } catch (error) {
      return pipeline.answerError(error, { method: request.method, pathname: url.pathname, requestId, started, origin: request.headers.get("origin") });
    }
  };
}
