/**
 * The Node adapter over real HTTP on loopback: requests, streamed bodies, the body limit; what Node's
 * HTTP layer refuses, answered in the envelope; slow clients; the shutdown, under keep-alive clients.
 */
import { Agent, request as httpRequest, type IncomingHttpHeaders, type RequestOptions, type Server } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import { inspect } from "node:util";
import { demoToken } from "@cloudplane/db";
import { TsRestResponse } from "@ts-rest/serverless";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engines, expectEnvelope, replyOf, useApi, type Reply } from "../../../test/harness.js";
import { serve, shutdown } from "./index.js";

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

  it("answers in the bridge's light Response class, as ts-rest built it, with no copy and no web stream", async () => {
    // Serving put the bridge's class in the global Response's place; the handler's answers are built in it.
    const answer = await api.handler(new Request(`${base}/streaming/streams/1`, { headers }));
    expect(answer).toBeInstanceOf(TsRestResponse);
    expect(answer).toBeInstanceOf(Response);
    expect(inspect(answer)).toMatch(/^Response \(lightweight\)/);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ id: 1 });
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

  it("gives a request with a body its id without writing it into the request's headers", async () => {
    // The id the bridge answers a stalled body under reaches the handler beside the request: a header
    // written in would turn the bridge's light headers into a whole Headers on every POST.
    const seen: (string | null)[] = [];
    const own = await serve(
      (request) => {
        seen.push(request.headers.get("x-request-id"));
        return api.handler(request);
      },
      { port: 0, hostname: "127.0.0.1" },
    );
    try {
      const url = `http://127.0.0.1:${(own.address() as AddressInfo).port}/edge/v1/secrets`;
      const post = (name: string, sent: Record<string, string>) =>
        fetch(url, { method: "POST", headers: { ...headers, ...sent, "content-type": "application/json" }, body: JSON.stringify({ name, secret_slots: [{ slot: 0, value: "v" }] }) });
      const made = await post("id-made", {});
      expect(made.status).toBe(200);
      expect(made.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{32}$/);
      const echoed = await post("id-echoed", { "x-request-id": "client-7" });
      expect(echoed.status).toBe(200);
      expect(echoed.headers.get("x-request-id")).toBe("client-7");
      const replaced = await post("id-replaced", { "x-request-id": "not one we echo!" });
      expect(replaced.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{32}$/);
      expect(seen).toEqual([null, "client-7", "not one we echo!"]);
      expect(api.logs.filter((entry) => [made, echoed, replaced].some((reply) => reply.headers.get("x-request-id") === entry.request_id))).toHaveLength(3);
    } finally {
      await new Promise((resolve) => own.close(resolve));
    }
  });

  it("reads a JSON body with a length as text, never as bytes: a byte order mark dropped, malformed UTF-8 replaced, a mark alone no body", async () => {
    // The bridge decodes the bytes it received; asking for them as bytes would copy them into a new buffer first.
    const asBytes: string[] = [];
    const own = await serve(
      (request) => {
        if (request.headers.get("content-type") === "application/json")
          for (const method of ["arrayBuffer", "bytes", "blob"])
            Object.defineProperty(request, method, { value: () => Promise.reject(new Error(asBytes[asBytes.push(`${request.method} ${method}`) - 1])) });
        return api.handler(request);
      },
      { port: 0, hostname: "127.0.0.1" },
    );
    try {
      const url = `http://127.0.0.1:${(own.address() as AddressInfo).port}/edge/v1/secrets`;
      const send = (method: string, path: string, body: Uint8Array) =>
        fetch(`${url}${path}`, { method, headers: { ...headers, "content-type": "application/json" }, body: body as Uint8Array<ArrayBuffer> });
      const bom = [0xef, 0xbb, 0xbf];
      const json = (text: string) => [...new TextEncoder().encode(text)];
      // A byte order mark before the JSON, and a byte that is no UTF-8 (0xff) inside a string.
      const made = await send("POST", "", new Uint8Array([...bom, ...json('{"name":"read-as-text","comment":"a'), 0xff, ...json('b","secret_slots":[{"slot":0,"value":"v"}]}')]));
      expect(made.status).toBe(200);
      const secret = (await made.json()) as { id: number; name: string; comment: string };
      expect(secret).toMatchObject({ name: "read-as-text", comment: "a\ufffdb" });
      // A byte order mark alone is no body: the DELETE deletes.
      expect((await send("DELETE", `/${secret.id}`, new Uint8Array(bom))).status).toBe(204);
      expect((await fetch(`${url}/${secret.id}`, { headers })).status).toBe(404);
      expect(asBytes).toEqual([]);
    } finally {
      await new Promise((resolve) => own.close(resolve));
    }
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

  it("gives the handler no body for a request that announces none, and the body for one that does", async () => {
    const other = await serve(
      async (given) => new Response(JSON.stringify({ method: given.method, bodyNull: given.body === null, text: await given.text() }), { headers: { "content-type": "application/json" } }),
      { port: 0, hostname: "127.0.0.1" },
    );
    const port = (other.address() as AddressInfo).port;
    /** Sends `head` (and `body`) on a connection of its own, and reads the answer's body. */
    const exchange = (head: string, body = "") =>
      new Promise<unknown>((resolve, reject) => {
        const socket = connect(port, "127.0.0.1", () => socket.end(`${head}\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n${body}`));
        let received = "";
        socket.setEncoding("utf8");
        socket.on("data", (chunk: string) => (received += chunk));
        socket.on("error", reject);
        socket.on("close", () => resolve(JSON.parse(received.slice(received.indexOf("\r\n\r\n") + 4))));
      });
    try {
      // HTTP/1.1: without Content-Length or Transfer-Encoding, a request has no body.
      expect(await exchange("DELETE /things/1 HTTP/1.1")).toEqual({ method: "DELETE", bodyNull: true, text: "" });
      expect(await exchange("POST /things HTTP/1.1")).toEqual({ method: "POST", bodyNull: true, text: "" });
      expect(await exchange("DELETE /things/1 HTTP/1.1\r\nContent-Length: 2", "{}")).toEqual({ method: "DELETE", bodyNull: false, text: "{}" });
      expect(await exchange("POST /things HTTP/1.1\r\nTransfer-Encoding: chunked", "2\r\n{}\r\n0\r\n\r\n")).toEqual({ method: "POST", bodyNull: false, text: "{}" });
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });

  it("deletes on a raw DELETE that says Content-Type: application/json and sends no body, as the platform's SDKs do", async () => {
    const made = await fetch(`${base}/edge/v1/secrets`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ name: "raw-delete", secret_slots: [{ slot: 0, value: "v" }] }),
    });
    const { id } = (await made.json()) as { id: number };
    const port = (server.address() as AddressInfo).port;
    const head = await new Promise<string>((resolve, reject) => {
      // Written, not ended: a client that half-closes its side may be closed before the answer comes.
      const socket = connect(port, "127.0.0.1", () =>
        socket.write(`DELETE /edge/v1/secrets/${id} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${headers.authorization}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n`),
      );
      let received = "";
      socket.setEncoding("utf8");
      socket.on("data", (chunk: string) => (received += chunk));
      socket.on("error", reject);
      socket.on("close", () => resolve(received.slice(0, received.indexOf("\r\n"))));
    });
    expect(head).toBe("HTTP/1.1 204 No Content");
    expect((await fetch(`${base}/edge/v1/secrets/${id}`, { headers })).status).toBe(404);
  });

  it("answers many concurrent requests", async () => {
    const replies = await Promise.all(
      Array.from({ length: 40 }, (_, index) => fetch(`${base}/edge/v1/apps?limit=1&offset=${index}`, { headers })),
    );
    expect(replies.map((reply) => reply.status)).toEqual(replies.map(() => 200));
  });
});

const ADMIN = { authorization: `apikey ${demoToken(1, "role-1-active").plaintext}` };

function baseOf(server: Server): string {
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** What a request over node:http came to: the reply, or the error of a request that got none. */
type Outcome = { reply: Reply; headers: IncomingHttpHeaders } | { error: string };

/** One request with node:http; `body` is written (in pieces, `pauseMs` apart) and the request ended unless `end` is false. */
function send(url: string, options: RequestOptions & { body?: string[]; pauseMs?: number; end?: boolean } = {}): Promise<Outcome> {
  const { body = [], pauseMs = 0, end = true, ...requestOptions } = options;
  return new Promise((resolve) => {
    const outgoing = httpRequest(url, requestOptions, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
      incoming.on("error", (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
      incoming.on("end", () => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === "string") headers.set(name, value);
        const response = new Response(Buffer.concat(chunks), { status: incoming.statusCode!, headers });
        void replyOf(response).then((reply) => resolve({ reply, headers: incoming.headers }));
      });
    });
    outgoing.on("error", (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    void (async () => {
      for (const piece of body) {
        outgoing.write(piece);
        if (pauseMs) await new Promise((wait) => setTimeout(wait, pauseMs));
      }
      if (end) outgoing.end();
    })();
  });
}

function replyIn(outcome: Outcome): Reply & { connection: string | undefined } {
  if ("error" in outcome) throw new Error(`The request got no answer: ${outcome.error}`);
  return { ...outcome.reply, connection: outcome.headers.connection };
}

// What Node's HTTP layer does with hostile and slow clients does not depend on the database: PGlite only.
describe("Node adapter: what Node's HTTP layer refuses, and slow clients", () => {
  const api = useApi("pglite");
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = await serve(api.handler, { port: 0, hostname: "127.0.0.1", headersTimeoutMs: 500, requestTimeoutMs: 1000 });
    base = baseOf(server);
  });
  afterAll(async () => {
    if (server) await shutdown(server, { graceMs: 1000 });
  });

  it("answers a header over 16 KiB, and a 1 MB URL, with 431 in the envelope, and closes the connection", async () => {
    const header = replyIn(await send(`${base}/cdn/clients/me/features`, { headers: { ...ADMIN, "x-big": "a".repeat(64 * 1024) } }));
    expectEnvelope(header, 431, "request_header_fields_too_large");
    expect(header.connection).toBe("close");
    const url = replyIn(await send(`${base}/${"a".repeat(1024 * 1024)}`, { headers: ADMIN }));
    expectEnvelope(url, 431, "request_header_fields_too_large");
    expect(url.body.message).toBe("The request line and headers are over the limit of 16384 bytes (16 KiB).");
  });

  it("answers a method HTTP does not have with 400 in the envelope", async () => {
    const reply = replyIn(await send(`${base}/cdn/clients/me/features`, { method: "FOO", headers: ADMIN }));
    expectEnvelope(reply, 400, "bad_request");
    expect(reply.body.message).toBe("The request cannot be read: its method is not an HTTP method.");
    expect(reply.connection).toBe("close");
  });

  it("answers a request without Host with 400 in the envelope, and serves an Expect it does not know as if it were not there", async () => {
    const hostless = replyIn(await send(`${base}/cdn/clients/me/features`, { headers: ADMIN, setHost: false }));
    expect(expectEnvelope(hostless, 400, "bad_request").message).toBe("The request cannot be read: Missing host header.");
    const expecting = replyIn(await send(`${base}/cdn/clients/me/features`, { headers: { ...ADMIN, expect: "something-else" } }));
    expect(expecting.status).toBe(200);
  });

  it("answers 408 in the envelope, under the request's id, when a body stops coming; the handler logs it so", async () => {
    const reply = replyIn(
      await send(`${base}/edge/v1/secrets`, {
        method: "POST",
        headers: { ...ADMIN, "content-type": "application/json", "content-length": "100", "x-request-id": "slow-upload-1" },
        body: ['{"name":'],
        end: false,
      }),
    );
    expect(expectEnvelope(reply, 408, "request_timeout").request_id).toBe("slow-upload-1");
    expect(reply.body.message).toBe("The request was not received in time: its headers are due within 0.5 s, the whole request within 1 s.");
    expect(reply.connection).toBe("close");
    // The handler's own entry comes once the connection is closed and its read of the body fails.
    await expect.poll(() => api.logs.filter((entry) => entry.request_id === "slow-upload-1").map((entry) => entry.status)).toEqual([408]);
  });

  it("answers 408 under a new request id when the client sent none, the id the handler logs", async () => {
    const reply = replyIn(
      await send(`${base}/edge/v1/secrets`, { method: "PUT", headers: { ...ADMIN, "transfer-encoding": "chunked", "content-type": "application/json" }, body: ["{"], end: false }),
    );
    const { request_id } = expectEnvelope(reply, 408, "request_timeout");
    expect(request_id).toMatch(/^req_[0-9a-f]{32}$/);
    await expect.poll(() => api.logs.filter((entry) => entry.request_id === request_id).map((entry) => entry.status)).toEqual([408]);
  });

  it("takes a client that goes away in the middle of a body for what it is, not for a failure of the server", async () => {
    const sent = await new Promise<Socket>((resolve) => {
      const socket = connect((server.address() as AddressInfo).port, "127.0.0.1", () => {
        // With a valid token: a body is read only once the token is checked (without one, the answer is 401 at once).
        socket.write(
          `POST /edge/v1/secrets HTTP/1.1\r\nHost: x\r\nX-Request-Id: gone-1\r\nAuthorization: ${ADMIN.authorization}\r\n` +
            `Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"na`,
        );
        resolve(socket);
      });
    });
    // The handler has the request once its log entry can come; the client leaves before its body is whole.
    await new Promise((wait) => setTimeout(wait, 100));
    sent.destroy();
    await expect.poll(() => api.logs.find((entry) => entry.request_id === "gone-1")?.status).toBe(400);
    expect(api.takeErrors()).toEqual([]);
  });

  it("holds 1,000 idle and 200 slowloris connections while a normal client keeps being served, then answers each 408 and closes it", async () => {
    const held = await serve(api.handler, { port: 0, hostname: "127.0.0.1", headersTimeoutMs: 2000, requestTimeoutMs: 4000 });
    const { port } = held.address() as AddressInfo;
    const received = new Map<Socket, string>();
    const closed: Promise<void>[] = [];
    const open = (onConnect?: (socket: Socket) => void) =>
      new Promise<Socket>((resolve) => {
        const socket = connect(port, "127.0.0.1", () => {
          onConnect?.(socket);
          resolve(socket);
        });
        received.set(socket, "");
        socket.on("data", (chunk: Buffer) => received.set(socket, received.get(socket) + chunk.toString("latin1")));
        socket.on("error", () => undefined);
        closed.push(new Promise((done) => socket.once("close", () => done())));
      });
    const idle = await Promise.all(Array.from({ length: 1000 }, () => open()));
    const slow = await Promise.all(Array.from({ length: 200 }, () => open((socket) => socket.write("GET /cdn/clients/me/features HTTP/1.1\r\nHost: x\r\n"))));
    // Each slowloris sends one more header line every 100 ms, never the blank line that ends them.
    let line = 0;
    const drip = setInterval(() => {
      line++;
      for (const socket of slow) if (!socket.destroyed) socket.write(`X-Slow-${line}: v\r\n`);
    }, 100);
    try {
      const statuses: number[] = [];
      for (let count = 0; count < 20; count++) statuses.push((await fetch(`${baseOf(held)}/cdn/clients/me/features`, { headers: ADMIN })).status);
      expect(statuses).toEqual(Array.from({ length: 20 }, () => 200));
      await Promise.all(closed);
    } finally {
      clearInterval(drip);
      await shutdown(held, { graceMs: 1000 });
    }
    for (const socket of [...idle, ...slow]) {
      const text = received.get(socket)!;
      expect(text.split("\r\n")[0]).toBe("HTTP/1.1 408 Request Timeout");
      expect(JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4))).toMatchObject({ code: "request_timeout" });
    }
  });
});

describe("Node adapter: shutdown", () => {
  const api = useApi("pglite");

  it("stops accepting, answers the request in flight with Connection: close, closes the idle connection, and resolves", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let arrived!: () => void;
    const inFlight = new Promise<void>((resolve) => (arrived = resolve));
    const server = await serve(
      async (request) => {
        if (request.headers.has("x-hold")) {
          arrived();
          await gate;
        }
        return api.handler(request);
      },
      { port: 0, hostname: "127.0.0.1" },
    );
    const base = baseOf(server);
    const idleAgent = new Agent({ keepAlive: true, maxSockets: 1 });
    const idle = await send(`${base}/cdn/clients/me/features`, { headers: ADMIN, agent: idleAgent });
    expect(replyIn(idle).connection).toBe("keep-alive");
    const [idleSocket] = Object.values(idleAgent.freeSockets).flat();
    const idleClosed = new Promise<void>((resolve) => idleSocket!.once("close", () => resolve()));

    const held = send(`${base}/cdn/clients/me/features`, { headers: { ...ADMIN, "x-hold": "1" }, agent: new Agent({ keepAlive: true }) });
    await inFlight;
    const stopped = shutdown(server, { graceMs: 10_000 });
    expect(shutdown(server)).toBe(stopped);
    expect(await send(`${base}/cdn/clients/me/features`, { headers: ADMIN, agent: false })).toEqual({ error: "ECONNREFUSED" });
    await idleClosed;
    release();
    const answer = replyIn(await held);
    expect([answer.status, answer.connection]).toEqual([200, "close"]);
    expect(await stopped).toEqual({ closedAtGrace: 0 });
    idleAgent.destroy();
  });

  it("keeps every request of keep-alive clients sending in a loop whole: answered, with Connection: close once stopping, or never accepted", async () => {
    const server = await serve(api.handler, { port: 0, hostname: "127.0.0.1" });
    const base = baseOf(server);
    let stopping = false;
    const outcomes: { id: string; sentWhileStopping: boolean; outcome: Outcome }[] = [];
    const client = async (name: number) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      for (let count = 0; ; count++) {
        const id = `loop-${name}-${count}`;
        const sentWhileStopping = stopping;
        const outcome = await send(`${base}/cdn/clients/me/features`, { headers: { ...ADMIN, "x-request-id": id }, agent });
        outcomes.push({ id, sentWhileStopping, outcome });
        if ("error" in outcome) break;
      }
      agent.destroy();
    };
    const clients = Array.from({ length: 6 }, (_, name) => client(name));
    await expect.poll(() => outcomes.length).toBeGreaterThan(60);
    stopping = true;
    const result = await shutdown(server, { graceMs: 5000 });
    await Promise.all(clients);

    expect(result).toEqual({ closedAtGrace: 0 });
    const logged = new Set(api.logs.map((entry) => entry.request_id));
    for (const { id, sentWhileStopping, outcome } of outcomes) {
      if ("error" in outcome) {
        // A request that got no answer was never taken in: the handler never saw it.
        expect(logged.has(id), `${id}: ${outcome.error}`).toBe(false);
        continue;
      }
      expect(outcome.reply.status, id).toBe(200);
      expect(outcome.reply.body, id).toMatchObject({ id: 1 });
      if (sentWhileStopping) expect(outcome.headers.connection, id).toBe("close");
    }
    // Each client's last request was refused: its connection had been closed with its last answer.
    expect(outcomes.filter(({ outcome }) => "error" in outcome).map(({ outcome }) => outcome)).toEqual(Array.from({ length: 6 }, () => ({ error: "ECONNREFUSED" })));
  });

  it("closes the connections still busy when the grace period ends, and says how many", async () => {
    const server = await serve(api.handler, { port: 0, hostname: "127.0.0.1" });
    const base = baseOf(server);
    // A body that never comes whole keeps its request in flight.
    const stuck = send(`${base}/edge/v1/secrets`, { method: "POST", headers: { ...ADMIN, "content-type": "application/json", "content-length": "100" }, body: ["{"], end: false });
    await expect.poll(() => new Promise<number>((resolve) => server.getConnections((_, count) => resolve(count)))).toBe(1);
    expect(await shutdown(server, { graceMs: 200 })).toEqual({ closedAtGrace: 1 });
    expect(await stuck).toEqual({ error: "ECONNRESET" });
  });
});
