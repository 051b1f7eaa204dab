/**
 * What `serve` keeps per connection, for what Node's HTTP layer does on its own: a request it cannot
 * parse or that comes too slowly (answered here in the error envelope instead of Node's empty 400, 408
 * and 431), a client that goes away in the middle of a body, and a shutdown that drains keep-alive
 * connections instead of resetting them.
 */
import { maxHeaderSize, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { ApiError, envelope, newRequestId } from "../../errors.js";
import type { ClientErrorEntry } from "../../types.js";
import { refusals } from "./refusals.js";


export interface ConnectionLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  onClientError?: (entry: ClientErrorEntry) => void;
}

interface Connection {
  /** Answers not finished yet, oldest first (several when requests are pipelined). */
  replies: ServerResponse[];
  /** The last request that reached the handler; while it is incomplete, its body is still coming. */
  latest?: IncomingMessage;
  /** Why the body of `latest` will never come whole (given to the handler as the body's error). */
  bodyError?: ApiError;
  /** Node's parser failed on this connection (Node reports it again on each read; it is answered once). */
  failed: boolean;
}

/** How long a connection idle when a shutdown starts may stay so before it is closed (at most half the grace period). */
const IDLE_CLOSE_MS = 1000;

/** How long a connection refused in the envelope is kept open to read and drop what the client still sends, so it reads the answer. */
const LINGER_MS = 2000;

/** Node's parser errors (llhttp's, all static text) that say what was wrong, in a sentence of the envelope. */
const PARSE_REASON = /^[A-Za-z][\w ,.'/:-]{0,99}$/;

/** The envelope's terms for an error Node's HTTP layer raised on a connection. */
function refusalOf(error: Error & { code?: string; reason?: unknown }, limits: ConnectionLimits): ApiError {
  switch (error.code) {
    case "HPE_HEADER_OVERFLOW":
      return new ApiError(
        "request_header_fields_too_large",
        `The request line and headers are over the limit of ${maxHeaderSize} bytes (${Math.round(maxHeaderSize / 1024)} KiB).`,
      );
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return new ApiError(
        "request_timeout",
        `The request was not received in time: its headers are due within ${limits.headersTimeoutMs / 1000} s, ` +
          `the whole request within ${limits.requestTimeoutMs / 1000} s.`,
      );
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return new ApiError("payload_too_large", "The chunk extensions of the body are over the server's limit.");
    case "HPE_INVALID_EOF_STATE":
      return new ApiError("bad_request", "The request cannot be read: the client closed its side of the connection before the request was complete.");
    case "HPE_INVALID_METHOD":
      return new ApiError("bad_request", "The request cannot be read: its method is not an HTTP method.");
    default: {
      const reason = typeof error.reason === "string" && PARSE_REASON.test(error.reason) ? `: ${error.reason.replace(/\.$/, "")}` : "";
      return new ApiError("bad_request", `The request cannot be read${reason}.`);
    }
  }
}

/** The error a body read gets when the client closed the connection before sending all of it. */
function connectionClosed(): ApiError {
  return new ApiError("bad_request", "The connection closed before the request's body was received whole.");
}

/** The connections of one server made by `serve`. */
export class ServerConnections {
  readonly #server: Server;
  readonly #limits: ConnectionLimits;
  readonly #connections = new Map<Socket, Connection>();
  /** Answers marked to close their connection because the server is shutting down. */
  readonly #closeMarked = new WeakSet<ServerResponse>();
  #closing = false;
  #closeIdleScheduled = false;

  constructor(server: Server, limits: ConnectionLimits) {
    this.#server = server;
    this.#limits = limits;
    server.on("connection", (socket: Socket) => this.#open(socket));
    server.on("clientError", (error: Error, socket: Socket) => this.#clientError(error, socket));
    // CONNECT asks for a tunnel: Node hands the socket over, and without this it would be closed unanswered.
    server.on("connect", (_message: IncomingMessage, socket: Socket) =>
      this.#answer(socket, new ApiError("bad_request", "The request cannot be served: CONNECT asks for a tunnel, and this server is an API, not a proxy.")),
    );
  }

  #open(socket: Socket): void {
    const connection: Connection = { replies: [], failed: false };
    this.#connections.set(socket, connection);
    // Before Node's own listener, which aborts a request still receiving its body with a bare
    // ECONNRESET that would read as a failure of ours: the handler gets the reason instead.
    socket.prependListener("close", () => {
      this.#connections.delete(socket);
      const { latest } = connection;
      if (latest && !latest.complete && !latest.destroyed) latest.destroy(connection.bodyError ?? connectionClosed());
    });
  }

  /**
   * Takes a request in; false when it must not be served because the answer before it on the same
   * connection closes that connection (the client sent it without waiting: it was never accepted).
   */
  admit(message: IncomingMessage, reply: ServerResponse): boolean {
    const connection = this.#connections.get(message.socket);
    if (!connection) return true;
    const previous = connection.replies.at(-1);
    if (previous && !previous.shouldKeepAlive) {
      if (previous.headersSent || !this.#closeMarked.has(previous)) return false;
      // This request came behind one marked for the shutdown: it is the connection's last answer now.
      previous.shouldKeepAlive = true;
      this.#closeMarked.delete(previous);
    }
    if (this.#closing) this.#markClose(reply);
    // Upgrades are not served, and Node's parser drops what was sent behind an Upgrade request in the
    // same packet: the connection closes after the answer, so that nothing sent after it is left waiting.
    else if (message.headers.upgrade !== undefined) reply.shouldKeepAlive = false;
    connection.replies.push(reply);
    connection.latest = message;
    reply.once("close", () => {
      const index = connection.replies.indexOf(reply);
      if (index >= 0) connection.replies.splice(index, 1);
      // An answer that went out before the shutdown could mark it leaves its connection idle: close it.
      if (this.#closing && reply.shouldKeepAlive) this.#closeIdleSoon();
    });
    return true;
  }

  /**
   * Stops the server cleanly (see `shutdown`); resolves once every connection is closed, with how many
   * were still open when the grace period ended and were closed then.
   */
  shutdown(graceMs: number): Promise<number> {
    return new Promise((resolve) => {
      this.#closing = true;
      // Every answer not yet written, the last of its connection, says `Connection: close` and closes it
      // (and so does that of every request still to come on an open connection: see admit).
      for (const connection of this.#connections.values()) {
        const last = connection.replies.at(-1);
        if (last && !last.headersSent) this.#markClose(last);
      }
      let closedAtGrace = 0;
      // A connection idle now is closed once it has stayed idle for a moment: a client that had just
      // sent its next request on it gets an answer (with Connection: close) instead of a reset.
      const idle = setTimeout(() => this.#server.closeIdleConnections(), Math.min(IDLE_CLOSE_MS, graceMs / 2));
      const grace = setTimeout(() => {
        closedAtGrace = this.#connections.size;
        for (const socket of [...this.#connections.keys()]) socket.destroy();
      }, graceMs);
      // close() stops accepting and calls back once no connection is left. It would also close the idle
      // connections at once, under a request a client may be sending on one: that is held off for the
      // call (they are closed a moment later, above).
      const server = this.#server;
      server.closeIdleConnections = () => undefined;
      try {
        server.close(() => {
          clearTimeout(idle);
          clearTimeout(grace);
          resolve(closedAtGrace);
        });
      } finally {
        delete (server as { closeIdleConnections?: unknown }).closeIdleConnections;
      }
    });
  }

  #markClose(reply: ServerResponse): void {
    if (!reply.shouldKeepAlive) return;
    reply.shouldKeepAlive = false;
    this.#closeMarked.add(reply);
  }

  #closeIdleSoon(): void {
    if (this.#closeIdleScheduled) return;
    this.#closeIdleScheduled = true;
    setImmediate(() => {
      this.#closeIdleScheduled = false;
      this.#server.closeIdleConnections();
    });
  }

  /**
   * Node's HTTP layer failed on a connection: a request it cannot parse, one over the header size
   * limit, one too slow to arrive. The failed request is answered in the envelope once the answers
   * before it on the connection are out, and the connection is closed.
   */
  #clientError(error: Error & { code?: string; reason?: unknown }, socket: Socket): void {
    const connection = this.#connections.get(socket);
    if (connection?.failed) return;
    if (connection) connection.failed = true;
    if (error.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    const refusal = refusalOf(error, this.#limits);
    const latest = connection?.latest;
    if (connection && latest && !latest.complete) {
      // The failure is in the body of a request the handler has: it is answered in the handler's
      // place if the handler has not answered yet; else the connection closes after that answer.
      connection.bodyError = refusal;
      const reply = connection.replies.find((candidate) => candidate.req === latest);
      if (reply && !reply.headersSent && refusals.refuse(reply, refusal)) {
        reply.shouldKeepAlive = false;
        return;
      }
      this.#afterReplies(connection, () => socket.destroy());
      return;
    }
    if (connection) this.#afterReplies(connection, () => this.#answer(socket, refusal));
    else this.#answer(socket, refusal);
  }

  /** Runs `then` once every answer in progress on the connection is out. */
  #afterReplies(connection: Connection, then: () => void): void {
    const last = connection.replies.at(-1);
    if (!last) then();
    else last.once("close", () => this.#afterReplies(connection, then));
  }

  /** Writes the envelope of `refusal` as the connection's last answer, then closes it. */
  #answer(socket: Socket, refusal: ApiError): void {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const requestId = newRequestId();
    const body = JSON.stringify(envelope(refusal, requestId));
    socket.end(
      `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status]}\r\n` +
        "content-type: application/json\r\n" +
        `content-length: ${Buffer.byteLength(body)}\r\n` +
        `x-request-id: ${requestId}\r\n` +
        "connection: close\r\n\r\n" +
        body,
    );
    // Reads and drops what the client still sends (closing with unread data would reset the
    // connection, and the client could lose the answer), until it closes its side or for a moment.
    const linger = setTimeout(() => socket.destroy(), LINGER_MS).unref();
    socket.once("close", () => clearTimeout(linger));
    if (socket.readableEnded) socket.destroySoon();
    else {
      socket.once("end", () => socket.destroySoon());
      socket.resume();
    }
    this.#limits.onClientError?.({ request_id: requestId, status: refusal.status, code: refusal.code, message: refusal.message });
  }
}
