/**
 * Node adapter: serves a fetch handler on `node:http` through @hono/node-server's request listener,
 * which turns each IncomingMessage into a fetch `Request` and writes the `Response` back. A request
 * Node accepts but fetch cannot express (an empty, doubled or malformed Host, a URL that is not a path)
 * answers 400 in the error envelope; nothing a client sends ends the process.
 *
 * `serve` adds what Node's HTTP layer does on its own (connections.ts): a request it cannot parse, one
 * over the header size limit and one too slow to arrive answer in the envelope too (400, 431, 408), and
 * `shutdown` drains keep-alive connections.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { getRequestListener, RequestError } from "@hono/node-server";
import { ApiError, errorReport, errorResponse, logErrorReport, newRequestId } from "../../errors.js";
import { giveRequestId } from "../../front.js";
import type { ClientErrorEntry, Handler } from "../../types.js";
import { ServerConnections } from "./connections.js";
import { refusals } from "./refusals.js";

export type { ClientErrorEntry };

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

/**
 * May the handler wait for the request's body (which may stop coming)? It reads one for every method
 * but GET and HEAD. (The headers cannot tell: past Node's limit on their number, the rest are dropped,
 * a Content-Length among them, while Node's parser still waits for the body it announced.)
 */
function mayHaveBody(message: IncomingMessage): boolean {
  return message.method !== "GET" && message.method !== "HEAD";
}

/** Node's limit on the headers it keeps of a request, where the server does not set its own. */
const NODE_MAX_HEADERS_COUNT = 2000;

/**
 * Does the request announce no body? In HTTP/1.1 a request has one only if it says so with
 * Content-Length or Transfer-Encoding, and Node's parser reads none otherwise. (Unless headers were
 * dropped past Node's limit on their number: then it cannot be known from them.)
 */
function announcesNoBody(message: IncomingMessage): boolean {
  const { headers } = message;
  if (headers["content-length"] !== undefined || headers["transfer-encoding"] !== undefined) return false;
  const limit = (message.socket as { server?: { maxHeadersCount?: number | null } }).server?.maxHeadersCount || NODE_MAX_HEADERS_COUNT;
  return message.rawHeaders.length / 2 < limit;
}

/**
 * The bridge's request for one that announces no body, saying so: its `body` is null, as a runtime's
 * request without a body has it. (The bridge's own would make a stream of the connection to find
 * it empty: a whole fetch Request and its web streams, for a DELETE, say.)
 */
function withoutBody(request: Request): Request {
  return Object.defineProperty(request, "body", { value: null });
}

/**
 * A `node:http` request listener that serves `handler`. On a server of your own it serves requests
 * as they come; `serve` makes a server that also answers what Node's HTTP layer refuses in the
 * envelope and can be shut down cleanly (`shutdown`).
 */
export function requestListener(handler: Handler): (message: IncomingMessage, reply: ServerResponse) => void {
  // The bridge hands over light requests that read the IncomingMessage only when asked; it makes the
  // global Request and Response its own subclasses (as it does for Hono), so a handler that wraps
  // another can still copy a request with `new Request(request, init)`.
  const listener = getRequestListener(
    (request, { incoming, outgoing }) => {
      const message = incoming as IncomingMessage;
      if (!mayHaveBody(message)) return handler(request);
      if (announcesNoBody(message)) return handler(withoutBody(request));
      // A body may stop coming, and `serve` then answers in the handler's place: under the id the handler logs.
      return refusals.race(outgoing as ServerResponse, giveRequestId(request), handler(request));
    },
    { errorHandler: bridgeError, autoCleanupIncoming: false },
  );
  // The listener answers every failure itself (bridgeError); its promise only says when it is done.
  return (message, reply) => {
    // A request that announces no body has none left to drain: its message is complete with its headers.
    if (!announcesNoBody(message)) drainAfterAnswer(message, reply);
    void listener(message, reply);
  };
}

export interface ServeOptions {
  /** Default 8787; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  hostname?: string;
  /** How long a client has to send a request's line and headers, in ms; then 408. Default 10 000. */
  headersTimeoutMs?: number;
  /** How long a client has to send a whole request, headers and body, in ms; then 408. Default 30 000. */
  requestTimeoutMs?: number;
  /** Called for each request answered before it reached the handler (400, 408, 431): what a request log would hold. */
  onClientError?: (entry: ClientErrorEntry) => void;
}

export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

const served = new WeakMap<Server, ServerConnections>();

/**
 * Starts a `node:http` server for `handler`; resolves once it listens. Requests Node's HTTP layer
 * refuses answer in the error envelope with an `x-request-id`, and close their connection: one it
 * cannot parse (a NUL byte in the path, a method HTTP does not have) 400 `bad_request`, request line
 * and headers over 16 KiB 431 `request_header_fields_too_large`, a client too slow to send its headers
 * or its whole request 408 `request_timeout`. Stop it with `shutdown`.
 */
export function serve(handler: Handler, options: ServeOptions = {}): Promise<Server> {
  const headersTimeoutMs = options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS;
  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const server = createServer({
    headersTimeout: headersTimeoutMs,
    requestTimeout: requestTimeoutMs,
    // How often those two are checked (Node's default is every 30 s).
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(Math.min(headersTimeoutMs, requestTimeoutMs) / 4))),
    // A request without Host reaches the bridge, which answers it in the envelope (Node's answer is an empty 400).
    requireHostHeader: false,
  });
  const connections = new ServerConnections(server, { headersTimeoutMs, requestTimeoutMs, onClientError: options.onClientError });
  const listener = requestListener(handler);
  const serveRequest = (message: IncomingMessage, reply: ServerResponse) => {
    if (connections.admit(message, reply)) listener(message, reply);
  };
  server.on("request", serveRequest);
  // An Expect other than 100-continue: served as if it were not there (Node's answer is an empty 417).
  server.on("checkExpectation", serveRequest);
  served.set(server, connections);
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 8787, options.hostname ?? "127.0.0.1", () => {
      server.off("error", reject);
      resolve(server);
    });
  });
}

export interface ShutdownOptions {
  /** How long requests in flight may take to finish, in ms; connections still open then are closed. Default 5000. */
  graceMs?: number;
}

export interface ShutdownResult {
  /** Connections still open when the grace period ended, closed then (0 when everything finished in time). */
  closedAtGrace: number;
}

const shutdowns = new WeakMap<Server, Promise<ShutdownResult>>();

/**
 * Stops a server made by `serve`, cleanly: it stops accepting connections, answers every request in
 * flight (and any that still arrives on an open connection) with `Connection: close`, closes the
 * connections that stay idle, and resolves once every connection is closed, or when `graceMs` has
 * passed and the ones left are closed. Calling it again returns the same promise.
 */
export function shutdown(server: Server, options: ShutdownOptions = {}): Promise<ShutdownResult> {
  let stopped = shutdowns.get(server);
  if (stopped) return stopped;
  const connections = served.get(server);
  if (!connections) throw new TypeError("shutdown stops a server made by serve.");
  stopped = connections.shutdown(options.graceMs ?? 5000).then((closedAtGrace) => ({ closedAtGrace }));
  shutdowns.set(server, stopped);
  return stopped;
}

/** How a Node server is run, from the environment: `serveSettingsFromEnv`. */
export interface ServeSettings {
  port: number;
  hostname: string;
  headersTimeoutMs: number | undefined;
  requestTimeoutMs: number | undefined;
  /** How long a stop waits for requests in flight (`shutdown`'s `graceMs`); undefined: its default. */
  shutdownGraceMs: number | undefined;
}

function portFrom(value: string | undefined): number {
  if (value === undefined || value === "") return 8787;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number (0 to 65535), not "${value}".`);
  return port;
}

/** A duration setting in milliseconds; unset: undefined (the default of what takes it). */
function millisecondsFrom(name: string, value: string | undefined): number | undefined {
  if (value === undefined || value === "") return undefined;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < 1 || ms > 3_600_000) throw new Error(`${name} must be a number of milliseconds (1 to 3600000), not "${value}".`);
  return ms;
}

/**
 * The settings of a Node server from the environment: PORT (default 8787; 0 picks a free one), HOST
 * (default `defaultHostname`), HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS and SHUTDOWN_GRACE_MS. A value
 * that is not one throws an Error that names the setting.
 */
export function serveSettingsFromEnv(env: Record<string, string | undefined>, defaultHostname = "127.0.0.1"): ServeSettings {
  return {
    port: portFrom(env.PORT),
    hostname: env.HOST || defaultHostname,
    headersTimeoutMs: millisecondsFrom("HEADERS_TIMEOUT_MS", env.HEADERS_TIMEOUT_MS),
    requestTimeoutMs: millisecondsFrom("REQUEST_TIMEOUT_MS", env.REQUEST_TIMEOUT_MS),
    shutdownGraceMs: millisecondsFrom("SHUTDOWN_GRACE_MS", env.SHUTDOWN_GRACE_MS),
  };
}
