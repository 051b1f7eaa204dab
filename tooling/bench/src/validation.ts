/**
 * Part 6: the worst request bodies a client can send within the 1 MiB body limit, each answered by the
 * real handler in this process on a fresh demo database, one at a time, several rounds. For each: the
 * status, the time to the answer, the longest stretch the event loop was held (what every other request
 * waits for) and, for comparison, JSON.parse of the body alone; the least of the rounds, as the cost
 * with the least interference from other work on the machine.
 * `node --import tsx src/validation.ts` runs this part alone and prints it.
 */
import { pathToFileURL } from "node:url";
import { demoToken, type Engine } from "@cloudplane/db";
import { createTestDatabase } from "@cloudplane/db/testing";
import { createHandler } from "@cloudplane/handlers";
import { benchEngines } from "./databases.js";

/** The body limit of the API (413 over it): every body here stays under it. */
const BODY_LIMIT = 1024 * 1024;
/** The goal: no request holds the event loop longer than this. */
export const VALIDATION_BLOCK_GOAL_MS = 50;

export interface ValidationCase {
  id: string;
  title: string;
  method: "PUT" | "POST" | "PATCH";
  path: string;
  /** The body as sent: JSON text. */
  body: () => string;
  /** Sent without a token (default: account 1's administrator's). */
  tokenless?: true;
}

/** 500,000 `[` then as many `]`: a 1 MB body nested as deep as the limit lets it. */
const nestedArrays = () => `${"[".repeat(500_000)}${"]".repeat(500_000)}`;

/** As many items `item(i)` as fit in `body(items)` under the limit (found by doubling, then bisecting). */
function fill<T>(item: (index: number) => T, wrap: (items: T[]) => unknown, cap = Number.POSITIVE_INFINITY): string {
  const size = (count: number) => JSON.stringify(wrap(Array.from({ length: count }, (_, index) => item(index)))).length;
  let low = 0;
  let high = 1;
  while (high <= cap && size(high) <= BODY_LIMIT) [low, high] = [high, high * 2];
  high = Math.min(high, cap + 1);
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (size(middle) <= BODY_LIMIT) low = middle;
    else high = middle;
  }
  return JSON.stringify(wrap(Array.from({ length: low }, (_, index) => item(index))));
}

const profileBody = (fieldValue: unknown) => ({ profile_template: 1, ip_address: "192.0.2.44", fields: [{ base_field: 1, field_value: fieldValue }], site: "ED" });
/** VALIDATION_UNIQUE_ITEMS caps the quadratic case (the code before the fix takes minutes on a whole MiB). */
const uniqueCap = Number(process.env.VALIDATION_UNIQUE_ITEMS ?? Number.POSITIVE_INFINITY);

export const VALIDATION_CASES: ValidationCase[] = [
  {
    id: "uniqueItems",
    title: "Security profile: one field_value of distinct integers (uniqueItems, maxItems 64)",
    method: "PUT",
    path: "/security/iaas/v2/profiles/1",
    body: () => fill((index) => 100_000 + index, profileBody, uniqueCap),
  },
  {
    id: "deepValue",
    title: "Security profile: one field_value nested as deep as the body allows",
    method: "PUT",
    path: "/security/iaas/v2/profiles/1",
    body: () => {
      const depth = Math.floor((BODY_LIMIT - 200) / 2);
      return JSON.stringify(profileBody("@")).replace('"@"', "[".repeat(depth) + "]".repeat(depth));
    },
  },
  {
    id: "nestedArrays",
    title: "Edge app: 500,000 nested `[` (1 MB)",
    method: "POST",
    path: "/edge/v1/apps",
    body: nestedArrays,
  },
  {
    id: "nestedArraysTokenless",
    title: "Edge app: 500,000 nested `[` (1 MB), without a token",
    method: "POST",
    path: "/edge/v1/apps",
    body: nestedArrays,
    tokenless: true,
  },
  {
    id: "unknownFields",
    title: "Edge app: unknown fields",
    method: "PUT",
    path: "/edge/v1/apps/1",
    body: () => fill((index) => [`f${index}`, 0] as const, (pairs) => Object.fromEntries(pairs)),
  },
  {
    id: "secretsMap",
    title: "Edge app: a secrets map of references to secrets that do not exist",
    method: "PUT",
    path: "/edge/v1/apps/1",
    body: () => fill((index) => [`S${index}`, { id: 1_000_000 + index }] as const, (pairs) => ({ secrets: Object.fromEntries(pairs) })),
  },
  {
    id: "badItems",
    title: "Cost report: regions of which every item fails",
    method: "POST",
    path: "/cloud/v1/reservation_cost_report/totals",
    body: () => fill(() => 0, (regions) => ({ time_from: "2026-01", time_to: "2026-03", regions })),
  },
  {
    id: "optionsAtMax",
    title: "CDN resource: every list of the options at its maximum, with valid items (written and answered)",
    method: "PATCH",
    path: "/cdn/resources/1",
    body: () => {
      const list = <T>(count: number, item: (index: number) => T) => Array.from({ length: count }, (_, index) => item(index));
      const domain = (index: number) => `${"a".repeat(40)}-${index}.${"b".repeat(40)}.example.com`;
      const options = {
        cors: { enabled: true, value: list(100, domain) },
        country_acl: { enabled: true, policy_type: "allow", excepted_values: list(1000, () => "DE") },
        ip_address_acl: { enabled: true, policy_type: "deny", excepted_values: list(1000, (index) => `2001:db8:${index.toString(16)}:1:2:3:4:0/112`) },
        referrer_acl: { enabled: true, policy_type: "deny", excepted_values: list(1000, (index) => `*.${domain(index)}`) },
        user_agent_acl: { enabled: true, policy_type: "deny", excepted_values: list(1000, (index) => `Mozilla/5.0 (bench ${index}) ${"x".repeat(100)}`) },
        static_response_headers: {
          enabled: true,
          value: list(100, (index) => ({ name: `x-bench-${index}`, value: list(100, (item) => `v${item}`) })),
        },
        staticRequestHeaders: { enabled: true, value: Object.fromEntries(list(100, (index) => [`x-request-${index}`, "y".repeat(100)] as const)) },
      };
      return JSON.stringify({ options });
    },
  },
  {
    id: "unstorableText",
    title: "CDN resource: strings with a NUL character",
    method: "PATCH",
    path: "/cdn/resources/1",
    body: () => fill(() => "\u0000", (value) => ({ options: { cors: { enabled: true, value } } })),
  },
];

export interface ValidationRow {
  id: string;
  title: string;
  bodyBytes: number;
  status: number;
  responseBytes: number;
  /** The answer's message. */
  message: string;
  /** The least over the rounds (as every figure here): the time to the whole answer. */
  durationMs: number;
  /** The longest the event loop was held while the request was served. */
  maxBlockMs: number;
  /** JSON.parse of the same body alone: the part of the hold that comes before any of our code. */
  parseMs: number;
}

export interface ValidationPart {
  engine: Engine;
  rounds: number;
  rows: ValidationRow[];
}

/**
 * The longest gap between two turns of the event loop from now until `stop()`: a setImmediate chain
 * notes the time each turn, so a stretch of synchronous work shows as one gap, whatever did it.
 */
function watchEventLoop(): { stop(): Promise<number> } {
  let last = performance.now();
  let longest = 0;
  let running = true;
  let stopped: (() => void) | undefined;
  const turn = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    if (running) setImmediate(turn);
    else stopped?.();
  };
  setImmediate(turn);
  return {
    stop: () =>
      new Promise<number>((resolve) => {
        stopped = () => resolve(longest);
        running = false;
      }),
  };
}

/** The least of the rounds: the cost itself, with the least of the other work on the (shared) machine in it. */
const least = (values: number[]) => Math.min(...values);

/** A full collection when node runs with --expose-gc, so that one case's garbage is not collected during the next. */
const collect = () => (globalThis as { gc?: () => void }).gc?.();

/** Each case `rounds` times on a fresh demo database on `engine`, after one warm-up request. */
export async function measureValidation(engine: Engine, rounds = Number(process.env.VALIDATION_ROUNDS ?? 5)): Promise<ValidationPart> {
  const database = await createTestDatabase({ engine });
  try {
    const handler = createHandler({ db: database.db, secretsKey: database.secretsKey, rateLimit: false, timeoutMs: 600_000 });
    const authorization = `apikey ${demoToken(1, "role-1-active").plaintext}`;
    const send = (method: string, path: string, body: string, tokenless = false) =>
      handler(
        new Request(`http://bench.test${path}`, {
          method,
          headers: { ...(tokenless ? {} : { authorization }), "content-type": "application/json" },
          body,
        }),
      );
    await (await send("PUT", "/cdn/clients/me", JSON.stringify({ utilization_level: 1 }))).text();
    const rows: ValidationRow[] = [];
    for (const item of VALIDATION_CASES) {
      const body = item.body();
      const durations: number[] = [];
      const blocks: number[] = [];
      const parses: number[] = [];
      let last = { status: 0, text: "" };
      for (let round = 0; round < rounds; round++) {
        collect();
        const parseStarted = performance.now();
        JSON.parse(body);
        parses.push(performance.now() - parseStarted);
        collect();
        const loop = watchEventLoop();
        const started = performance.now();
        const response = await send(item.method, item.path, body, item.tokenless);
        last = { status: response.status, text: await response.text() };
        durations.push(performance.now() - started);
        blocks.push(await loop.stop());
      }
      const row: ValidationRow = {
        id: item.id,
        title: item.title,
        bodyBytes: body.length,
        status: last.status,
        responseBytes: last.text.length,
        message: (JSON.parse(last.text) as { message?: string }).message ?? "",
        durationMs: least(durations),
        maxBlockMs: least(blocks),
        parseMs: least(parses),
      };
      console.log(
        `  ${engine} ${item.id}: ${(row.bodyBytes / 1024).toFixed(0)} KiB → ${row.status}, ${(row.responseBytes / 1024).toFixed(1)} KiB answer, ` +
          `${row.durationMs.toFixed(1)} ms, event loop held ${row.maxBlockMs.toFixed(1)} ms at most (JSON.parse alone ${row.parseMs.toFixed(1)} ms): ` +
          row.message.slice(0, 100),
      );
      rows.push(row);
    }
    return { engine, rounds, rows };
  } finally {
    await database.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  for (const engine of benchEngines()) await measureValidation(engine);
}
