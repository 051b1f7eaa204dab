/**
 * The Node server (`serve` of @cloudplane/handlers/node, on PGlite through the handlers' harness) under
 * hostile clients, over raw sockets: what Node's HTTP layer refuses answers in the error envelope, slow
 * senders get 408, and the socket fuzzer finds no answer of 500 or more, no error answer outside the
 * envelope, no connection left hanging, and a server that still serves. The server's timeouts are
 * shortened so that slow senders take about a second.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { ERROR_STATUS, type ErrorCode } from "@cloudplane/contract";
import { demoToken } from "@cloudplane/db";
import { serve, shutdown } from "@cloudplane/handlers/node";
import { useApi } from "@cloudplane/handlers/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exchangeRaw, HALF_CLOSE, rawFuzz, type RawPiece, type RawResponse, type Reply } from "../src/index.js";
import { expectEnvelope } from "../src/expect.js";

const HEADERS_TIMEOUT_MS = 1000;
const REQUEST_TIMEOUT_MS = 2000;
const TOKEN = `apikey ${demoToken(1, "role-1-active").plaintext}`;
const ADMIN = `Authorization: ${TOKEN}`;

/** A raw response as the suite's assertions read replies. */
function replyOf(response: RawResponse): Reply {
  const json = /\bjson\b/i.test(response.headers.get("content-type") ?? "");
  return { method: "RAW", path: "", status: response.status, headers: response.headers, text: response.text, size: new TextEncoder().encode(response.text).byteLength, body: json ? JSON.parse(response.text) : undefined };
}

/** The answers on one connection to `pieces` ({host} is the server's), each in the envelope of the given status, and the connection closed. */
async function expectRefused(base: string, pieces: RawPiece[], ...expected: [number, ErrorCode | null][]): Promise<Reply[]> {
  const host = new URL(base).host;
  const exchange = await exchangeRaw(base, pieces.map((piece) => (typeof piece === "string" ? piece.replaceAll("{host}", host) : piece)), { timeoutMs: 10_000 });
  expect(exchange.end).toBe("closed");
  expect(exchange.rest).toBe("");
  const replies = exchange.responses.map(replyOf);
  expect(replies.map((reply) => reply.status)).toEqual(expected.map(([status]) => status));
  expected.forEach(([status, code], index) => {
    if (code) expectEnvelope(replies[index]!, status, code);
  });
  return replies;
}

describe("the Node server under hostile clients, over raw sockets", () => {
  const api = useApi("pglite");
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = await serve(api.handler, { port: 0, hostname: "127.0.0.1", headersTimeoutMs: HEADERS_TIMEOUT_MS, requestTimeoutMs: REQUEST_TIMEOUT_MS });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    if (server) await shutdown(server, { graceMs: 1000 });
  });

  it("answers a NUL byte in the path, and a method HTTP does not have, with 400 in the envelope", async () => {
    const [nul] = await expectRefused(base, ["GET /edge/v1/apps\0 HTTP/1.1\r\nHost: {host}\r\n\r\n"], [400, "bad_request"]);
    expect(nul!.headers.get("connection")).toBe("close");
    await expectRefused(base, ["BREW /edge/v1/apps HTTP/1.1\r\nHost: {host}\r\n\r\n"], [400, "bad_request"]);
    await expectRefused(base, ["GET /edge/v1/apps HTTP/1.1\r\nHost: {host}\r\nX-Bad: a\x01b\r\n\r\n"], [400, "bad_request"]);
  });

  it("answers a 1 MB URL and a 64 KB header with 431 in the envelope", async () => {
    await expectRefused(base, [`GET /${"a".repeat(1024 * 1024)} HTTP/1.1\r\nHost: {host}\r\n\r\n`], [431, "request_header_fields_too_large"]);
    await expectRefused(base, [`GET / HTTP/1.1\r\nHost: {host}\r\nX-Big: ${"a".repeat(64 * 1024)}\r\n\r\n`], [431, "request_header_fields_too_large"]);
  });

  it("answers a client too slow with its headers with 408 in the envelope, and one that sends nothing too", async () => {
    const step = { pauseMs: HEADERS_TIMEOUT_MS / 4 };
    const lines = ["GET /edge/v1/apps HTTP/1.1\r\n", "Host: {host}\r\n", ...Array.from({ length: 10 }, (_, n) => `X-Slow-${n}: v\r\n`)];
    const [slow] = await expectRefused(base, lines.flatMap((line) => [line, step]), [408, "request_timeout"]);
    expect(slow!.body).toMatchObject({ message: "The request was not received in time: its headers are due within 1 s, the whole request within 2 s." });
    await expectRefused(base, [], [408, "request_timeout"]);
  });

  it("answers a client too slow with its body with 408 in the envelope, under the request id it sent", async () => {
    const [slow] = await expectRefused(
      base,
      [`POST /edge/v1/secrets HTTP/1.1\r\nHost: {host}\r\n${ADMIN}\r\nX-Request-Id: slow-body\r\nContent-Type: application/json\r\nContent-Length: 60\r\n\r\n{"name":`],
      [408, "request_timeout"],
    );
    expect(slow!.headers.get("x-request-id")).toBe("slow-body");
  });

  it("answers a body whose chunked encoding is broken, or cut short by a half-close, with 400 in the envelope", async () => {
    const post = `POST /edge/v1/secrets HTTP/1.1\r\nHost: {host}\r\n${ADMIN}\r\nContent-Type: application/json\r\n`;
    await expectRefused(base, [`${post}Transfer-Encoding: chunked\r\n\r\n5\r\n{"nam\r\nZZ\r\n`], [400, "bad_request"]);
    await expectRefused(base, [`${post}Content-Length: 100\r\n\r\n{"name":`, HALF_CLOSE], [400, "bad_request"]);
  });

  it("answers CONNECT, a missing Host and an Expect it does not know in the envelope or as usual, never with Node's empty answers", async () => {
    await expectRefused(base, ["CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n"], [400, "bad_request"]);
    await expectRefused(base, ["GET /cdn/clients/me/features HTTP/1.1\r\nConnection: close\r\n\r\n"], [400, "bad_request"]);
    await expectRefused(base, [`GET /cdn/clients/me/features HTTP/1.1\r\nHost: {host}\r\n${ADMIN}\r\nExpect: something-else\r\nConnection: close\r\n\r\n`], [200, null]);
  });

  it("answers pipelined requests in order, the malformed one in the envelope after the answers before it", async () => {
    const good = `GET /cdn/clients/me/features HTTP/1.1\r\nHost: {host}\r\n${ADMIN}\r\n\r\n`;
    const replies = await expectRefused(base, [`${good}${good}GET /a\0b HTTP/1.1\r\nHost: {host}\r\n\r\n${good}`], [200, null], [200, null], [400, "bad_request"]);
    expect(replies[0]!.body).toMatchObject({ id: 1 });
  });

  it("the socket fuzzer: no answer of 500 or more, every error answer in the envelope, no connection left hanging, and the server still serves", async () => {
    const report = await rawFuzz(base, { seed: 20_261_123, count: 400, headersTimeoutMs: HEADERS_TIMEOUT_MS, requestTimeoutMs: REQUEST_TIMEOUT_MS, authorization: TOKEN });
    expect(report.problems).toEqual([]);
    expect(report.results.length).toBeGreaterThan(400);
    // It reached the handler, and the parts of Node's HTTP layer it was meant to.
    const codes = new Set(report.results.flatMap(({ exchange }) => exchange.responses.map((response) => (replyOf(response).body as { code?: string } | undefined)?.code)));
    for (const code of ["bad_request", "not_authenticated", "validation_error", "request_timeout", "request_header_fields_too_large", "unsupported_media_type"] as const)
      expect(codes, code).toContain(code);
    expect(Object.keys(report.statuses).map(Number).every((status) => status < 500 && (status < 400 || Object.values(ERROR_STATUS).includes(status as never)))).toBe(true);
    const after = await fetch(`${base}/cdn/clients/me/features`, { headers: { authorization: TOKEN } });
    expect(after.status).toBe(200);
  });
});
