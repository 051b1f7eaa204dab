/**
 * Requests written straight to the socket, of kinds a fetch client cannot send: methods fetch
 * refuses, paths that are not plain paths, Host headers that are empty, malformed or name
 * credentials. Each must get an HTTP answer below 500, and the deployment must go on serving.
 * `exchangeRaw` is the raw client: the socket fuzzer (raw-fuzz.ts) sends its requests with it too.
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

/** The end of what the client sends: its side of the connection is closed (a half-close), the server's stays open. */
export const HALF_CLOSE = { halfClose: true } as const;

/** What is sent on a connection, in order: bytes, a pause, or HALF_CLOSE. */
export type RawPiece = string | Uint8Array | { pauseMs: number } | typeof HALF_CLOSE;

/** One response read off the connection. */
export interface RawResponse {
  status: number;
  /** The status line. */
  head: string;
  headers: Headers;
  /** The body, decoded as UTF-8 (de-chunked). */
  text: string;
}

export interface RawExchange {
  /** The responses, in order (interim 1xx responses included). */
  responses: RawResponse[];
  /**
   * How it ended: the server closed the connection, reset it, the connection could not be made, the
   * wait ran out, or `options.responses` responses came.
   */
  end: "closed" | "reset" | "refused" | "timeout" | "answered";
  /** Bytes received after the last whole response (a partial or malformed one), as latin1. */
  rest: string;
}

export interface RawOptions {
  /** How long to wait for the whole exchange. Default 10 s. */
  timeoutMs?: number;
  /** Stop once this many responses (not counting 1xx) have come. Default: wait for the server to close. */
  responses?: number;
}

const CRLF_CRLF = Buffer.from("\r\n\r\n");

/** The responses in `data`, and how many bytes they took; a response not received whole is left. */
function parseResponses(data: Buffer, closed: boolean): { responses: RawResponse[]; used: number } {
  const responses: RawResponse[] = [];
  let offset = 0;
  for (;;) {
    const headEnd = data.indexOf(CRLF_CRLF, offset);
    if (headEnd < 0) break;
    const lines = data.subarray(offset, headEnd).toString("latin1").split("\r\n");
    const head = lines[0]!;
    const status = Number(/^HTTP\/\d\.\d (\d{3})(?: |$)/.exec(head)?.[1] ?? NaN);
    if (!Number.isInteger(status)) break;
    const headers = new Headers();
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(":");
      if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
    }
    let at = headEnd + 4;
    let body: Buffer;
    if (status < 200 || status === 204 || status === 304) body = Buffer.alloc(0);
    else if (/\bchunked\b/i.test(headers.get("transfer-encoding") ?? "")) {
      const chunks: Buffer[] = [];
      let done = false;
      for (;;) {
        const lineEnd = data.indexOf("\r\n", at);
        if (lineEnd < 0) break;
        const size = parseInt(data.subarray(at, lineEnd).toString("latin1"), 16);
        if (!Number.isInteger(size) || data.length < lineEnd + 2 + size + 2) break;
        chunks.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
        at = lineEnd + 2 + size + 2;
        if (size === 0) {
          done = true;
          break;
        }
      }
      if (!done) break;
      body = Buffer.concat(chunks);
    } else if (headers.has("content-length")) {
      const length = Number(headers.get("content-length"));
      if (data.length < at + length) break;
      body = data.subarray(at, at + length);
      at += length;
    } else {
      // Delimited by the end of the connection.
      if (!closed) break;
      body = data.subarray(at);
      at = data.length;
    }
    responses.push({ status, head, headers, text: body.toString("utf8") });
    offset = at;
  }
  return { responses, used: offset };
}

/**
 * Opens a connection to the base URL's host (TLS for https), sends `pieces` as they come and reads
 * every response until the server closes the connection (or `options` says when to stop).
 */
export function exchangeRaw(baseUrl: string, pieces: readonly RawPiece[], options: RawOptions = {}): Promise<RawExchange> {
  const url = new URL(baseUrl);
  const secure = url.protocol === "https:";
  const port = Number(url.port || (secure ? 443 : 80));
  return new Promise((resolve) => {
    let received = Buffer.alloc(0);
    let finished = false;
    const start = () => void send();
    const socket: Socket = secure ? connectTls({ host: url.hostname, port, servername: url.hostname }, start) : connectTcp({ host: url.hostname, port }, start);
    const finish = (end: RawExchange["end"]) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      socket.destroy();
      const { responses, used } = parseResponses(received, end !== "answered" && end !== "timeout");
      resolve({ responses, end, rest: received.subarray(used).toString("latin1") });
    };
    const timer = setTimeout(() => finish("timeout"), options.timeoutMs ?? 10_000);
    async function send() {
      for (const piece of pieces) {
        if (finished || socket.destroyed) return;
        if (typeof piece === "string" || piece instanceof Uint8Array) socket.write(piece);
        else if ("pauseMs" in piece) await new Promise((wait) => setTimeout(wait, piece.pauseMs));
        else socket.end();
      }
    }
    socket.on("data", (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (options.responses === undefined) return;
      const whole = parseResponses(received, false).responses.filter((response) => response.status >= 200);
      if (whole.length >= options.responses) finish("answered");
    });
    socket.on("error", (error: NodeJS.ErrnoException) => finish(error.code === "ECONNREFUSED" ? "refused" : "reset"));
    socket.on("close", () => finish("closed"));
  });
}

/** Sends one raw request on a new connection and resolves with the status of the answer (0 when none came). */
export async function sendRaw(baseUrl: string, request: string, timeoutMs = 10_000): Promise<{ status: number; head: string }> {
  const text = `${request.replaceAll("{host}", new URL(baseUrl).host)}\r\nConnection: close\r\n\r\n`;
  const { responses } = await exchangeRaw(baseUrl, [text], { timeoutMs, responses: 1 });
  const answer = responses.find((response) => response.status >= 200);
  return { status: answer?.status ?? 0, head: answer?.head ?? "" };
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
