/**
 * Node adapter: serves a fetch handler on `node:http`. A handler made by `createHandler` is served
 * straight from the IncomingMessage (no fetch `Request` or `Response` is made: they cost more than
 * the rest of a small request); any other fetch handler gets a `Request` and its `Response` is copied out.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { MAX_BODY_BYTES, SERVE_API, tooLarge, type ApiHandler, type ApiInput, type ApiOutput, type Handler } from "../../handler.js";

/** Any absolute URL: only the path and query of a request are read. */
const ORIGIN = "http://localhost";

/** The message's body as text, refusing (413) one declared or found to be over the limit without reading the rest. */
async function readMessage(message: IncomingMessage): Promise<string> {
  if (Number(message.headers["content-length"] ?? 0) > MAX_BODY_BYTES) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  // Stopping early must leave the socket open for the 413: the rest is drained once it is sent.
  for await (const chunk of message.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
    size += chunk.byteLength;
    if (size > MAX_BODY_BYTES) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size).toString("utf8");
}

function apiInput(message: IncomingMessage): ApiInput {
  return {
    method: message.method ?? "GET",
    url: new URL(message.url ?? "/", ORIGIN),
    header(name) {
      const value = message.headers[name];
      return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
    },
    readBody: () => readMessage(message),
  };
}

function sendOutput(output: ApiOutput, reply: ServerResponse): void {
  reply.writeHead(output.status, { ...output.headers, "content-length": Buffer.byteLength(output.body) });
  reply.end(output.body);
}

function toRequest(message: IncomingMessage): Request {
  const headers = new Headers();
  for (let i = 0; i < message.rawHeaders.length; i += 2) headers.append(message.rawHeaders[i]!, message.rawHeaders[i + 1]!);
  const url = new URL(message.url ?? "/", `http://${headers.get("host") ?? "localhost"}`);
  const method = message.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  return new Request(url, {
    method,
    headers,
    body: hasBody ? Readable.toWeb(message) : undefined,
    // Node's fetch needs this to stream a request body.
    ...(hasBody ? { duplex: "half" } : {}),
  } as RequestInit);
}

async function send(response: Response, reply: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers["set-cookie"] = cookies;
  reply.writeHead(response.status, headers);
  if (!response.body) {
    reply.end();
    return;
  }
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    reply.write(value);
  }
  reply.end();
}

/** A `node:http` request listener that serves `handler`. */
export function requestListener(handler: Handler) {
  const serveApi = (handler as Partial<ApiHandler>)[SERVE_API];
  return (message: IncomingMessage, reply: ServerResponse) => {
    reply.once("finish", () => {
      // A body the handler did not read (say, one refused with 413) must still be drained, or the
      // next request on this keep-alive connection waits behind it. Reading stopped part way paused the message.
      if (message.complete || message.destroyed) return;
      message.removeAllListeners("data");
      message.resume();
    });
    const answered = serveApi
      ? serveApi(apiInput(message)).then((output) => sendOutput(output, reply))
      : handler(toRequest(message)).then((response) => send(response, reply));
    answered.catch(() => {
        // The handler answers every failure itself; this is only a broken connection or a bug in send.
        if (!reply.headersSent) reply.writeHead(500, { "content-type": "application/json" });
        reply.end();
      });
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
