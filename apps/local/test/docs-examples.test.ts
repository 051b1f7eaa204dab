/**
 * Every example of the docs runs against the local app on the demo data, with the demo administrator's
 * key. For each operation of the reference (openapi.json, as the app serves it at /docs/), three forms
 * of its example must make one and the same request: the curl sample run by a shell, the TypeScript
 * sample run as an ES module of its own with the client (an alias's calls its primary's method, so its
 * request has the primary's method and path), and the reference's Test Request (the parameters'
 * and the body's examples, sent to the first server the document names). The curl sample goes on to
 * the app, which must answer with the operation's documented success status. On PGlite always, and on
 * PostgreSQL when DATABASE_URL is set. And in Chromium (at /usr/bin/chromium), on the reference page the
 * app serves, Test Request at the first click (the demo key is filled in) goes to the app's own origin and gets that status.
 *
 * The same run again with the key of an account provisioned beside the demo data (`pnpm provision`), which
 * owns none of the demo's objects: the account reads itself, makes its own objects with the create examples
 * as written, then runs the rest and deletes last (`accountOrder`); the three forms are compared as written,
 * and the curl sample's request reaches the app with the ids of the demo's objects moved onto the account's
 * (`AccountIds`, learned from the answers beside the documented ones). Each gets its documented success
 * status, unless the contract's example says what it answers on a new account instead (`newAccount`).
 *
 * The TypeScript sample and the Test Request go to a recorder that answers with the documented response,
 * never to the app, and make the same request in every suite but for the key: each runs once per operation,
 * in the first suite that checks it, and every suite compares its curl sample's request with theirs.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { caseSpecOf, routeExample, ROUTES, type NewAccountAnswer } from "@cloudplane/contract";
import { createTestDatabase, type TestDatabase } from "@cloudplane/db/testing";
import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admin, provisioned, startLocalProcess, type LocalProcess } from "./local-process.js";

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

/**
 * Runs the TypeScript samples, each as an ES module of its own, in one Node process started from the app's
 * folder (a sample's `@cloudplane/client` resolves as in a project that installed it): the process imports
 * each sample's file in turn, with the sample's environment set, and says whether it ran to its end. One
 * process for all of them, not one each: starting Node and loading the client 557 times was minutes of the
 * suite. A sample that throws, or leaves a promise rejected, fails with its error.
 */
class SampleRunner {
  static readonly #PROGRAM = `
    let current;
    const fail = (error) => current && process.send({ id: current, error: String(error?.stack ?? error) });
    process.on("unhandledRejection", fail);
    process.on("uncaughtException", fail);
    process.on("message", async ({ id, file, env }) => {
      current = id;
      Object.assign(process.env, env);
      try {
        await import(file);
        process.send({ id });
      } catch (error) {
        fail(error);
      }
    });`;
  #child: ChildProcess | undefined;
  #directory: string | undefined;
  #runs = 0;
  #waiting = new Map<number, { resolve(): void; reject(error: Error): void }>();
  /** Errors that came after their sample had ended (a promise left rejected): the next run fails with them. */
  #late: string[] = [];

  /** Runs `source` as a module with `env` added to the process's environment. */
  async run(source: string, env: Record<string, string>): Promise<void> {
    if (this.#late.length) throw new Error(`a sample failed after it ended: ${this.#late.join("\n")}`);
    const id = ++this.#runs;
    if (!this.#directory) {
      await mkdir(join(APP_DIR, "node_modules", ".cache"), { recursive: true });
      this.#directory = await mkdtemp(join(APP_DIR, "node_modules", ".cache", "docs-samples-"));
    }
    const file = join(this.#directory, `sample-${id}.mjs`);
    await writeFile(file, source);
    const child = this.#start();
    await new Promise<void>((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      child.send({ id, file, env });
    });
  }

  #start(): ChildProcess {
    if (this.#child) return this.#child;
    const child = spawn(process.execPath, ["--input-type=module", "--eval", SampleRunner.#PROGRAM], { cwd: APP_DIR, stdio: ["ignore", "inherit", "inherit", "ipc"] });
    child.on("message", ({ id, error }: { id: number; error?: string }) => {
      const waiting = this.#waiting.get(id);
      this.#waiting.delete(id);
      if (error !== undefined && !waiting) this.#late.push(error);
      else if (error === undefined) waiting?.resolve();
      else waiting?.reject(new Error(`the sample failed: ${error}`));
    });
    child.on("exit", (code, signal) => {
      for (const waiting of this.#waiting.values()) waiting.reject(new Error(`the samples' process ended (${code ?? signal})`));
      this.#waiting.clear();
      this.#child = undefined;
    });
    this.#child = child;
    return child;
  }

  async close(): Promise<void> {
    this.#child?.kill();
    if (this.#directory) await rm(this.#directory, { recursive: true, force: true });
    expect(this.#late, "errors of samples after they ended").toEqual([]);
  }
}

const samples = new SampleRunner();
afterAll(() => samples.close());

/** A request as the app would get it: what must be the same in every form of an example. */
interface SentRequest {
  method: string;
  path: string;
  query: Array<[string, string]>;
  authorization: string | undefined;
  contentType: string | undefined;
  body: unknown;
}

/**
 * The answer the recorder gives: the app's, or a documented one. On the way to the app the request may be
 * rewritten (`rewrite`): it is recorded as the sample sent it, and the app gets the rewritten one.
 */
type Answer = { forwardTo: string; rewrite?: (request: SentRequest) => Promise<SentRequest> } | { status: number; headers: Record<string, string>; body: unknown };

/** A request the recorder saw: as the sample sent it, with the status it got and, when the app answered it, that answer's text and the path it went to. */
type RecordedRequest = SentRequest & { status: number; answered?: string; forwardedPath?: string };

/** A server between the samples and the app that records each request and answers as it is told. */
class Recorder {
  readonly requests: RecordedRequest[] = [];
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
  take(): RecordedRequest[] {
    return this.requests.splice(0);
  }

  async #handle(request: IncomingMessage): Promise<{ status: number; headers: Record<string, string>; body: string }> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const text = raw.toString("utf8");
    const url = new URL(request.url ?? "/", "http://recorder");
    const contentType = raw.length ? request.headers["content-type"] : undefined;
    const sent: SentRequest = {
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
      const rewritten = answer.rewrite ? await answer.rewrite(sent) : undefined;
      const target = rewritten ? `${rewritten.path}${rewritten.query.length ? `?${new URLSearchParams(rewritten.query).toString()}` : ""}` : `${url.pathname}${url.search}`;
      // A rewritten JSON body goes as its new JSON; any other as the bytes that came.
      const forwardedBody = rewritten && rewritten.body !== undefined && /\bjson\b/i.test(contentType ?? "") ? JSON.stringify(rewritten.body) : raw;
      const reply = await fetch(new URL(target, answer.forwardTo), {
        method: sent.method,
        headers: { ...(sent.authorization ? { authorization: sent.authorization } : {}), ...(raw.length ? { "content-type": sent.contentType ?? "" } : {}) },
        ...(raw.length ? { body: forwardedBody } : {}),
      });
      const body = await reply.text();
      this.requests.push({ ...sent, status: reply.status, answered: body, ...(rewritten ? { forwardedPath: target } : {}) });
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

/**
 * The kind of object a name stands for: a path segment, a path parameter or a field (`originGroup`,
 * `origin_group_id`, `config_ids`, `binaries`, `policy`), in one spelling: snake case, singular, without `_id`.
 */
function kindOf(name: string, area: string): string {
  return `${area}.${bareKind(name)}`;
}

/**
 * The area an operation's path is in (its first segment; FastEdge's older paths are the edge area's): kinds are
 * told apart by area, so an edge app's secret and a cloud project's secret are not taken for each other.
 */
function areaOf(path: string): string {
  const area = path.split("/")[1] ?? "";
  return area === "fastedge" ? "edge" : area;
}

function bareKind(name: string): string {
  const snake = name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/-/g, "_")
    .toLowerCase()
    .replace(/_ids?$/, "");
  return snake.replace(/ies$/, "y").replace(/([^s])s$/, "$1");
}

/** The kind of each path parameter of a pattern (`{id}` and `{name}` are of the kind the segment before them names). */
function pathParamKinds(pattern: string): Map<string, string> {
  const segments = pattern.split("/");
  return new Map(
    segments.flatMap((segment, index) => {
      const name = /^\{(\w+)\}$/.exec(segment)?.[1];
      return name ? [[name, kindOf(name === "id" || name === "name" ? segments[index - 1]! : name, areaOf(pattern))] as [string, string]] : [];
    }),
  );
}

/**
 * The kind of object an operation's path is about: the last segment that names a collection (some
 * path of the document goes on from it with a parameter), else the last named segment (`me` stands for
 * the caller's own): `/edge/v1/binaries/raw` is about binaries, `/iam/clients/me` about clients.
 */
function operationKind(paths: readonly string[], path: string): string {
  const segments = path.split("/");
  const named = segments.map((segment, index) => [segment, index] as const).filter(([segment]) => segment && !segment.startsWith("{") && segment !== "me");
  const collection = [...named].reverse().find(([, index]) => paths.some((other) => other.startsWith(`${segments.slice(0, index + 1).join("/")}/{`)));
  return kindOf((collection ?? named.at(-1))?.[0] ?? "", areaOf(path));
}

/**
 * The kind a key of a body names, as a field: none for a key without a small letter, which is a map's key the
 * client chose (an edge app's secret `API_KEY`, an environment variable's name), not a field of the API.
 */
const fieldKind = (key: string, area: string): string | undefined => (/[a-z]/.test(key) ? kindOf(key, area) : undefined);

/** The values of a path's parameters in `path`, decoded, in order; undefined when it is not a path of `pattern`. */
function pathValues(pattern: string, path: string): string[] | undefined {
  return new RegExp(`^${pattern.replace(/\{\w+\}/g, "([^/]+)")}$`).exec(path)?.slice(1).map(decodeURIComponent);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An id as requests and answers carry it: a positive integer (or its text, in a path or query), or a UUID. */
function isId(value: unknown): value is number | string {
  return (typeof value === "number" && Number.isInteger(value) && value > 0) || (typeof value === "string" && (UUID.test(value) || /^[1-9]\d*$/.test(value)));
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** `method path` of an operation in the document's spelling, an alias's being its primary's. */
const primaryKey = (entry: DocumentedOperation) => primaryOf(entry.operation) ?? `${entry.method} ${entry.path}`;
const documentKey = (method: string, path: string) => `${method.toLowerCase()} ${path.replace(/:(\w+)/g, "{$1}")}`;

/**
 * What the contract says makes and uses up the objects of an account: the routes a case `makes` its
 * object with (the creates), and the deletes whose case makes the object it deletes first.
 */
function makersAndDeletes(): { creates: Set<string>; deletes: Set<string> } {
  const makers = new Set(ROUTES.flatMap((entry) => caseSpecOf(entry.route)?.makes ?? []));
  return {
    creates: new Set(ROUTES.filter((entry) => makers.has(entry.id)).map((entry) => documentKey(entry.route.method, entry.route.path))),
    deletes: new Set(
      ROUTES.filter((entry) => entry.route.method === "DELETE" && caseSpecOf(entry.route)?.makes).map((entry) => documentKey(entry.route.method, entry.route.path)),
    ),
  };
}

/**
 * What the example of `entry` answers on a newly provisioned account when the contract says it cannot
 * succeed there (`newAccount` beside the example, as for a clip of a stream that only a broadcast makes live).
 */
function newAccountAnswer(entry: DocumentedOperation): NewAccountAnswer | undefined {
  const found = ROUTES.find((candidate) => documentKey(candidate.route.method, candidate.route.path) === `${entry.method} ${entry.path}`);
  if (!found) throw new Error(`${entry.method} ${entry.path} is no route of the contract.`);
  return routeExample(found.id)?.newAccount;
}

/**
 * The kinds of objects an example refers to: its path parameters' and those of the fields of its body that
 * carry ids (`originGroup: 1`, `binary_id`, `resources: [1, 3]`, `secrets.API_KEY.id`), limited to `kinds`.
 */
function referredKinds(entry: DocumentedOperation, kinds: ReadonlySet<string>): Set<string> {
  const found = new Set([...pathParamKinds(entry.path).values()].filter((kind) => kinds.has(kind)));
  const walk = (value: unknown, context: string | undefined): void => {
    if (Array.isArray(value)) return value.forEach((item) => walk(item, context));
    if (!isRecord(value)) return;
    for (const [key, field] of Object.entries(value)) {
      const kind = key === "id" ? context : fieldKind(key, areaOf(entry.path));
      if (kind && kinds.has(kind) && (isId(field) || (Array.isArray(field) && field.length > 0 && field.every(isId)))) found.add(kind);
      else walk(field, kind !== undefined && kinds.has(kind) ? kind : context);
    }
  };
  walk(Object.values(entry.operation.requestBody?.content ?? {})[0]?.example, undefined);
  return found;
}

/**
 * A round in the order a freshly provisioned account can run it: first the reads of the account that
 * name no object (its own account, its projects, the lists), then the creates as written, each after
 * those of the kinds it refers to, then the other operations in the document's order, and last the
 * deletes, each before those of the kinds it refers to (a CDN resource before its origin group).
 */
function accountOrder<Entry extends DocumentedOperation>(document: OpenApiDocument, round: Entry[]): Entry[] {
  const paths = Object.keys(document.paths);
  const { creates, deletes } = makersAndDeletes();
  const kindOfEntry = (entry: Entry) => operationKind(paths, primaryKey(entry).split(" ")[1]!);
  const createKinds = new Set(round.filter((entry) => creates.has(primaryKey(entry))).map(kindOfEntry));
  // What each kind refers to in the examples that write it.
  const refers = new Map<string, Set<string>>();
  for (const entry of round) {
    if (entry.method === "get") continue;
    const kind = kindOfEntry(entry);
    const referred = refers.get(kind) ?? new Set<string>();
    for (const other of referredKinds(entry, createKinds)) if (other !== kind) referred.add(other);
    refers.set(kind, referred);
  }
  // The kinds, each after those it refers to (a cycle is cut where it is met).
  const ordered: string[] = [];
  const visit = (kind: string, seen: Set<string>) => {
    if (ordered.includes(kind) || seen.has(kind)) return;
    for (const other of refers.get(kind) ?? []) visit(other, new Set([...seen, kind]));
    ordered.push(kind);
  };
  for (const kind of createKinds) visit(kind, new Set());
  const rank = (entry: Entry) => ordered.indexOf(kindOfEntry(entry));
  const stage = (entry: Entry) =>
    entry.method === "get" && !entry.path.includes("{") ? 0 : creates.has(primaryKey(entry)) ? 1 : deletes.has(primaryKey(entry)) ? 3 : 2;
  return [
    ...round.filter((entry) => stage(entry) === 0),
    ...round.filter((entry) => stage(entry) === 1).sort((a, b) => rank(a) - rank(b)),
    ...round.filter((entry) => stage(entry) === 2),
    ...round.filter((entry) => stage(entry) === 3).sort((a, b) => rank(b) - rank(a)),
  ];
}

/**
 * The ids of a provisioned account's own objects, learned as its examples run, and the examples' requests
 * moved onto them. The examples name the demo data's objects; the account has none of them (ids are global),
 * only those its create examples made and those provisioning gave it (the account, its user, its project).
 * From every answer of the documented success status the objects' ids (`id`, of the operation's kind or of
 * the kind its field names, as `users[].id`; in a create's answer, arrays of ids under a kind's name, as
 * an upload's `tasks`) are set beside
 * the documented answer's: the documented id of a kind then stands for the account's. Fields that merely
 * refer to another object (`region_id`, `template`) are not: the object an account's answer refers to need
 * not be the one the demo's does. A create's answer is the object the account made, first of all. An id of a
 * kind the account has objects of, that no answer paired and that the account cannot read (another
 * account's), stands for the last object of that kind the account made or was given; one it can read
 * (a public template, a catalog entry) stays as written, as do the kinds it has none of (regions, POPs, models).
 */
class AccountIds {
  /** For each kind: the examples' id → the account's. */
  readonly #ids = new Map<string, Map<string, string>>();
  /** For each kind: the account's ids learned, the last made by a create last. */
  readonly #own = new Map<string, string[]>();
  /** For each kind: the ids the account's creates made. */
  readonly #made = new Map<string, string[]>();
  /**
   * For each collection path (`…/{project_id}/{region_id}/images`): the last of its objects an item route
   * answered, with the path parameters before its own there (its project and region).
   */
  readonly #seen = new Map<string, { id: string; parents: Map<string, string> }>();
  readonly #paths: readonly string[];
  /** The paths of the document that have a GET operation. */
  readonly #readPaths: ReadonlySet<string>;
  readonly #creates: ReadonlySet<string>;
  readonly #deletes: ReadonlySet<string>;

  constructor(
    document: OpenApiDocument,
    readonly app: { url: string; apiKey: string },
  ) {
    this.#paths = Object.keys(document.paths);
    this.#readPaths = new Set(this.#paths.filter((path) => "get" in document.paths[path]!));
    ({ creates: this.#creates, deletes: this.#deletes } = makersAndDeletes());
  }

  #record(kind: string, documented: unknown, actual: unknown, made = false): void {
    // What a create made is the account's whatever its form (a bucket's name); in other answers, only ids are.
    if (made ? typeof documented !== typeof actual || !["string", "number"].includes(typeof actual) : !isId(documented) || !isId(actual)) return;
    const ids = this.#ids.get(kind) ?? this.#ids.set(kind, new Map()).get(kind)!;
    if (made || !ids.has(String(documented))) ids.set(String(documented), String(actual));
    if (String(documented) === String(actual) && !made) return;
    (this.#own.get(kind) ?? this.#own.set(kind, []).get(kind)!).push(String(actual));
    if (made) (this.#made.get(kind) ?? this.#made.set(kind, []).get(kind)!).push(String(actual));
  }

  /** Sets the ids of an answer beside those of the documented answer (an object, or a list of them, of `kind`). */
  #align(documented: unknown, actual: unknown, kind: string, top: boolean, create: boolean): void {
    const area = kind.split(".")[0]!;
    if (Array.isArray(documented) && Array.isArray(actual)) {
      documented.forEach((item, index) => index < actual.length && this.#align(item, actual[index], kind, false, create));
      return;
    }
    if (!isRecord(documented) || !isRecord(actual)) return;
    // A list's answer (no id of its own): its first list of objects holds the objects of the operation's kind.
    const items = top && !("id" in documented) ? Object.keys(documented).find((key) => Array.isArray(documented[key]) && isRecord((documented[key] as unknown[])[0])) : undefined;
    for (const [key, value] of Object.entries(documented)) {
      if (!(key in actual)) continue;
      const other = actual[key];
      if (key === "id") this.#record(kind, value, other);
      // The ids a create's answer lists are what it made beside its object (an upload's `tasks`).
      else if (create && Array.isArray(value) && value.length > 0 && value.every(isId) && Array.isArray(other))
        value.forEach((id, index) => this.#record(kindOf(key, area), id, other[index]));
      else if (typeof value === "object" && value !== null) this.#align(value, other, key === items ? kind : kindOf(key, area), false, create);
    }
  }

  /**
   * Learns from the app's answer to an example of `entry` (given its documented success status), `request` as
   * the sample sent it and `forwardedPath` where the app got it. What a create made is named by its answer's
   * id, or by its answer's one `<kind>_id` that its path does not hold (an invitation's `user_id`), or, when it
   * answers neither, by the last parameter of its path when that names an object of the operation's kind, or by its
   * answer's name (a bucket's, by either path). Kinds are told apart by area (an edge secret is not a cloud secret).
   */
  learn(entry: DocumentedOperation, documented: unknown, answered: string | undefined, request: SentRequest, forwardedPath: string | undefined): void {
    let actual: unknown;
    try {
      actual = JSON.parse(answered ?? "");
    } catch {
      actual = undefined;
    }
    const kind = operationKind(this.#paths, primaryKey(entry).split(" ")[1]!);
    const create = this.#creates.has(primaryKey(entry));
    if (create) {
      const inPath = request.path.split("?")[0]!.split("/").map(decodeURIComponent);
      // A `<kind>_id` the request's path holds names where the object was made (a bucket's storage), not the object.
      const idField =
        isRecord(documented) && isRecord(actual)
          ? Object.keys(documented).find((key) => /_id$/.test(key) && isId(documented[key]) && key in actual && !inPath.includes(String(documented[key])))
          : undefined;
      if (isRecord(documented) && isRecord(actual) && "id" in actual) this.#record(kind, documented.id, actual.id, true);
      // An answer that names what it made by a `<kind>_id` of its own (an invitation's `user_id`).
      else if (idField) this.#record(kindOf(idField, areaOf(entry.path)), (documented as Record<string, unknown>)[idField], (actual as Record<string, unknown>)[idField], true);
      else if (entry.path.endsWith("}") && forwardedPath && [...pathParamKinds(entry.path).values()].at(-1) === kind) {
        const last = (path: string) => decodeURIComponent(path.split("?")[0]!.split("/").at(-1)!);
        this.#record(kind, last(request.path), last(forwardedPath), true);
      }
      // Made in a collection and named, not numbered (a bucket by its name): of the kind its item's path parameter names
      // (`{secret_name}` of an inference secret, not the `{id}` of an edge secret, though both collections are `secrets`).
      else if (isRecord(documented) && isRecord(actual) && typeof documented.name === "string") this.#record(this.#itemKind(entry.path) ?? kind, documented.name, actual.name, true);
    }
    this.#align(documented, actual, kind, true, create);
    if (entry.path.endsWith("}") && forwardedPath && actual !== undefined) {
      const values = pathValues(entry.path, forwardedPath.split("?")[0]!);
      const kinds = pathParamKinds(entry.path);
      const names = [...kinds.keys()];
      if (values && names.length > 1)
        this.#seen.set(entry.path.slice(0, entry.path.lastIndexOf("/{")), {
          id: values.at(-1)!,
          parents: new Map(names.slice(0, -1).map((name, index) => [name, values[index]!])),
        });
    }
  }

  /** The kind of the parameter that names an item of the collection at `path` (`…/secrets` → `…/secrets/{secret_name}`'s), if the document has one. */
  #itemKind(path: string): string | undefined {
    const item = this.#paths.find((other) => other.startsWith(`${path}/{`) && !other.slice(path.length + 1).includes("/"));
    return item ? [...pathParamKinds(item).values()].at(-1) : undefined;
  }

  /** Whether the account reads the object `id` of `kind` (a catalog's, a public one), through the kind's GET route. */
  async #readable(kind: string, id: string): Promise<boolean> {
    const item = this.#paths.find((path) => {
      const kinds = [...pathParamKinds(path).values()];
      return kinds.length === 1 && kinds[0] === kind && /\}$/.test(path) && this.#readPaths.has(path);
    });
    if (!item) return false;
    const reply = await fetch(`${this.app.url}${item.replace(/\{\w+\}/, encodeURIComponent(id))}`, { headers: { authorization: `apikey ${this.app.apiKey}` } });
    await reply.body?.cancel();
    return reply.status === 200;
  }

  /**
   * The id of the account's object that the example's id `value` of `kind` stands for (the value when it is
   * none of them). A path parameter names an object whatever its form (`identifies`); elsewhere only ids do.
   */
  async translate(kind: string | undefined, value: unknown, identifies = false): Promise<unknown> {
    if (!kind || !(identifies || isId(value)) || !this.#own.has(kind)) return value;
    const ids = this.#ids.get(kind)!;
    let mapped = ids.get(String(value));
    if (mapped === undefined) {
      const own = this.#own.get(kind)!;
      mapped = own.includes(String(value)) || (await this.#readable(kind, String(value))) ? String(value) : own.at(-1)!;
      ids.set(String(value), mapped);
    }
    return typeof value === "number" ? Number(mapped) : mapped;
  }

  async #translateJson(value: unknown, context: string | undefined, area: string): Promise<unknown> {
    if (Array.isArray(value)) return Promise.all(value.map((item) => this.#translateJson(item, context, area)));
    if (!isRecord(value)) return value;
    const entries = await Promise.all(
      Object.entries(value).map(async ([key, field]) => {
        const kind = key === "id" ? context : fieldKind(key, area);
        if (isId(field)) return [key, await this.translate(kind, field)];
        // A list of ids: the account's, each once (two of the examples' may stand for the one the account has).
        if (Array.isArray(field) && field.length > 0 && field.every(isId)) return [key, [...new Set(await Promise.all(field.map((id) => this.translate(kind, id))))]];
        return [key, await this.#translateJson(field, kind !== undefined && this.#own.has(kind) ? kind : context, area)];
      }),
    );
    return Object.fromEntries(entries);
  }

  /**
   * The request of `entry`'s example moved onto the account's objects: its path parameters, query and JSON
   * body. A delete deletes the last object of its kind the account made.
   */
  async rewrite(entry: DocumentedOperation, request: SentRequest): Promise<SentRequest> {
    const kinds = pathParamKinds(entry.path);
    const names = [...kinds.keys()];
    const values = pathValues(entry.path, request.path);
    if (!values) throw new Error(`${request.path} is not a path of ${entry.path}.`);
    const deletes = this.#deletes.has(primaryKey(entry));
    const params = await Promise.all(
      values.map(async (raw, index) => {
        const kind = kinds.get(names[index]!)!;
        const made = this.#made.get(kind)?.at(-1);
        if (deletes && index === values.length - 1 && made !== undefined) return made;
        return String(await this.translate(kind, raw, true));
      }),
    );
    // A delete of what no create made deletes the last object seen in that collection, where it was seen (a GPU
    // image of a virtual cluster in its project, not a bare-metal one's).
    const seen = this.#seen.get(entry.path.slice(0, entry.path.lastIndexOf("/{")));
    if (deletes && seen && this.#made.get(kinds.get(names.at(-1)!)!) === undefined) {
      params[params.length - 1] = seen.id;
      names.slice(0, -1).forEach((name, index) => seen.parents.has(name) && (params[index] = seen.parents.get(name)!));
    }
    let index = 0;
    const path = entry.path.replace(/\{\w+\}/g, () => encodeURIComponent(params[index++]!));
    const query = await Promise.all(
      request.query.map(async ([name, value]) => [name, (await Promise.all(value.split(",").map((part) => this.translate(kindOf(name, areaOf(entry.path)), part)))).join(",")] as [string, string]),
    );
    // A body that is a bare list holds objects of the operation's kind (a stream's overlays changed at once).
    const bodyKind = Array.isArray(request.body) ? operationKind(this.#paths, primaryKey(entry).split(" ")[1]!) : undefined;
    const body = /\bjson\b/i.test(request.contentType ?? "") ? await this.#translateJson(request.body, bodyKind, areaOf(entry.path)) : request.body;
    return { ...request, path, query, body };
  }
}

/** An app the examples run on, and the key their samples call it with. */
interface ExamplesApp {
  url: string;
  apiKey: string;
}

/**
 * Registers the examples' tests against the app `current()` returns, and `another()` starts for each later
 * round. With `account`, the key is a provisioned account's, which has none of the demo data's objects:
 * each round runs in `accountOrder`, and the requests go to the app moved onto the account's own objects
 * (`AccountIds`), while the samples' requests are compared as they are written.
 */
/** Per operation, the requests its TypeScript sample and its Test Request made, in the first suite that checked it. */
const formsAsWritten = new Map<string, { fromClient: RecordedRequest | undefined; fromTestRequest: RecordedRequest | undefined }>();

function examplesSuite(current: () => ExamplesApp, another: () => Promise<ExamplesApp & { close(): Promise<void> }>, { account = false } = {}) {
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

  /**
   * Runs one operation's example forms (all three when `checked`, else the curl sample alone) against `app`;
   * with `ids`, the curl sample's request reaches the app on the account's objects, and its answer teaches `ids`.
   */
  async function runExample(app: ExamplesApp, entry: DocumentedOperation & { checked: boolean }, failures: string[], ids?: AccountIds) {
    const { path, method, operation, checked } = entry;
    const documented = documentedSuccess(operation);
    // On an account, the status the curl sample gets from the app: the documented one, unless the contract says otherwise.
    const unlike = ids ? newAccountAnswer(entry) : undefined;
    const expected = unlike ? { status: unlike.status, why: ` on a new account (${unlike.because})` } : { status: documented.status, why: "" };
    const toApp: Answer = { forwardTo: app.url, ...(ids ? { rewrite: (request: SentRequest) => ids.rewrite(entry, request) } : {}) };
    const shell = () =>
      run("sh", ["-c", sample(operation, "Shell")], { env: { ...process.env, CLOUDPLANE_BASE_URL: recorderUrl, CLOUDPLANE_API_KEY: app.apiKey } });
    if (!checked) {
      recorder.answer = toApp;
      await shell();
      const [replayed] = recorder.take();
      if (replayed?.status !== expected.status)
        failures.push(`${operation.operationId} (replayed${replayed?.forwardedPath ? ` at ${replayed.forwardedPath}` : ""}): answered ${replayed?.status}, expected ${expected.status}${expected.why}`);
      else if (!unlike) ids?.learn(entry, documented.body, replayed.answered, replayed, replayed.forwardedPath);
      return;
    }

    // The TypeScript sample and the Test Request make the same requests in every suite but for the key, so they
    // run once per operation, in the first suite that checks it; later suites compare with theirs, under their own key.
    let forms = formsAsWritten.get(operation.operationId);
    if (!forms) {
      // The TypeScript sample, as an ES module of its own (as it is written), answered with the documented response.
      const typescript = sample(operation, "TypeScript");
      expect(typescript.startsWith(`${CLIENT_IMPORT}\n`), operation.operationId).toBe(true);
      recorder.answer = documented;
      await samples.run(typescript, { CLOUDPLANE_BASE_URL: recorderUrl, CLOUDPLANE_API_KEY: app.apiKey });
      const [fromClient, ...moreFromClient] = recorder.take();

      // The Test Request, on the recorder in the page's place.
      const reply = await fetch(testRequest(document, recorderUrl, path, method, operation, app.apiKey));
      expect(reply.status, operation.operationId).toBe(documented.status);
      const [fromTestRequest, ...moreFromTestRequest] = recorder.take();
      expect([moreFromClient, moreFromTestRequest], operation.operationId).toEqual([[], []]);
      expect(fromClient?.authorization, operation.operationId).toBe(`apikey ${app.apiKey}`);
      expect(fromTestRequest?.authorization, operation.operationId).toBe(`apikey ${app.apiKey}`);
      forms = { fromClient, fromTestRequest };
      formsAsWritten.set(operation.operationId, forms);
    }
    const underKey = (recorded: RecordedRequest | undefined) => recorded && { ...recorded, authorization: `apikey ${app.apiKey}` };
    const fromClient = underKey(forms.fromClient);
    const fromTestRequest = underKey(forms.fromTestRequest);

    // The curl sample, through the recorder to the app.
    recorder.answer = toApp;
    await shell();
    const [fromCurl, ...moreFromCurl] = recorder.take();

    expect(moreFromCurl, operation.operationId).toEqual([]);
    expect(fromCurl, operation.operationId).toBeDefined();
    const { status, answered, forwardedPath, ...request } = fromCurl!;
    expect(request.authorization, operation.operationId).toBe(`apikey ${app.apiKey}`);
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
    if (status !== expected.status)
      failures.push(
        `${operation.operationId}: ${method.toUpperCase()} ${request.path}${forwardedPath ? ` (at ${forwardedPath})` : ""} answered ${status}, expected ${expected.status}${expected.why}: ${answered?.slice(0, 300)}`,
      );
    else if (!unlike) ids?.learn(entry, documented.body, answered, request, forwardedPath);
  }

  it("runs every operation's curl sample, TypeScript sample and Test Request as one request, answered with the documented status", async () => {
    const [first, ...later] = rounds(document);
    expect(first!.length).toBeGreaterThan(0);
    // Every alias is checked in some round.
    const checked = [first!, ...later].flatMap((round) => round.filter((entry) => entry.checked).map((entry) => entry.operation.operationId));
    expect(checked.sort()).toEqual(Object.values(document.paths).flatMap((methods) => Object.values(methods).map((operation) => operation.operationId)).sort());
    const failures: string[] = [];
    /** Runs a round on `app`: as the document orders it, or, on an account, in `accountOrder` and on its own objects. */
    const runRound = async (app: ExamplesApp, round: Array<DocumentedOperation & { checked: boolean }>) => {
      const ids = account ? new AccountIds(document, app) : undefined;
      for (const entry of account ? accountOrder(document, round) : round) await runExample(app, entry, failures, ids);
    };
    await runRound(current(), first!);
    for (const round of later) {
      const app = await another();
      try {
        await runRound(app, round);
      } finally {
        await app.close();
      }
    }
    expect(failures).toEqual([]);
    // Each round starts an app (on an account, twice, with the provisioning between): more than a test's usual minute.
  }, 300_000);
}

/**
 * The local app as the examples run on it: as `pnpm start` runs it, but with the per-token rate limit off. The suite
 * sends a few hundred requests back to back under one key, more than the default limit's burst when requests are fast;
 * a user runs a sample at a time (the limiter has its own tests in the handlers).
 */
function startExamplesApp(env: Record<string, string | undefined>): Promise<LocalProcess> {
  return startLocalProcess({ ...env, CLOUDPLANE_RATE_LIMIT: "0" });
}

describe("the docs' examples on PGlite", () => {
  let dataDir: string;
  let app: LocalProcess;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "cloudplane-examples-"));
    app = await startExamplesApp({ DATA_DIR: dataDir });
  });
  afterAll(async () => {
    await app?.stop("SIGKILL");
    await rm(dataDir, { recursive: true, force: true });
  });

  examplesSuite(
    () => ({ url: app.url, apiKey: app.adminApiKey }),
    async () => {
      const roundDir = await mkdtemp(join(tmpdir(), "cloudplane-examples-"));
      const another = await startExamplesApp({ DATA_DIR: roundDir });
      return Object.assign(another, {
        apiKey: another.adminApiKey,
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
      const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
      // Playwright's own limits (30 s for a wait or a click) are a quiet machine's: the reference renders some 600
      // operations, which under CI's load (every package's tests at once) took longer. The test's timeout bounds it.
      context.setDefaultTimeout(110_000);
      const page = await context.newPage();
      const calls: string[] = [];
      page.on("response", (response) => {
        if (!new URL(response.url()).pathname.startsWith("/docs/")) calls.push(`${response.request().method()} ${response.url()} ${response.status()}`);
      });
      page.on("requestfailed", (request) => calls.push(`failed: ${request.url()} ${request.failure()?.errorText}`));
      await page.goto(`${app.url}/docs/#tag/cdn/GET/cdn/origin_groups/{origin_group_id}`, { waitUntil: "networkidle" });
      await page.getByRole("heading", { name: "cloudplane API", level: 1 }).waitFor();
      // On the demo data the reference's Authentication holds the demo administrator's key: nothing to fill in.
      await expect.poll(() => page.locator(`input[value='apikey ${app.adminApiKey}']`).count(), { timeout: 60_000 }).toBeGreaterThan(0);
      await page.locator("button", { hasText: "/cdn/origin_groups/{origin_group_id}" }).filter({ hasText: "Test Request" }).first().click();
      await page.getByRole("dialog").locator("button", { hasText: "Send get request" }).first().click();
      await expect.poll(() => calls.length, { timeout: 60_000 }).toBeGreaterThan(0);
      expect(calls).toEqual([`GET ${app.url}/cdn/origin_groups/1 200`]);
    } finally {
      await browser.close();
    }
  }, 240_000);
});

/**
 * The local app on the demo data with an account provisioned beside it, as an operator provisions one
 * (`pnpm provision`): its key is the account's, which owns none of the demo data's objects. On PGlite the
 * app is stopped while the command runs (a data directory is one process's at a time) and started again;
 * on PostgreSQL the command runs beside it.
 */
async function provisionedApp(engine: "pglite" | "postgres"): Promise<ExamplesApp & { close(): Promise<void> }> {
  const dataDir = await mkdtemp(join(tmpdir(), "cloudplane-examples-account-"));
  const database = engine === "postgres" ? await createTestDatabase({ engine: "postgres", seed: false }) : undefined;
  const env = database ? { DATA_DIR: dataDir, DATABASE_URL: database.url, CLOUDPLANE_SECRETS_KEY: database.secretsKeyBase64 } : { DATA_DIR: dataDir };
  let app = await startExamplesApp(env);
  expect(app.headline).toContain("(demo data loaded)");
  if (!database) expect(await app.stop("SIGTERM")).toBe(0);
  const account = provisioned(await admin(["provision", "--name", "Examples Inc", "--email", "ops@examples.example"], database ? { DATABASE_URL: database.url } : { DATA_DIR: dataDir }));
  expect(account.accountId).not.toBe(1);
  if (!database) app = await startExamplesApp(env);
  return {
    url: app.url,
    apiKey: account.token,
    async close() {
      await app.stop("SIGKILL");
      await database?.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

describe("the docs' examples on a provisioned account, on PGlite", () => {
  let app: ExamplesApp & { close(): Promise<void> };

  beforeAll(async () => {
    app = await provisionedApp("pglite");
  });
  afterAll(async () => {
    await app?.close();
  });

  examplesSuite(
    () => app,
    () => provisionedApp("pglite"),
    { account: true },
  );
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
      app = await startExamplesApp({ DATA_DIR: dataDir, DATABASE_URL: database.url, CLOUDPLANE_SECRETS_KEY: database.secretsKeyBase64 });
    });
    afterAll(async () => {
      await app?.stop("SIGKILL");
      await database?.close();
      await rm(dataDir, { recursive: true, force: true });
    });

    examplesSuite(
      () => ({ url: app.url, apiKey: app.adminApiKey }),
      async () => {
        const roundDatabase = await createTestDatabase({ engine: "postgres", seed: false });
        const roundDir = await mkdtemp(join(tmpdir(), "cloudplane-examples-pg-"));
        const another = await startExamplesApp({ DATA_DIR: roundDir, DATABASE_URL: roundDatabase.url, CLOUDPLANE_SECRETS_KEY: roundDatabase.secretsKeyBase64 });
        return Object.assign(another, {
          apiKey: another.adminApiKey,
          async close() {
            await another.stop("SIGKILL");
            await roundDatabase.close();
            await rm(roundDir, { recursive: true, force: true });
          },
        });
      },
    );
  });

// Registered only when there is a PostgreSQL server to run on, so that no test shows as skipped.
if (process.env.DATABASE_URL)
  describe("the docs' examples on a provisioned account, on PostgreSQL", () => {
    let app: ExamplesApp & { close(): Promise<void> };

    beforeAll(async () => {
      app = await provisionedApp("postgres");
    });
    afterAll(async () => {
      await app?.close();
    });

    examplesSuite(
      () => app,
      () => provisionedApp("postgres"),
      { account: true },
    );
  });
