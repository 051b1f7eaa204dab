/**
 * Node adapter: serves a fetch handler on `node:http` through @hono/node-server's request listener,
 * which turns each IncomingMessage into a fetch `Request` and writes the `Response` back. A request
 * Node accepts but fetch cannot express (an empty, doubled or malformed Host, a URL that is not a path)
 * answers 400 in the error envelope; nothing a client sends ends the process.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { getRequestListener, RequestError } from "@hono/node-server";
import { ApiError, errorReport, errorResponse, logErrorReport, newRequestId } from "../../errors.js";
import type { Handler } from "../../types.js";

/** The envelope for a request the bridge could not turn into a `Request`, or a handler that threw. */
function bridgeError(error: unknown): Response {
  if (error instanceof RequestError)
    return errorResponse(new ApiError("bad_request", `The request cannot be read: ${error.message}.`), newRequestId());
  const requestId = newRequestId();
  logErrorReport("unexpected error", errorReport(error), { request_id: requestId });
  return errorResponse(new ApiError("internal", "Something went wrong on our side. The request id identifies it in our logs."), requestId);
}

/** The most of a body left unread (refused with 413, say) that is read and dropped to keep its connection. */
const DRAIN_LIMIT_BYTES = 16 * 1024 * 1024;

/**
 * Once the answer is sent, reads and drops what the handler left of the request body, so that a client
 * still sending it gets the answer and may send its next request on the same connection. (The bridge's
 * own clean-up gives up after half a second and closes the connection under the client's next request.)
 * Past the limit the connection is closed instead.
 */
function drainAfterAnswer(message: IncomingMessage, reply: ServerResponse): void {
  reply.once("finish", () => {
    if (message.complete || message.destroyed) return;
    let drained = 0;
    message.removeAllListeners("data");
    message.on("data", (chunk: Buffer) => {
      drained += chunk.byteLength;
      if (drained > DRAIN_LIMIT_BYTES) message.socket.destroy();
    });
    message.resume();
  });
}

/** A `node:http` request listener that serves `handler`. */
export function requestListener(handler: Handler): (message: IncomingMessage, reply: ServerResponse) => void {
  // The bridge hands over light requests that read the IncomingMessage only when asked; it makes the
  // global Request and Response its own subclasses (as it does for Hono), so a handler that wraps
  // another can still copy a request with `new Request(request, init)`.
  const listener = getRequestListener(handler, { errorHandler: bridgeError, autoCleanupIncoming: false });
  // The listener answers every failure itself (bridgeError); its promise only says when it is done.
  return (message, reply) => {
    drainAfterAnswer(message, reply);
    void listener(message, reply);
  };
}

export interface ServeOptions {
  port?: number;
  hostname?: string;
}

/** Starts a `node:http` server for `handler`; resolves once it listens. */
export function serve(handler: Handler, options: ServeOptions = {}): Promise<Server> {
  const server = createServer(requestListener(handler));
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 8787, options.hostname ?? "127.0.0.1", () => {
      server.off("error", reject);
      resolve(server);
    });
  });
}
