/**
 * The peers on Node (peer-core.ts on Hono, served by servers/peer.ts; fastify-peer-core.ts on Fastify,
 * served by servers/fastify-peer.ts) and their checks before any load: in the benchmark's process, that
 * a peer sends exactly the statements our handler sends for each route's data (its own token lookup
 * aside); over HTTP, that it answers every request of the run with ours' status (a success) and the very
 * body ours answers (but `updated`, the time of a write, and what a create makes itself: its id, its
 * stream key, its time), and a wrong token 401.
 */
import { compareStatements, recording, variantKey, type RawDatabase } from "./baseline-core.js";
import { openRawDatabase } from "./baseline.js";
import type { CapturedStatement, RouteSql } from "./capture.js";
import type { DatabaseLocation } from "./databases.js";
import { createFastifyPeerApp } from "./fastify-peer-core.js";
import { createPeerApp } from "./peer-core.js";
import { answeredId, AUTHORIZATION, jsonOf, requestPath, type BenchRequest, type BenchRoute } from "./scenario.js";

/** The peers: on Hono with @hono/zod-openapi, and on Fastify. */
export type PeerKind = "peer" | "fastifyPeer";

export const PEER_NAMES: Record<PeerKind, string> = { peer: "the peer", fastifyPeer: "the Fastify peer" };

/** A request sent to a peer in this process, without a server: its status and body text. */
type InProcess = (url: URL, init: RequestInit) => Promise<{ status: number; text: string }>;

/** `kind`'s app in this process on `db`, each token looked up every time; and how to close it. */
async function inProcess(kind: PeerKind, db: RawDatabase, statements: RouteSql): Promise<{ send: InProcess; close: () => Promise<void> }> {
  if (kind === "peer") {
    const app = createPeerApp({ connect: () => ({ db, statements }), authCacheMs: 0 });
    return {
      send: async (url, init) => {
        const response = await app.request(url, init);
        return { status: response.status, text: await response.text() };
      },
      close: () => Promise.resolve(),
    };
  }
  const app = createFastifyPeerApp({ db, statements, authCacheMs: 0 });
  await app.ready();
  return {
    send: async (url, init) => {
      const response = await app.inject({
        method: init.method as "GET",
        url: `${url.pathname}${url.search}`,
        headers: { ...(init.headers as Record<string, string>), host: url.host },
        ...(init.body === undefined ? {} : { payload: init.body as string }),
      });
      return { status: response.statusCode, text: response.body };
    },
    close: () => app.close(),
  };
}

function init(request: BenchRequest, authorization: string): RequestInit {
  return {
    method: request.method,
    headers: { authorization, ...(request.body === undefined ? {} : { "content-type": "application/json" }) },
    ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
  };
}

/**
 * Runs each request through the peer `kind` in this process on `location` and returns how the statements
 * it sent for the route's data differ from ours (none: the same SQL, in the same order, with the same
 * parameters), or how it failed.
 */
export async function verifyPeerStatements(location: DatabaseLocation, statements: RouteSql, requests: BenchRequest[], kind: PeerKind = "peer"): Promise<string[]> {
  const log: CapturedStatement[] = [];
  const db = recording(await openRawDatabase(location, { max: 2 }), log);
  const peer = await inProcess(kind, db, statements);
  const differences: string[] = [];
  try {
    // Twice: the second time reads what the first one wrote. In turn: a path may follow from the answer before.
    let previous: unknown;
    let madeId: number | undefined;
    for (const request of [...requests, ...requests]) {
      log.length = 0;
      const url = new URL(requestPath(request, previous), "http://bench.local");
      const key = variantKey(request.method, url, request.body)!;
      const { status, text } = await peer.send(url, init(request, AUTHORIZATION));
      const ok = status >= 200 && status < 300;
      if (!ok) differences.push(`${key}: ${PEER_NAMES[kind]} answered ${status} ${text}`);
      previous = text && ok ? (JSON.parse(text) as unknown) : undefined;
      madeId = request.made ? (answeredId(previous) ?? madeId) : undefined;
      const sent = log.filter((statement) => !/\bapi_tokens\b/.test(statement.sql));
      differences.push(...compareStatements(key, statements[key] ?? [], sent, request.made && { made: request.made, id: madeId }));
    }
  } finally {
    await peer.close();
    await db.close();
  }
  return differences;
}

/** The first place where two JSON values differ, or undefined; `updated` (the time of a write) is not compared. */
export function bodyDifference(ours: unknown, peer: unknown, path = "body"): string | undefined {
  if (ours === peer) return undefined;
  if (Array.isArray(ours) && Array.isArray(peer)) {
    if (ours.length !== peer.length) return `${path}: ${ours.length} items, the peer ${peer.length}`;
    for (let index = 0; index < ours.length; index++) {
      const found = bodyDifference(ours[index], peer[index], `${path}.${index}`);
      if (found) return found;
    }
    return undefined;
  }
  if (ours && peer && typeof ours === "object" && typeof peer === "object" && !Array.isArray(ours) && !Array.isArray(peer)) {
    const keys = new Set([...Object.keys(ours), ...Object.keys(peer)]);
    for (const key of keys) {
      if (key === "updated") continue;
      if (!(key in ours) || !(key in peer)) return `${path}.${key}: only in ${key in ours ? "ours" : "the peer's"}`;
      const found = bodyDifference((ours as Record<string, unknown>)[key], (peer as Record<string, unknown>)[key], `${path}.${key}`);
      if (found) return found;
    }
    return undefined;
  }
  return `${path}: ours ${JSON.stringify(ours)}, the peer ${JSON.stringify(peer)}`;
}

/** One side of a chain of requests: the answer a path follows from, and the id of the object a create made. */
export interface Side {
  previous: unknown;
  madeId?: number;
}

/** How the peer's answer to `request` differs from ours, comparing a create's answers without what each side made itself. */
export function answerDifference(request: BenchRequest, ours: { body: unknown }, oursSide: Side, peer: { body: unknown }, peerSide: Side): string | undefined {
  const { made } = request;
  if (!made) return bodyDifference(ours.body, peer.body);
  if (oursSide.madeId === undefined || peerSide.madeId === undefined) return "no id of the object made to compare by";
  return bodyDifference(made(ours.body, oursSide.madeId), made(peer.body, peerSide.madeId));
}

/** Sends `request` to `base` after `side`'s answer before; keeps this answer (JSON, or undefined) for the next. */
async function sendInTurn(base: string, request: BenchRequest, side: Side): Promise<{ status: number; text: string; body: unknown; path: string }> {
  const path = requestPath(request, side.previous);
  const response = await fetch(new URL(path, base), init(request, AUTHORIZATION));
  const text = await response.text();
  const body = jsonOf(text);
  side.previous = response.ok ? body : undefined;
  side.madeId = request.made ? (answeredId(side.previous) ?? side.madeId) : undefined;
  return { status: response.status, text, body, path };
}

/**
 * Over HTTP, before any load: every request of `routes` to our server and to the peer `kind` at
 * `peerUrl` (in turn, each side's path following from its own answer before where it does), each
 * answered with the same success status and the same body; and the peer refusing a wrong token with
 * 401. Returns what failed (none: passed).
 */
export async function verifyPeerAnswers(oursUrl: string, peerUrl: string, routes: BenchRoute[], kind: PeerKind = "peer"): Promise<string[]> {
  const name = PEER_NAMES[kind];
  const problems: string[] = [];
  for (const route of routes) {
    const oursSide: Side = { previous: undefined };
    const peerSide: Side = { previous: undefined };
    for (const request of route.requests) {
      const ours = await sendInTurn(oursUrl, request, oursSide);
      const peer = await sendInTurn(peerUrl, request, peerSide);
      const what = `${request.method} ${ours.path}`;
      if (ours.status < 200 || ours.status >= 300 || peer.status !== ours.status) {
        problems.push(`${what}: ours answered ${ours.status}, ${name} ${peer.status} ${peer.text.slice(0, 200)}`);
        continue;
      }
      const found = answerDifference(request, ours, oursSide, peer, peerSide);
      if (found) problems.push(`${what}: ${kind === "peer" ? found : found.replaceAll("the peer", name)}`);
    }
  }
  for (const route of routes) {
    const request = route.requests[0]!;
    const path = requestPath(request, undefined);
    const refused = await fetch(new URL(path, peerUrl), init(request, "apikey not-a-token"));
    await refused.arrayBuffer();
    if (refused.status !== 401) problems.push(`${request.method} ${path} with a wrong token: ${name} answered ${refused.status}, not 401`);
  }
  return problems;
}
