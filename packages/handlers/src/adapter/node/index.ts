/**
 * Node adapter: serves a fetch handler on `node:http`, turning each IncomingMessage into a fetch
 * `Request` and the handler's `Response` back into the reply.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { Readable } from "node:stream";
import type { Handler } from "../../handler.js";

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
  return (message: IncomingMessage, reply: ServerResponse) => {
    reply.once("finish", () => {
      // A body the handler did not read (say, one refused with 413) must still be drained, or the
      // next request on this keep-alive connection waits behind it. The web stream paused the message.
      if (message.complete || message.destroyed) return;
      message.removeAllListeners("data");
      message.resume();
    });
    handler(toRequest(message))
      .then((response) => send(response, reply))
      .catch(() => {
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
