/**
 * The test harness: the real handler on a fresh, seeded database (PGlite, or PostgreSQL when
 * DATABASE_URL is set), with response validation on, called in-process the way a client calls it.
 * Every reply, log entry and error report is recorded for the secrets scan (test/secrets-scan.ts).
 */
import { demoToken, type DemoAccountId, type DemoTokenName } from "@cloudplane/db";
import { createTestDatabase, engines, type TestDatabase } from "@cloudplane/db/testing";
import type { Engine } from "@cloudplane/db";
import { expect, inject } from "vitest";
import { SERVE_API, type ApiHandler, type ApiInput, type ApiOutput } from "../src/handler.js";
import { createHandler, type Handler, type RequestLogEntry } from "../src/index.js";
import { credentialOf, RunRecorder, secretsInBody } from "./secrets-scan.js";

export { engines };

export const BASE = "http://api.test";

export interface CallOptions {
  /** Whose token: [account, token name]. Default: account 1's administrator. */
  as?: [DemoAccountId, DemoTokenName];
  /** The whole Authorization header instead (null: none). */
  authorization?: string | null;
  /** A JSON body. */
  body?: unknown;
  /** A body sent as it is, e.g. malformed JSON. */
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body (undefined when the body is not JSON). */
  body: any;
}

export interface TestApi {
  engine: Engine;
  database: TestDatabase;
  handler: Handler;
  /** Errors the handler reported as unexpected; every suite checks this stays empty. */
  errors: unknown[];
  logs: RequestLogEntry[];
  call(method: string, path: string, options?: CallOptions): Promise<Reply>;
  close(): Promise<void>;
}

/** A reply in the error envelope: its status, JSON, the code, a message, and request_id equal to the header. */
export function expectEnvelope(reply: Reply, status: number, code: string): void {
  expect(reply.status, reply.text).toBe(status);
  expect(reply.headers.get("content-type")).toContain("application/json");
  expect(reply.body).toMatchObject({ code, message: expect.any(String), request_id: reply.headers.get("x-request-id") });
}

export function authorization(as: [DemoAccountId, DemoTokenName]): string {
  return `apikey ${demoToken(as[0], as[1]).plaintext}`;
}

/** The run's recorder for the secrets scan; none outside a vitest run with test/global-setup.ts. */
function openRecorder(): RunRecorder | undefined {
  const directory = inject("secretsScanDirectory");
  return directory ? new RunRecorder(directory) : undefined;
}

/** Notes the secrets a request sends (its credential, secret fields of its JSON body) for the scan. */
async function noteSentSecrets(recorder: RunRecorder, request: Request): Promise<void> {
  const credential = credentialOf(request.headers.get("authorization"));
  if (credential) recorder.sentSecret(credential, `credential sent to ${request.method} ${new URL(request.url).pathname}`);
  if (!request.body) return;
  let body: unknown;
  try {
    body = JSON.parse(await request.clone().text());
  } catch {
    return;
  }
  for (const secret of secretsInBody(body)) recorder.sentSecret(secret, `secret sent to ${request.method} ${new URL(request.url).pathname}`);
}

/** `handler`, recording each request's secrets and each reply, on the fetch path and on the adapters' direct path. */
function recording(handler: Handler, recorder: RunRecorder | undefined): Handler {
  if (!recorder) return handler;
  const serveApi = (handler as ApiHandler)[SERVE_API];
  const viaFetch = async (request: Request) => {
    await noteSentSecrets(recorder, request);
    const response = await handler(request);
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => (headers[name] = value));
    const url = new URL(request.url);
    const body = await response.clone().text();
    recorder.record({ kind: "reply", method: request.method, path: `${url.pathname}${url.search}`, status: response.status, headers, body });
    return response;
  };
  const direct = async (input: ApiInput): Promise<ApiOutput> => {
    let sent: string | undefined;
    const output = await serveApi({ ...input, readBody: async () => (sent = await input.readBody()) });
    const where = `${input.method} ${input.url.pathname}`;
    const credential = credentialOf(input.header("authorization"));
    if (credential) recorder.sentSecret(credential, `credential sent to ${where}`);
    try {
      for (const secret of secretsInBody(JSON.parse(sent ?? ""))) recorder.sentSecret(secret, `secret sent to ${where}`);
    } catch {
      // Not JSON: no secret fields.
    }
    recorder.record({ kind: "reply", method: input.method, path: `${input.url.pathname}${input.url.search}`, status: output.status, headers: output.headers, body: output.body });
    return output;
  };
  return Object.assign(viaFetch, { [SERVE_API]: direct });
}

export async function startApi(engine: Engine): Promise<TestApi> {
  const database = await createTestDatabase({ engine });
  const errors: unknown[] = [];
  const logs: RequestLogEntry[] = [];
  const recorder = openRecorder();
  const served = createHandler({
    db: database.db,
    secretsKey: database.secretsKey,
    responseValidation: true,
    // The limiter runs on every request, with a budget no suite reaches; rate-limit.test.ts tests the real one.
    rateLimit: { rate: 100_000, burst: 100_000 },
    onError: (report, requestId) => {
      errors.push(report);
      recorder?.record({ kind: "error", report, request_id: requestId });
    },
    onRequest: (entry) => {
      logs.push(entry);
      recorder?.record({ kind: "log", entry });
    },
  });
  const recorded = recording(served, recorder);
  const api: TestApi = {
    engine,
    database,
    errors,
    logs,
    handler: recorded,
    async call(method, path, options = {}) {
      const headers = new Headers(options.headers);
      const auth = options.authorization === undefined ? authorization(options.as ?? [1, "role-1-active"]) : options.authorization;
      if (auth !== null && !headers.has("authorization")) headers.set("authorization", auth);
      let body: string | undefined = options.rawBody;
      if (options.body !== undefined) {
        body = JSON.stringify(options.body);
        if (!headers.has("content-type")) headers.set("content-type", "application/json");
      }
      const response = await api.handler(new Request(`${BASE}${path}`, { method, headers, body }));
      const text = await response.text();
      let parsed: unknown;
      if (response.headers.get("content-type")?.includes("json")) parsed = JSON.parse(text);
      return { status: response.status, headers: response.headers, text, body: parsed };
    },
    close: async () => {
      recorder?.flush();
      await database.close();
    },
  };
  return api;
}
