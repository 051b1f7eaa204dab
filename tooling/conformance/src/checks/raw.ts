/**
 * Requests written straight to the socket, of kinds a fetch client cannot send: methods fetch
 * refuses, paths that are not plain paths, Host headers that are empty, malformed or name
 * credentials. Each must get an HTTP answer below 500, and the deployment must go on serving.
 */
import { connect as connectTcp, type Socket } from "node:net";
import { connect as connectTls } from "node:tls";
import { type ConformanceCheck } from "../check.js";
import { expectStatus, expectTrue } from "../expect.js";

/** Each request line and headers, sent as they are (the check adds the blank line that ends them). */
export const HOSTILE_REQUESTS: readonly string[] = [
  "TRACE / HTTP/1.1\r\nHost: {host}",
  "GET // HTTP/1.1\r\nHost: {host}",
  "GET //cdn/clients/me/features HTTP/1.1\r\nHost: {host}",
  "GET / HTTP/1.1\r\nHost: ",
  "GET / HTTP/1.1\r\nHost: a b",
  "GET / HTTP/1.1\r\nHost: [",
  "GET / HTTP/1.1\r\nHost: u:p@{host}",
  "GET / HTTP/1.1\r\nHost: {host}\r\nHost: {host}",
  "GET * HTTP/1.1\r\nHost: {host}",
];

/** Sends one raw request on a new connection and resolves with the status of the answer (0 when none came). */
export function sendRaw(baseUrl: string, request: string, timeoutMs = 10_000): Promise<{ status: number; head: string }> {
  const url = new URL(baseUrl);
  const secure = url.protocol === "https:";
  const port = Number(url.port || (secure ? 443 : 80));
  const text = `${request.replaceAll("{host}", url.host)}\r\nConnection: close\r\n\r\n`;
  return new Promise((resolve) => {
    let received = "";
    const socket: Socket = secure
      ? connectTls({ host: url.hostname, port, servername: url.hostname }, () => socket.write(text))
      : connectTcp({ host: url.hostname, port }, () => socket.write(text));
    const done = () => {
      socket.destroy();
      const head = received.split("\r\n")[0] ?? "";
      resolve({ status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0), head });
    };
    socket.setTimeout(timeoutMs, done);
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString("latin1");
      if (received.includes("\r\n\r\n")) done();
    });
    socket.on("error", done);
    socket.on("close", done);
  });
}

export const rawChecks: ConformanceCheck[] = [
  {
    name: "raw: requests fetch cannot express (TRACE, //, bad or doubled Host) answer below 500 and the server keeps serving",
    async run({ client }) {
      for (const request of HOSTILE_REQUESTS) {
        const { status, head } = await sendRaw(client.baseUrl, request);
        const line = request.split("\r\n").join(" | ");
        expectTrue(status >= 200 && status < 500, `${line} answered "${head || "nothing"}", not a status below 500`);
        // The deployment is still there, and still itself.
        expectStatus(await client.call("GET", "/cdn/clients/me/features"), 200);
      }
    },
  },
];
