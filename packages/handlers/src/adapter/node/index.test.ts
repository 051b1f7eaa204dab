/** The Node adapter over real HTTP on loopback: requests, streamed bodies, the body limit. */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { demoToken } from "@cloudplane/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engines, useApi } from "../../../test/harness.js";
import { serve } from "./index.js";

describe.each(engines())("Node adapter on %s", (engine) => {
  const api = useApi(engine);
  let server: Server;
  let base: string;
  const headers = { authorization: `apikey ${demoToken(1, "role-1-active").plaintext}` };

  beforeAll(async () => {
    server = await serve(api.handler, { port: 0, hostname: "127.0.0.1" });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it("serves a GET over HTTP with the API's headers", async () => {
    const response = await fetch(`${base}/streaming/streams?with_broadcasts=1`, { headers });
    expect(response.status).toBe(200);
    // The answer is written whole, with its length (not chunked).
    expect(Number(response.headers.get("content-length"))).toBeGreaterThan(0);
    expect(response.headers.get("x-request-id")).toMatch(/^req_/);
    expect(Number(response.headers.get("x-total-count"))).toBeGreaterThan(0);
    const streams = (await response.json()) as { broadcasts?: unknown[] }[];
    expect(streams.every((stream) => Array.isArray(stream.broadcasts))).toBe(true);
  });

  it("streams a request body through to the handler", async () => {
    const response = await fetch(`${base}/edge/v1/secrets`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ name: "over-http", secret_slots: [{ slot: 0, value: "sent over loopback" }] }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ name: "over-http", app_count: 0 });
  });

  it("refuses a body over 1 MiB with 413", async () => {
    const response = await fetch(`${base}/edge/v1/secrets`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: "x".repeat(2 * 1024 * 1024),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: "payload_too_large" });
  });

  it("keeps serving a keep-alive connection after refusing an oversized body unread", async () => {
    const { request } = await import("node:http");
    const agent = new (await import("node:http")).Agent({ keepAlive: true, maxSockets: 1 });
    /** Sends `body` whole, or in 64 KiB pieces `pauseMs` apart (a slow client still sending when the answer comes). */
    const send = (method: string, path: string, body?: string, pauseMs?: number) =>
      new Promise<{ status: number; socket: unknown }>((resolve, reject) => {
        const length = body === undefined ? {} : { "content-length": String(Buffer.byteLength(body)) };
        const outgoing = request(`${base}${path}`, { method, agent, headers: { ...headers, ...length, "content-type": "application/json" } }, (reply) => {
          const { socket } = reply;
          reply.resume();
          reply.on("end", () => resolve({ status: reply.statusCode ?? 0, socket }));
        });
        outgoing.on("error", reject);
        if (pauseMs === undefined || body === undefined) return outgoing.end(body);
        void (async () => {
          for (let offset = 0; offset < body.length; offset += 64 * 1024) {
            outgoing.write(body.slice(offset, offset + 64 * 1024));
            await new Promise((wait) => setTimeout(wait, pauseMs));
          }
          outgoing.end();
        })();
      });
    const refused = await send("POST", "/edge/v1/secrets", "x".repeat(2 * 1024 * 1024));
    expect(refused.status).toBe(413);
    const next = await send("GET", "/cdn/clients/me/features");
    expect(next).toEqual({ status: 200, socket: refused.socket });
    // Sent over about 1.5 s: the rest of the body is still coming long after the 413.
    const slow = await send("POST", "/edge/v1/secrets", "x".repeat(2 * 1024 * 1024), 45);
    expect(slow).toEqual({ status: 413, socket: refused.socket });
    // The same connection serves the next request.
    expect(await send("PUT", "/cdn/clients/me", JSON.stringify({ utilization_level: 1 }))).toEqual({ status: 200, socket: refused.socket });
    agent.destroy();
  });

  it("serves any fetch handler, which may copy the request it is given", async () => {
    const other = await serve(
      async (given) => {
        const request = new Request(given, { headers: { "x-copied": "yes" } });
        return new Response(JSON.stringify({ method: request.method, path: new URL(request.url).pathname, body: await request.text(), copied: request.headers.get("x-copied") }), {
          status: 201,
          headers: { "content-type": "application/json", "set-cookie": "a=1" },
        });
      },
      { port: 0, hostname: "127.0.0.1" },
    );
    try {
      const response = await fetch(`http://127.0.0.1:${(other.address() as AddressInfo).port}/any/path`, { method: "POST", body: "streamed" });
      expect(response.status).toBe(201);
      expect(response.headers.get("set-cookie")).toBe("a=1");
      expect(await response.json()).toEqual({ method: "POST", path: "/any/path", body: "streamed", copied: "yes" });
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });

  it("answers many concurrent requests", async () => {
    const replies = await Promise.all(
      Array.from({ length: 40 }, (_, index) => fetch(`${base}/edge/v1/apps?limit=1&offset=${index}`, { headers })),
    );
    expect(replies.map((reply) => reply.status)).toEqual(replies.map(() => 200));
  });
});
