/**
 * A real HTTP server on 127.0.0.1 for the retry, timeout and abort tests: it answers each request as
 * the test scripts it (an error, a Retry-After, or never) and records every request it received.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
  /** When it arrived, from performance.now(). */
  at: number;
}

/** Answers the request numbered `index` (from 0); returning without ending the reply leaves it hanging. */
export type Responder = (request: ReceivedRequest, reply: ServerResponse, index: number) => void;

export interface ScriptedServer {
  baseUrl: string;
  requests: ReceivedRequest[];
  respond: Responder;
  close(): Promise<void>;
}

/** A JSON reply with the API's error envelope or any body. */
export function json(reply: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  reply.writeHead(status, { "content-type": "application/json", "x-request-id": `req_test_${status}`, ...headers });
  reply.end(JSON.stringify(body));
}

export function envelope(status: number, code: string, message = `Answered ${status}.`) {
  return { message, code, request_id: `req_test_${status}` };
}

export async function startScriptedServer(): Promise<ScriptedServer> {
  const hanging = new Set<ServerResponse>();
  const scripted: ScriptedServer = {
    baseUrl: "",
    requests: [],
    respond: (_request, reply) => json(reply, 200, {}),
    close: () =>
      new Promise((resolve) => {
        for (const reply of hanging) reply.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer((message, reply) => {
    const chunks: Buffer[] = [];
    message.on("data", (chunk: Buffer) => chunks.push(chunk));
    message.on("end", () => {
      const request: ReceivedRequest = {
        method: message.method ?? "",
        url: message.url ?? "",
        headers: message.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        at: performance.now(),
      };
      const index = scripted.requests.push(request) - 1;
      hanging.add(reply);
      reply.on("close", () => hanging.delete(reply));
      scripted.respond(request, reply, index);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  scripted.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return scripted;
}
