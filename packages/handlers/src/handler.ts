/**
 * `createHandler`: the whole API as one fetch handler `(Request) => Promise<Response>`, built once:
 * @ts-rest/serverless's fetch handler over the routes (router.ts) with the pipeline's middleware
 * (pipeline.ts), behind what has to happen before ts-rest reads the request: the body limit and its
 * type, the base path, the request id, and the deadline.
 */
import { contract } from "@cloudplane/contract";
import { createFetchHandler } from "@ts-rest/serverless/fetch";
import { ApiError } from "./errors.js";
import {
  createPipeline,
  MAX_BODY_BYTES,
  noRoute,
  refuseDeclaredTooLarge,
  refuseNonJsonBody,
  requestIdFrom,
  tooLarge,
  underBasePath,
  withDeadline,
  type PlatformContext,
} from "./pipeline.js";
import { createRouter } from "./router.js";
import type { Handler, HandlerOptions } from "./types.js";

/** Reads a body of unknown length up to `MAX_BODY_BYTES`; a larger one is refused without reading it whole. */
async function readLimited(body: ReadableStream<Uint8Array>): Promise<string> {
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
  return new TextDecoder().decode(bytes);
}

/**
 * The request ts-rest is given: the request id in its headers, and its body read (within the limit,
 * and only if it is JSON). A body with a Content-Length is as long as it says (every runtime holds it
 * to that), so it is read at once; one without is read chunk by chunk and refused past the limit.
 */
async function forwarded(request: Request, url: URL, requestId: string): Promise<Request> {
  const headers = new Headers(request.headers);
  headers.set("x-request-id", requestId);
  let body: string | undefined;
  if (request.method !== "GET" && request.method !== "HEAD" && request.body) {
    refuseDeclaredTooLarge(headers);
    body = headers.has("content-length") ? await request.text() : await readLimited(request.body);
    if (body.length > 0) refuseNonJsonBody(headers);
    else {
      body = undefined;
      headers.delete("content-type");
      headers.delete("content-length");
    }
  }
  try {
    return new Request(url, { method: request.method, headers, body });
  } catch {
    // fetch refuses some methods (CONNECT, TRACE, TRACK) outright.
    throw new ApiError("bad_request", `The method ${request.method} cannot be served.`);
  }
}

export function createHandler(options: HandlerOptions): Handler {
  const pipeline = createPipeline(options);
  const serve = createFetchHandler(contract, createRouter(options), pipeline.serverless);
  return async (request) => {
    const started = performance.now();
    const requestId = requestIdFrom(request.headers.get("x-request-id"));
    const url = new URL(request.url);
    try {
      if (!underBasePath(pipeline.basePath, url.pathname)) throw noRoute(request.method, url.pathname);
      const context: PlatformContext = { started };
      // ts-rest types its fetch handler's answer as any; it is the Response its router made.
      return await withDeadline(serve(await forwarded(request, url, requestId), context) as Promise<Response>, pipeline.timeoutMs);
    } catch (error) {
      return pipeline.answerError(error, { method: request.method, pathname: url.pathname, requestId, started });
    }
  };
}
