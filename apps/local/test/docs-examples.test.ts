/**
 * Every example of the docs runs against the local app on the demo data, with the demo administrator's
 * key. For each operation of the reference (openapi.json, as the app serves it at /docs/), three forms
 * of its example must make one and the same request: the curl sample run by a shell, the TypeScript
 * sample run as a program of its own with the client (an alias's calls its primary's method, so its
 * request has the primary's method and path), and the reference's Test Request (the parameters'
 * and the body's examples, sent to the first server the document names). The curl sample goes on to
 * the app, which must answer with the operation's documented success status. On PGlite always, and on
 * PostgreSQL when DATABASE_URL is set. And in Chromium (at /usr/bin/chromium), on the reference page the
 * app serves, Test Request at the first click (the demo key is filled in) goes to the app's own origin and gets that status.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createTestDatabase, type TestDatabase } from "@cloudplane/db/testing";
import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalProcess, type LocalProcess } from "./local-process.js";

const run = promisify(execFile);

/** The app's folder: the TypeScript samples run from it, so that `@cloudplane/client` resolves as in a project that installed it. */
const APP_DIR = fileURLToPath(new URL("..", import.meta.url));
const CLIENT_IMPORT = 'import { createClient } from "@cloudplane/client";';

interface Operation {
  operationId: string;
  parameters: Array<{ name: string; in: "path" | "query"; example?: string | number | boolean }>;
  requestBody?: { content: Record<string, { example?: unknown }> };
  responses: Record<string, { headers?: Record<string, { example?: string | number }>; content?: Record<string, { example?: unknown }> }>;
  "x-codeSamples": Array<{ lang: string; source: string }>;
}

interface OpenApiDocument {
  servers: Array<{ url: string }>;
  paths: Record<string, Record<string, Operation>>;
}

/** A request as the app would get it: what must be the same in every form of an example. */
interface SentRequest {
  method: string;
  path: string;
  query: Array<[string, string]>;
  authorization: string | undefined;
  contentType: string | undefined;
  body: unknown;
}

/** The answer the recorder gives: the app's, or a documented one. */
type Answer = { forwardTo: string } | { status: number; headers: Record<string, string>; body: unknown };

/** A server between the samples and the app that records each request and answers as it is told. */
class Recorder {
  readonly requests: Array<SentRequest & { status: number; answered?: string }> = [];
  answer: Answer = { status: 599, headers: {}, body: null };
  #server: Server = createServer((request, response) => {
    void this.#handle(request).then(
      ({ status, headers, body }) => response.writeHead(status, headers).end(body),
      (error: unknown) => response.writeHead(599).end(String(error)),
    );
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise((resolve) => this.#server.close(resolve));
  }

  /** The requests since the last take. */
  take(): Array<SentRequest & { status: number; answered?: string }> {
    return this.requests.splice(0);
  }

  async #handle(request: IncomingMessage): Promise<{ status: number; headers: Record<string, string>; body: string }> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const text = raw.toString("utf8");
    const url = new URL(request.url ?? "/", "http://recorder");
    const contentType = raw.length ? request.headers["content-type"] : undefined;
    const sent = {
      method: request.method ?? "",
      path: url.pathname,
      query: [...url.searchParams.entries()].sort(),
      authorization: request.headers.authorization,
      contentType,
      // A JSON body as its value; raw bytes (an edge binary's upload) as their hex.
      body: raw.length ? (/\bjson\b/i.test(contentType ?? "") ? (JSON.parse(text) as unknown) : raw.toString("hex")) : undefined,
    };
    const answer = this.answer;
    if ("forwardTo" in answer) {
      const reply = await fetch(new URL(`${url.pathname}${url.search}`, answer.forwardTo), {
        method: sent.method,
        headers: { ...(sent.authorization ? { authorization: sent.authorization } : {}), ...(raw.length ? { "content-type": sent.contentType ?? "" } : {}) },
        ...(raw.length ? { body: raw } : {}),
      });
      const body = await reply.text();
      this.requests.push({ ...sent, status: reply.status, answered: body.slice(0, 300) });
      return { status: reply.status, headers: { "content-type": reply.headers.get("content-type") ?? "text/plain" }, body };
    }
    this.requests.push({ ...sent, status: answer.status });
    return { status: answer.status, headers: { "content-type": "application/json", ...answer.headers }, body: JSON.stringify(answer.body) };
  }
}

/** The operation's documented success status and its example response (body and headers). */
function documentedSuccess(operation: Operation): { status: number; headers: Record<string, string>; body: unknown } {
  const [status, response] = Object.entries(operation.responses).find(([code]) => Number(code) >= 200 && Number(code) < 300)!;
  const headers = Object.fromEntries(
    Object.entries(response.headers ?? {}).flatMap(([name, header]) => (header.example === undefined ? [] : [[name, String(header.example)]])),
  );
  return { status: Number(status), headers, body: response.content?.["application/json"]?.example ?? null };
}

function sample(operation: Operation, lang: "TypeScript" | "Shell"): string {
  const found = operation["x-codeSamples"].find((candidate) => candidate.lang === lang);
  if (!found) throw new Error(`${operation.operationId} has no ${lang} sample`);
  return found.source;
}

/**
 * The request the reference's Test Request makes: the first server of the document on `origin` (the
 * page's, when it is a path), the path with the path parameters' examples, the query parameters that
 * have an example, the body's example, and the key in the Authorization header as the scheme says.
 */
function testRequest(document: OpenApiDocument, origin: string, path: string, method: string, operation: Operation, apiKey: string): Request {
  const server = document.servers[0]!.url;
  const filled = path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const parameter = operation.parameters.find((candidate) => candidate.in === "path" && candidate.name === name);
    if (parameter?.example === undefined) throw new Error(`${operation.operationId}: path parameter ${name} has no example`);
    return encodeURIComponent(String(parameter.example));
  });
  const query = new URLSearchParams(
    operation.parameters.flatMap((parameter) => (parameter.in === "query" && parameter.example !== undefined ? [[parameter.name, String(parameter.example)]] : [])),
  ).toString();
  // The body's one media type: JSON, or raw bytes whose example is the string of them (sent as UTF-8, those bytes).
  const [mediaType, media] = Object.entries(operation.requestBody?.content ?? {})[0] ?? [];
  const body = media?.example;
  return new Request(`${origin}${server.replace(/\/+$/, "")}${filled}${query ? `?${query}` : ""}`, {
    method: method.toUpperCase(),
    headers: { authorization: `apikey ${apiKey}`, ...(body === undefined ? {} : { "content-type": mediaType! }) },
    ...(body === undefined ? {} : { body: mediaType === "application/json" ? JSON.stringify(body) : (body as string) }),
  });
}

interface DocumentedOperation {
  path: string;
  method: string;
  operation: Operation;
}

/** The primary operation an alias stands for, as its description names it (`An alias of \`GET /edge/v1/apps/:id\``), or undefined. */
function primaryOf(operation: Operation & { description?: string }): string | undefined {
  const named = /^An alias of `(\w+) ([^`]+)`/.exec(operation.description ?? "");
  return named ? `${named[1]!.toLowerCase()} ${named[2]!.replace(/:(\w+)/g, "{$1}")}` : undefined;
}

/** `concrete`, a path of the pattern `from` (`/iam/v2/clients/{clientId}/tokens`), moved to the pattern `to` with the same parameters. */
function samePathAt(from: string, to: string, concrete: string): string {
  const names = [...from.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
  const values = new RegExp(`^${from.replace(/\{\w+\}/g, "([^/]+)")}$`).exec(concrete)?.slice(1);
  if (!values) throw new Error(`${concrete} is not a path of ${from}.`);
  return to.replace(/\{(\w+)\}/g, (whole, name: string) => (names.includes(name) ? values[names.indexOf(name)]! : whole));
}

/**
 * The rounds the examples run in, each on an app of its own with the demo data: the operations in the
 * document's order, then again with each alias in its primary's place (the nth alias in round n), since
 * an alias's example is its primary's and would find the object its primary made, changed or deleted.
 * In a later round the operations that are not aliases only replay their curl sample, to bring the app
 * to the state the alias's primary found.
 */
function rounds(document: OpenApiDocument): Array<Array<DocumentedOperation & { checked: boolean }>> {
  const operations = Object.entries(document.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ path, method, operation })));
  const aliases = new Map<string, DocumentedOperation[]>();
  for (const entry of operations) {
    const primary = primaryOf(entry.operation);
    if (primary) aliases.set(primary, [...(aliases.get(primary) ?? []), entry]);
  }
  const primaries = operations.filter((entry) => !primaryOf(entry.operation));
  const count = Math.max(0, ...[...aliases.values()].map((list) => list.length));
  return [
    primaries.map((entry) => ({ ...entry, checked: true })),
    ...Array.from({ length: count }, (_, n) =>
      primaries.map((entry) => {
        const alias = aliases.get(`${entry.method} ${entry.path}`)?.[n];
        return alias ? { ...alias, checked: true } : { ...entry, checked: false };
      }),
    ),
  ];
}

/** Registers the examples' tests against the app `current()` returns, and `another()` starts for each later round. */
function examplesSuite(current: () => LocalProcess, another: () => Promise<LocalProcess & { close(): Promise<void> }>) {
  let document: OpenApiDocument;
  let recorder: Recorder;
  let recorderUrl: string;

  beforeAll(async () => {
    const served = await fetch(`${current().url}/docs/openapi.json`);
    expect(served.status, "the docs are not built: pnpm --filter @cloudplane/docs build").toBe(200);
    document = (await served.json()) as OpenApiDocument;
    recorder = new Recorder();
    recorderUrl = await recorder.start();
  });
  afterAll(async () => {
    await recorder?.close();
  });

  it("names the API that serves the docs as the reference's first server, so Test Request goes to the page's own origin", () => {
    expect(document.servers[0]!.url).toBe("/");
  });

  /** Runs one operation's example forms (all three when `checked`, else the curl sample alone) against `app`. */
  async function runExample(app: LocalProcess, { path, method, operation, checked }: DocumentedOperation & { checked: boolean }, failures: string[]) {
    const documented = documentedSuccess(operation);
    const shell = () =>
      run("sh", ["-c", sample(operation, "Shell")], { env: { ...process.env, CLOUDPLANE_BASE_URL: recorderUrl, CLOUDPLANE_API_KEY: app.adminApiKey } });
    if (!checked) {
      recorder.answer = { forwardTo: app.url };
      await shell();
      const [replayed] = recorder.take();
      if (replayed?.status !== documented.status) failures.push(`${operation.operationId} (replayed): answered ${replayed?.status}, documented ${documented.status}`);
      return;
    }

    // The TypeScript sample, as a program of its own (an ES module, as it is written), answered with the documented response.
    const typescript = sample(operation, "TypeScript");
    expect(typescript.startsWith(`${CLIENT_IMPORT}\n`), operation.operationId).toBe(true);
    recorder.answer = documented;
    await run(process.execPath, ["--input-type=module", "--eval", typescript], {
      cwd: APP_DIR,
      env: { ...process.env, CLOUDPLANE_BASE_URL: recorderUrl, CLOUDPLANE_API_KEY: app.adminApiKey },
    });
    const [fromClient, ...moreFromClient] = recorder.take();

    // The Test Request, on the recorder in the page's place.
    const reply = await fetch(testRequest(document, recorderUrl, path, method, operation, app.adminApiKey));
    expect(reply.status, operation.operationId).toBe(documented.status);
    const [fromTestRequest, ...moreFromTestRequest] = recorder.take();

    // The curl sample, through the recorder to the app.
    recorder.answer = { forwardTo: app.url };
    await shell();
    const [fromCurl, ...moreFromCurl] = recorder.take();

    expect([moreFromClient, moreFromTestRequest, moreFromCurl], operation.operationId).toEqual([[], [], []]);
    expect(fromCurl, operation.operationId).toBeDefined();
    const { status, answered, ...request } = fromCurl!;
    expect(request.authorization, operation.operationId).toBe(`apikey ${app.adminApiKey}`);
    expect(request.method, operation.operationId).toBe(method.toUpperCase());
    if (request.body !== undefined) expect(request.contentType?.split(";")[0], operation.operationId).toBe(Object.keys(operation.requestBody!.content)[0]);
    // An alias's TypeScript sample calls its primary's method: the same request, with the primary's method and path.
    const [primaryMethod, primaryPath] = primaryOf(operation)?.split(" ") ?? [];
    expect({ ...fromClient, status: undefined, answered: undefined, contentType: fromClient?.contentType?.split(";")[0] }, `${operation.operationId}: client and curl differ`).toEqual({
      ...request,
      method: primaryMethod ? primaryMethod.toUpperCase() : request.method,
      path: primaryPath ? samePathAt(path, primaryPath, request.path) : request.path,
      status: undefined,
      answered: undefined,
      contentType: request.contentType?.split(";")[0],
    });
    expect({ ...fromTestRequest, status: undefined }, `${operation.operationId}: Test Request and curl differ`).toEqual({ ...request, status: undefined });
    if (status !== documented.status)
      failures.push(`${operation.operationId}: ${method.toUpperCase()} ${request.path} answered ${status}, documented ${documented.status}: ${answered}`);
  }

  it("runs every operation's curl sample, TypeScript sample and Test Request as one request, answered with the documented status", async () => {
    const [first, ...later] = rounds(document);
    expect(first!.length).toBeGreaterThan(0);
    // Every alias is checked in some round.
    const checked = [first!, ...later].flatMap((round) => round.filter((entry) => entry.checked).map((entry) => entry.operation.operationId));
    expect(checked.sort()).toEqual(Object.values(document.paths).flatMap((methods) => Object.values(methods).map((operation) => operation.operationId)).sort());
    const failures: string[] = [];
    for (const entry of first!) await runExample(current(), entry, failures);
    for (const round of later) {
      const app = await another();
      try {
        for (const entry of round) await runExample(app, entry, failures);
      } finally {
        await app.close();
      }
    }
    expect(failures).toEqual([]);
  });
}

describe("the docs' examples on PGlite", () => {
  let dataDir: string;
  let app: LocalProcess;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "cloudplane-examples-"));
    app = await startLocalProcess({ DATA_DIR: dataDir });
  });
  afterAll(async () => {
    await app?.stop("SIGKILL");
    await rm(dataDir, { recursive: true, force: true });
  });

  examplesSuite(
    () => app,
    async () => {
      const roundDir = await mkdtemp(join(tmpdir(), "cloudplane-examples-"));
      const another = await startLocalProcess({ DATA_DIR: roundDir });
      return Object.assign(another, {
        async close() {
          await another.stop("SIGKILL");
          await rm(roundDir, { recursive: true, force: true });
        },
      });
    },
  );

  it("sends the reference's Test Request at the first click, with the demo key, from the page the app serves to the app itself", async () => {
    const browser = await chromium.launch({
      executablePath: "/usr/bin/chromium",
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
    });
    try {
      const page = await (await browser.newContext({ viewport: { width: 1440, height: 1000 } })).newPage();
      const calls: string[] = [];
      page.on("response", (response) => {
        if (!new URL(response.url()).pathname.startsWith("/docs/")) calls.push(`${response.request().method()} ${response.url()} ${response.status()}`);
      });
      page.on("requestfailed", (request) => calls.push(`failed: ${request.url()} ${request.failure()?.errorText}`));
      await page.goto(`${app.url}/docs/#tag/cdn/GET/cdn/origin_groups/{origin_group_id}`, { waitUntil: "networkidle" });
      await page.getByRole("heading", { name: "cloudplane API", level: 1 }).waitFor();
      // On the demo data the reference's Authentication holds the demo administrator's key: nothing to fill in.
      await expect.poll(() => page.locator(`input[value='apikey ${app.adminApiKey}']`).count()).toBeGreaterThan(0);
      await page.locator("button", { hasText: "/cdn/origin_groups/{origin_group_id}" }).filter({ hasText: "Test Request" }).first().click();
      await page.getByRole("dialog").locator("button", { hasText: "Send get request" }).first().click();
      await expect.poll(() => calls.length).toBeGreaterThan(0);
      expect(calls).toEqual([`GET ${app.url}/cdn/origin_groups/1 200`]);
    } finally {
      await browser.close();
    }
  });
});

// Registered only when there is a PostgreSQL server to run on, so that no test shows as skipped.
if (process.env.DATABASE_URL)
  describe("the docs' examples on PostgreSQL", () => {
    let database: TestDatabase;
    let dataDir: string;
    let app: LocalProcess;

    beforeAll(async () => {
      // Migrated but empty: the app loads the demo data itself, as on a first start.
      database = await createTestDatabase({ engine: "postgres", seed: false });
      dataDir = await mkdtemp(join(tmpdir(), "cloudplane-examples-pg-"));
      app = await startLocalProcess({ DATA_DIR: dataDir, DATABASE_URL: database.url, CLOUDPLANE_SECRETS_KEY: database.secretsKeyBase64 });
    });
    afterAll(async () => {
      await app?.stop("SIGKILL");
      await database?.close();
      await rm(dataDir, { recursive: true, force: true });
    });

    examplesSuite(
      () => app,
      async () => {
        const roundDatabase = await createTestDatabase({ engine: "postgres", seed: false });
        const roundDir = await mkdtemp(join(tmpdir(), "cloudplane-examples-pg-"));
        const another = await startLocalProcess({ DATA_DIR: roundDir, DATABASE_URL: roundDatabase.url, CLOUDPLANE_SECRETS_KEY: roundDatabase.secretsKeyBase64 });
        return Object.assign(another, {
          async close() {
            await another.stop("SIGKILL");
            await roundDatabase.close();
            await rm(roundDir, { recursive: true, force: true });
          },
        });
      },
    );
  });
