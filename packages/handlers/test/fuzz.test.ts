/**
 * Property-based fuzzing of every route: invalid path parameters, queries and bodies made with
 * fast-check from the contract's schemas and examples, raw bodies that are not JSON, odd headers and bad
 * credentials must each get a 4xx in the error envelope and leave the database unchanged; then requests
 * that pass the contract but carry hostile text (NUL, lone surrogates, deep JSON) must never get a 5xx.
 * A route that takes raw bytes (`bodyTypeOf`, an edge binary's upload) is sent bytes instead of JSON:
 * mangled ones, any content type but its own, and, as hostile requests, valid headers with any bytes after.
 */
import { bodyTypeOf, examples, MAX_ID, RAW_BODY, ROUTES } from "@cloudplane/contract";
import { demoFixture, demoToken, sql, type Database } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import type { AppRoute, AppRouteMutation } from "@ts-rest/core";
import fc from "fast-check";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { MAX_BODY_BYTES } from "../src/index.js";
import { serve, shutdown } from "../src/adapter/node/index.js";
import { authorization, BASE, buildRequest, engines, expectSomeEnvelope, replyOf, useApi, type Reply } from "./harness.js";
import { mayCall, routeCases, takesBody, type RouteCase } from "./routes.js";

/** FUZZ_SEED and FUZZ_REQUESTS reproduce a failure or explore further; the defaults are what CI runs. */
const SEED = Number(process.env.FUZZ_SEED ?? 9_009);
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 10_000);
const RUNS_PER_ROUTE = Math.ceil(REQUESTS / routeCases.length);
/** Requests that pass the contract but carry hostile content (no 5xx allowed, data may change). */
const HOSTILE_RUNS_PER_ROUTE = Math.ceil(RUNS_PER_ROUTE / 5);

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;
const JSON_TYPE = /^application\/(?:[\w.+-]*\+)?json\s*(?:;|$)/i;

type Kind = "path" | "query" | "body" | "raw body" | "headers" | "credentials" | "method";

/** One generated request and the statuses it may be answered with. */
interface FuzzRequest {
  kind: Kind;
  method: string;
  path: string;
  headers: Record<string, string>;
  /** The whole Authorization header; undefined: account 1's administrator. */
  authorization?: string | null;
  rawBody?: string | Uint8Array<ArrayBuffer>;
  expected: number[];
}

// ------------------------------------------------------------------------------------------------
// The contract's routes as the server matches them
// ------------------------------------------------------------------------------------------------

const contractRoutes: AppRoute[] = ROUTES.map(({ route }) => route);

/** The route's path as a regular expression, as the router (src/router.ts) builds it: params unescaped, trailing slashes allowed. */
function pathPattern(route: AppRoute): RegExp {
  return new RegExp(`^${route.path.replace(/:(\w+)/g, "(?<$1>[^/]+?)")}/*$`);
}

/** Whether a request to `path` with `method` could reach any route with parameters that pass its schema. */
function reachesValidRoute(method: string, path: string): boolean {
  const { pathname } = new URL(`${BASE}${path}`);
  return contractRoutes.some((route) => {
    if (route.method !== method) return false;
    const match = pathPattern(route).exec(pathname);
    if (!match) return false;
    return !route.pathParams || (route.pathParams as z.ZodTypeAny).safeParse({ ...match.groups }).success;
  });
}

/**
 * How a request that reaches no valid route is answered: 400 where a route of its method fits the path
 * (with a parameter that does not pass), else 405 where a route of another method fits it, else 404.
 */
function unservedStatus(method: string, path: string): number {
  const { pathname } = new URL(`${BASE}${path}`);
  const fitting = contractRoutes.filter((route) => pathPattern(route).test(pathname));
  if (fitting.some((route) => route.method === method)) return 400;
  return fitting.length ? 405 : 404;
}

/** The valid path parameters of a route case, read off its path. */
function caseParams(routeCase: RouteCase): Record<string, string> {
  const match = pathPattern(routeCase.route).exec(routeCase.path.split("?")[0]!);
  return { ...match!.groups };
}

function pathWith(route: AppRoute, params: Record<string, string>): string {
  return route.path.replace(/:(\w+)/g, (_, name: string) => params[name]!);
}

/** The query the server sees, as the handler parses it: a repeated name becomes an array of every value. */
function queryObject(path: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of new URL(`${BASE}${path}`).searchParams) {
    const known = query[name];
    query[name] = known === undefined ? value : ([] as string[]).concat(known, value);
  }
  return query;
}

function shapeOf(schema: z.ZodTypeAny): Record<string, z.ZodTypeAny> {
  if (schema instanceof z.ZodObject) return schema.shape as Record<string, z.ZodTypeAny>;
  if (schema instanceof z.ZodEffects) return shapeOf(schema.innerType());
  return {};
}

/** The body as the server reads it: UTF-8 (lone surrogates replaced, a leading BOM dropped), then JSON. */
function serverText(text: string): string {
  return new TextDecoder().decode(new TextEncoder().encode(text));
}


/** The body schema of a route that takes one. */
function bodySchema(route: AppRoute): z.ZodTypeAny {
  return (route as AppRouteMutation).body as z.ZodTypeAny;
}

/** Whether the route takes its body as raw bytes (sent as application/octet-stream) rather than JSON. */
function takesRawBody(route: AppRoute): boolean {
  return bodyTypeOf(route) === RAW_BODY;
}

function bodyPasses(route: AppRoute, text: string): boolean {
  if (Buffer.byteLength(text) > MAX_BODY_BYTES) return false;
  const seen = serverText(text);
  let parsed: unknown;
  try {
    parsed = seen === "" ? undefined : JSON.parse(seen);
  } catch {
    return false;
  }
  return bodySchema(route).safeParse(parsed).success;
}

// ------------------------------------------------------------------------------------------------
// Valid starting points: the route table's bodies, the contract's examples, the demo fixture
// ------------------------------------------------------------------------------------------------

function fixtureBodies(name: string): unknown[] {
  const fixture = demoFixture;
  switch (name) {
    case "cdn.updateResource":
      return fixture.cdnResources.map((resource) => ({
        options: resource.options,
        secondaryHostnames: fixture.cdnResourceHostnames.filter((row) => row.resourceId === resource.id).map((row) => row.hostname),
        name: resource.name,
      }));
    case "cdn.replaceResource":
      return fixture.cdnResources.map((resource) => ({ originGroup: resource.originGroupId, options: resource.options, originProtocol: resource.originProtocol }));
    case "cdn.createLogsUploaderTarget":
      return fixture.logsUploaderTargets.map((target) => ({
        storage_type: target.storageType,
        name: target.name,
        description: target.description,
        config: {
          access_key_id: target.accessKeyId,
          secret_access_key: target.secretAccessKey,
          region: target.region,
          bucket_name: target.bucketName,
          directory: target.directory ?? undefined,
          endpoint: target.endpoint ?? undefined,
          use_path_style: target.usePathStyle,
        },
      }));
    case "edge.createSecret":
      return fixture.edgeSecrets.map((secret) => ({
        name: secret.name,
        comment: secret.comment,
        secret_slots: fixture.edgeSecretSlots.filter((slot) => slot.secretId === secret.id).map(({ slot, value }) => ({ slot, value })),
      }));
    case "edge.updateApp":
      return fixture.edgeApps.map((app) => ({
        name: app.name,
        comment: app.comment,
        env: app.env,
        rsp_headers: app.rspHeaders,
        log: app.log,
        secrets: Object.fromEntries(fixture.edgeAppSecrets.filter((row) => row.appId === app.id).map((row) => [row.name, { id: row.secretId }])),
      }));
    default:
      return [];
  }
}

/** Every valid body known for a route, as JSON (raw bytes for a route that takes them): each starting point of the mutations. */
function validBodies(routeCase: RouteCase): unknown[] {
  const schema = bodySchema(routeCase.route);
  if (takesRawBody(routeCase.route)) {
    const bytes = routeCase.body?.(1);
    if (!(bytes instanceof Uint8Array) || !schema.safeParse(bytes).success) throw new Error(`No valid bytes for ${routeCase.name}: its route case must send some.`);
    return [bytes];
  }
  // An empty object too, for routes whose body is optional (a validate takes none).
  const candidates = [routeCase.body?.(1), {}, ...Object.values(examples), ...fixtureBodies(routeCase.name)];
  const bodies = candidates
    .filter((candidate) => candidate !== undefined && schema.safeParse(candidate).success)
    .map((body) => JSON.parse(JSON.stringify(body)) as unknown);
  if (!bodies.length) throw new Error(`No valid body for ${routeCase.name}: add one to test/routes.ts.`);
  return bodies;
}

// ------------------------------------------------------------------------------------------------
// Mutations of a JSON value
// ------------------------------------------------------------------------------------------------

const MUTATIONS = [
  "wrong type",
  "null",
  "huge string",
  "deep nesting",
  "out of range",
  "wrong enum",
  "unknown key",
  "array for object",
  "unicode",
  "unicode in text",
  "remove key",
  "empty",
] as const;
type MutationKind = (typeof MUTATIONS)[number];

interface Mutation {
  kind: MutationKind;
  /** Which place of the value (modulo the number of places). */
  at: number;
  /** Which variant of the kind. */
  pick: number;
  text: string;
  depth: number;
}

const OTHER_TYPES: unknown[] = [0, 1, -1, 1.5, "", "text", true, false, [], {}, [1, 2], { a: 1 }];
const OUT_OF_RANGE = [-1, 0, -2_147_483_649, 2_147_483_648, 2 ** 53, 1e21, 1e308, -1e308, 0.5, -0.000001, 4_294_967_296];
const WRONG_ENUMS = ["bogus", "", " ", "HTTPS ", "https", "Allow", "DENY", "json ", "CSV_TOTALS", "wasi_http", "null", "undefined", "0"];
const UNICODE = [
  ...["\u0000", "a\u0000b", "\ud800", "x\udfffy", "💥🔥", "\u202eevil", "e\u0301"],
  ...["\ufeffbom", "\u200b", "ñandú", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "\u0085\u2028\u2029", "İı", "ＡＢＣ"],
];
const ODD_KEYS = ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "", " ", "id", "created", "x".repeat(300), "ключ", "\u0000"];
const HUGE_LENGTHS = [5_000, 70_000, 300_000, MAX_BODY_BYTES + 10];

type Place = (string | number)[];

function placesOf(value: unknown, place: Place = [], into: Place[] = []): Place[] {
  into.push(place);
  if (Array.isArray(value)) value.forEach((item, index) => placesOf(item, [...place, index], into));
  else if (value && typeof value === "object") for (const [key, item] of Object.entries(value)) placesOf(item, [...place, key], into);
  return into;
}

function valueAt(root: unknown, place: Place): unknown {
  return place.reduce<unknown>((value, key) => (value as Record<string | number, unknown>)[key], root);
}

/** Sets a key as an own property, so that "__proto__" is a key like any other (as JSON.parse makes it). */
function setOwn(target: object, key: string | number, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function replaceAt(root: unknown, place: Place, value: unknown): unknown {
  if (!place.length) return value;
  setOwn(valueAt(root, place.slice(0, -1)) as object, place.at(-1)!, value);
  return root;
}

function nested(depth: number, pick: number): unknown {
  let value: unknown = pick % 3 === 0 ? 1 : "deep";
  for (let i = 0; i < depth; i++) value = (i + pick) % 2 ? [value] : { a: value };
  return value;
}

function typeOf(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
}

function mutate(root: unknown, mutation: Mutation): unknown {
  const all = placesOf(root);
  const texts = all.filter((at) => typeof valueAt(root, at) === "string");
  // Characters inside a text go where there is text, so that the text around them can still pass.
  const places = mutation.kind === "unicode in text" && texts.length ? texts : all;
  const place = places[mutation.at % places.length]!;
  const current = valueAt(root, place);
  const choose = <T>(list: readonly T[]) => list[mutation.pick % list.length]!;
  switch (mutation.kind) {
    case "wrong type": {
      const others = OTHER_TYPES.filter((value) => typeOf(value) !== typeOf(current));
      return replaceAt(root, place, structuredClone(choose(others)));
    }
    case "null":
      return replaceAt(root, place, null);
    case "huge string":
      return replaceAt(root, place, "A".repeat(choose(HUGE_LENGTHS)));
    case "deep nesting":
      return replaceAt(root, place, nested(mutation.depth, mutation.pick));
    case "out of range":
      return replaceAt(root, place, choose(OUT_OF_RANGE));
    case "wrong enum":
      return replaceAt(root, place, mutation.pick % 2 ? choose(WRONG_ENUMS) : mutation.text);
    case "unknown key": {
      // The nearest object at or above the place gets a key it does not take.
      let at = place;
      while (at.length && typeOf(valueAt(root, at)) !== "object") at = at.slice(0, -1);
      const target = valueAt(root, at);
      if (typeOf(target) !== "object") return replaceAt(root, at, { [mutation.text || "unknown"]: 1 });
      setOwn(target as object, mutation.pick % 2 ? choose(ODD_KEYS) : `${mutation.text}_unknown`, mutation.pick % 3 ? 1 : "value");
      return root;
    }
    case "array for object":
      return replaceAt(root, place, Array.isArray(current) ? { ...current } : [current]);
    case "unicode":
      return replaceAt(root, place, mutation.pick % 2 ? choose(UNICODE) : `${mutation.text}${choose(UNICODE)}`);
    case "unicode in text": {
      const text = typeof current === "string" ? current : mutation.text;
      const cut = mutation.pick % (text.length + 1);
      return replaceAt(root, place, `${text.slice(0, cut)}${choose(UNICODE)}${text.slice(cut)}`);
    }
    case "remove key": {
      if (!place.length) return undefined;
      const parent = valueAt(root, place.slice(0, -1));
      if (Array.isArray(parent)) parent.splice(Number(place.at(-1)), 1);
      else delete (parent as Record<string, unknown>)[place.at(-1)!];
      return root;
    }
    case "empty":
      return replaceAt(root, place, choose([[], {}, ""]));
  }
}

function mutationArbitrary(kinds: readonly MutationKind[]): fc.Arbitrary<Mutation> {
  return fc.record({
    kind: fc.constantFrom(...kinds),
    at: fc.nat(),
    pick: fc.nat(),
    text: fc.string({ unit: "grapheme", maxLength: 12 }),
    depth: fc.integer({ min: 20, max: 2_000 }),
  });
}

/** Applies the mutations to a copy of `base`; the JSON text of the result (undefined: no body at all). */
function mutated(base: unknown, mutations: Mutation[]): string | undefined {
  let value = structuredClone(base);
  for (const mutation of mutations) value = mutate(value, mutation);
  return value === undefined ? undefined : JSON.stringify(value);
}

// ------------------------------------------------------------------------------------------------
// Requests
// ------------------------------------------------------------------------------------------------

const counts = {
  /** Candidates dropped because they happened to pass the contract (or, for hostile requests, failed it). */
  discarded: 0,
};

function keep<T>(predicate: (value: T) => boolean): (value: T) => boolean {
  return (value) => {
    const kept = predicate(value);
    if (!kept) counts.discarded++;
    return kept;
  };
}

const jsonHeaders = { "content-type": "application/json" };
const rawHeaders = { "content-type": RAW_BODY };

/** The headers and body a valid request of the route sends: JSON, or a route's raw bytes as they are. */
function validBody(route: AppRoute, body: unknown): Pick<FuzzRequest, "headers" | "rawBody"> {
  if (takesRawBody(route)) return { headers: rawHeaders, rawBody: body as Uint8Array<ArrayBuffer> };
  return { headers: jsonHeaders, rawBody: JSON.stringify(body) };
}

/** Digits a path id may not be, and things that are not digits at all. */
const badSegment = fc.oneof(
  fc.constantFrom(
    ...["0", "-1", "abc", "1e3", "0x10", "1.5", " 1", "1 ", "+1", "01x", "٣", "NaN", "Infinity", "null", "true"],
    ...["[]", "{}", "\u0000", "💥", "%", "%zz", "%2e%2e", ".", "..", "1;2", "1,2"],
  ),
  fc.bigInt({ min: BigInt(MAX_ID) + 1n, max: 10n ** 30n }).map(String),
  fc.integer({ min: -(2 ** 31), max: 0 }).map(String),
  fc.double({ noDefaultInfinity: true }).filter((value) => !Number.isInteger(value)).map(String),
  fc.string({ unit: "binary", minLength: 1, maxLength: 30 }),
  fc.string({ minLength: 64, maxLength: 300 }),
);

function pathRequests(routeCase: RouteCase, bodies: unknown[]): fc.Arbitrary<FuzzRequest> | undefined {
  const { route } = routeCase;
  const names = Object.keys(caseParams(routeCase));
  if (!names.length) return undefined;
  const valid = caseParams(routeCase);
  return fc
    .record({ name: fc.constantFrom(...names), segment: badSegment, raw: fc.boolean(), body: fc.nat() })
    .map(({ name, segment, raw, body }): FuzzRequest => {
      // A raw segment is sent as it is where a URL can carry it; otherwise it is percent-encoded.
      const sent = raw && /^[\x21-\x7e]+$/.test(segment) && !/[/?#\\]/.test(segment) ? segment : encodeURIComponent(segment);
      const hasBody = takesBody(route);
      const path = pathWith(route, { ...valid, [name]: sent });
      return {
        kind: "path",
        method: route.method,
        path,
        ...(hasBody ? validBody(route, bodies[body % bodies.length]) : { headers: {} }),
        expected: [unservedStatus(route.method, path)],
      };
    })
    .filter(keep((request) => !reachesValidRoute(request.method, request.path)));
}

const badQueryValue = fc.oneof(
  fc.constantFrom(
    ...["", "-1", "0", "abc", "1.5", "1e3", "0x1", "true", "TRUE", "null", "2147483648", "99999999999999999999"],
    ...[" 1", "1 ", "name.sideways", "-", "💥", "\u0000", "[]"],
  ),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.string({ minLength: 65, maxLength: 3_000 }),
);

function queryRequests(routeCase: RouteCase): fc.Arbitrary<FuzzRequest> | undefined {
  const { route } = routeCase;
  if (!route.query) return undefined;
  const names = Object.keys(shapeOf(route.query as z.ZodTypeAny));
  const [basePath, baseQuery = ""] = routeCase.path.split("?") as [string, string?];
  return fc
    .record({
      name: fc.constantFrom(...names),
      values: fc.array(badQueryValue, { minLength: 1, maxLength: 3 }),
      unknown: fc.option(fc.string({ unit: "grapheme", minLength: 1, maxLength: 10 })),
    })
    .map(({ name, values, unknown }): FuzzRequest => {
      const query = new URLSearchParams(baseQuery);
      query.delete(name);
      for (const value of values) query.append(name, value);
      // Unknown parameters are ignored; they ride along to show they change nothing.
      if (unknown !== null && !names.includes(unknown)) query.append(unknown, "1");
      return { kind: "query", method: route.method, path: `${basePath}?${query}`, headers: {}, expected: [400] };
    })
    .filter(keep((request) => !(route.query as z.ZodTypeAny).safeParse(queryObject(request.path)).success));
}

function bodyRequests(routeCase: RouteCase, bodies: unknown[]): fc.Arbitrary<FuzzRequest> | undefined {
  const { route } = routeCase;
  if (!takesBody(route)) return undefined;
  if (takesRawBody(route)) return rawBytesRequests(routeCase, bodies as Uint8Array[]);
  return fc
    .record({ base: fc.nat(), mutations: fc.array(mutationArbitrary(MUTATIONS), { minLength: 1, maxLength: 3 }) })
    .map(({ base, mutations }): FuzzRequest => {
      const text = mutated(bodies[base % bodies.length], mutations) ?? "";
      return {
        kind: "body",
        method: route.method,
        path: routeCase.path,
        headers: jsonHeaders,
        rawBody: text,
        expected: Buffer.byteLength(text) > MAX_BODY_BYTES ? [413] : [400],
      };
    })
    .filter(keep((request) => !bodyPasses(route, request.rawBody as string)));
}

const notJson = [
  "{",
  "}",
  "[",
  "nul",
  "tru",
  "{'name':1}",
  "{name:1}",
  "NaN",
  "Infinity",
  "undefined",
  "0x10",
  '{"a":1,}',
  '"unterminated',
  "//comment\n{}",
  "[1,2",
  "{}{}",
  '{"a":1}garbage',
  "\u0000",
  "<xml/>",
  "name=x&value=y",
];
const jsonButNotAnObject = ["null", "1", '"text"', "[]", "true", "[{}]", "-0", "1e400"];
/** JSON nested far deeper than the call stack, which any recursive walk of the body would overflow. */
const deepJson = fc
  .record({ depth: fc.integer({ min: 1_000, max: 200_000 }), objects: fc.boolean() })
  .map(({ depth, objects }) => (objects ? `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}` : `${"[".repeat(depth)}${"]".repeat(depth)}`));
const contentTypes = [
  "application/json",
  "application/json; charset=utf-8",
  "APPLICATION/JSON",
  "application/vnd.api+json",
  "text/plain",
  "application/x-www-form-urlencoded",
  "application/xml",
  "multipart/form-data; boundary=x",
  "application/jsonx",
  "text/json",
  "application/octet-stream",
  "",
];

// ------------------------------------------------------------------------------------------------
// Routes that take raw bytes
// ------------------------------------------------------------------------------------------------

function rawBytesPass(route: AppRoute, bytes: Uint8Array): boolean {
  return bytes.byteLength <= MAX_BODY_BYTES && bodySchema(route).safeParse(bytes).success;
}

/** Bytes a raw route's schema may refuse: random ones, text and JSON, valid bytes cut short or with a header byte changed, and too many. */
function rawCandidates(bodies: Uint8Array[]): fc.Arbitrary<Uint8Array<ArrayBuffer>> {
  const base = (index: number) => bodies[index % bodies.length]!;
  return fc.oneof(
    fc.uint8Array({ maxLength: 64 }).map((bytes) => new Uint8Array(bytes)),
    fc.constantFrom("{}", '{"binary":"AGFzbQEAAAA="}', "\0asm", "asm", "null").map((text) => new Uint8Array(Buffer.from(text))),
    fc.record({ at: fc.nat(), cut: fc.nat() }).map(({ at, cut }) => base(at).slice(0, cut % 8)),
    fc.record({ at: fc.nat(), index: fc.integer({ min: 0, max: 7 }), value: fc.integer({ min: 0, max: 255 }) }).map(({ at, index, value }) => {
      const bytes = base(at).slice();
      bytes[index] = value;
      return bytes;
    }),
    fc.constant(null).map(() => {
      const bytes = new Uint8Array(MAX_BODY_BYTES + 10);
      bytes.set(base(0));
      return bytes;
    }),
  );
}

/** Mangled bytes, sent as the route takes them (application/octet-stream): 400 naming the body, or 413 past the limit. */
function rawBytesRequests(routeCase: RouteCase, bodies: Uint8Array[]): fc.Arbitrary<FuzzRequest> {
  const { route } = routeCase;
  return rawCandidates(bodies)
    .map(
      (bytes): FuzzRequest => ({
        kind: "body",
        method: route.method,
        path: routeCase.path,
        headers: rawHeaders,
        rawBody: bytes,
        expected: bytes.byteLength > MAX_BODY_BYTES ? [413] : [400],
      }),
    )
    .filter(keep((request) => !rawBytesPass(route, request.rawBody as Uint8Array)));
}

/** Bytes, valid or not, with any content type: 413 past the limit, else 415 for any type but the route's (and not JSON), 400 for bytes it refuses. */
function rawTypeRequests(routeCase: RouteCase, bodies: Uint8Array[]): fc.Arbitrary<FuzzRequest> {
  const { route } = routeCase;
  const bytes = fc.oneof(rawCandidates(bodies), fc.constantFrom(...bodies).map((valid) => valid.slice()));
  const types = [...contentTypes.filter((type) => type !== RAW_BODY), "application/wasm", "APPLICATION/OCTET-STREAM", "application/octet-stream; charset=binary"];
  return fc
    .record({ bytes, contentType: fc.constantFrom(...types) })
    .map(({ bytes, contentType }): FuzzRequest => {
      const ownType = /^application\/octet-stream\s*(?:;|$)/i.test(contentType);
      // An empty body is no body: no bytes, which the route refuses (400), whatever the type said.
      const expected = bytes.byteLength > MAX_BODY_BYTES ? [413] : bytes.byteLength > 0 && !ownType ? [415] : [400];
      return { kind: "raw body", method: route.method, path: routeCase.path, headers: contentType ? { "content-type": contentType } : {}, rawBody: bytes, expected };
    })
    .filter(keep((request) => !rawBytesPass(route, request.rawBody as Uint8Array) || request.expected[0] !== 400));
}

function rawBodyRequests(routeCase: RouteCase, bodies: unknown[]): fc.Arbitrary<FuzzRequest> | undefined {
  const { route } = routeCase;
  if (!takesBody(route)) return undefined;
  if (takesRawBody(route)) return rawTypeRequests(routeCase, bodies as Uint8Array[]);
  const text = fc.oneof(
    fc.constantFrom(...notJson, ...jsonButNotAnObject),
    deepJson,
    fc.string({ unit: "binary", maxLength: 200 }),
    fc.record({ base: fc.nat(), cut: fc.nat() }).map(({ base, cut }) => {
      const json = JSON.stringify(bodies[base % bodies.length]);
      return json.slice(0, cut % json.length);
    }),
    fc.record({ base: fc.nat(), tail: fc.constantFrom("}", ",", "x", "\u0000", "]", '"') }).map(
      ({ base, tail }) => `${JSON.stringify(bodies[base % bodies.length])}${tail}`,
    ),
  );
  return fc
    .record({ text, contentType: fc.constantFrom(...contentTypes) })
    .map(({ text, contentType }): FuzzRequest => {
      const seen = serverText(text);
      // Over 1 MiB is 413 before anything else, then a content type that is not JSON 415; an empty body is no body.
      const expected =
        Buffer.byteLength(text) > MAX_BODY_BYTES ? [413] : seen !== "" && !(contentType && JSON_TYPE.test(contentType)) ? [415] : [400];
      return {
        kind: "raw body",
        method: route.method,
        path: routeCase.path,
        headers: contentType ? { "content-type": contentType } : {},
        rawBody: text,
        expected,
      };
    })
    .filter(keep((request) => !bodyPasses(route, request.rawBody as string) || request.expected[0] !== 400));
}

/** Another method on a route's path (405), or the path with something after it (404): no route matches. */
function methodRequests(routeCase: RouteCase, bodies: unknown[]): fc.Arbitrary<FuzzRequest> {
  const path = routeCase.path.split("?")[0]!;
  return fc
    .record({ method: fc.constantFrom(...METHODS), suffix: fc.constantFrom("", "/extra", "/..;", "/%2F", ".json", "/1") })
    .map(({ method, suffix }): FuzzRequest => {
      // A JSON body, which every route but a raw one takes (a raw route's bytes go only where it is: not here).
      const hasBody = method !== "GET" && bodies.length > 0 && !takesRawBody(routeCase.route);
      return {
        kind: "method",
        method,
        path: `${path}${suffix}`,
        headers: hasBody ? jsonHeaders : {},
        ...(hasBody ? { rawBody: JSON.stringify(bodies[0]) } : {}),
        expected: [unservedStatus(method, `${path}${suffix}`)],
      };
    })
    .filter(keep((request) => !reachesValidRoute(request.method, request.path)));
}

/** Credentials that must not let a request through: 401 or, for a role that may not call the route, 403. */
function credentialRequests(routeCase: RouteCase, bodies: unknown[]): fc.Arbitrary<FuzzRequest> {
  const admin = demoToken(1, "role-1-active").plaintext;
  const denied: [string | null, number][] = [
    [null, 401],
    ["", 401],
    ["   ", 401],
    [`Bearer ${admin}`, 401],
    [`Basic ${Buffer.from(`apikey:${admin}`).toString("base64")}`, 401],
    ["apikey", 401],
    ["apikey cp_demo_00000000000000000000000000000000", 401],
    [`apikey ${admin} extra`, 401],
    [`apikey\t${admin}`, 401],
    [`apikey ${admin}x`, 401],
    [`apikey ${admin.toUpperCase()}`, 401],
    [admin, 401],
    [`apikey=${admin}`, 401],
    [`apikey ${"a".repeat(5_000)}`, 401],
    [authorization([1, "role-5-expired"]), 401],
    [authorization([1, "role-2-deleted"]), 401],
    ...(mayCall(routeCase.route, 3009) ? [] : ([[authorization([1, "role-3009-active"]), 403]] as [string, number][])),
    ...(mayCall(routeCase.route, 3022) ? [] : ([[authorization([2, "role-3022-active"]), 403]] as [string, number][])),
    ...(mayCall(routeCase.route, 2) ? [] : ([[authorization([1, "role-2-active"]), 403]] as [string, number][])),
  ];
  const hasBody = takesBody(routeCase.route);
  return fc.record({ credential: fc.constantFrom(...denied), body: fc.nat() }).map(
    ({ credential: [header, status], body }): FuzzRequest => ({
      kind: "credentials",
      method: routeCase.route.method,
      path: routeCase.path,
      authorization: header,
      ...(hasBody ? validBody(routeCase.route, bodies[body % bodies.length]) : { headers: {} }),
      expected: [status],
    }),
  );
}

const oddRequestIds = fc.oneof(
  fc.constantFrom(
    ...["x".repeat(129), "has space", "semi;colon", "ünïcode", "../../etc/passwd", "<script>"],
    ...["trace-1.2_3", "a", "req_00000000000000000000000000000000"],
  ),
  fc.stringMatching(/^[A-Za-z0-9._-]{1,128}$/),
);

const oddHeaderPairs: [string, string][] = [
  ["accept", "text/html"],
  ["accept", "application/xml;q=1, */*;q=0"],
  ["accept-encoding", "gzip, br"],
  ["content-encoding", "gzip"],
  ["cookie", "session=abc; other=def"],
  ["origin", "https://evil.example"],
  ["x-forwarded-for", "203.0.113.1, 198.51.100.2"],
  ["x-http-method-override", "DELETE"],
  ["x-large", "v".repeat(8_000)],
  ["if-none-match", '"*"'],
  ["range", "bytes=0-1"],
];

/** Any of the invalid requests above, sent with an odd request id and other headers the API does not use. */
function headerRequests(inner: fc.Arbitrary<FuzzRequest>): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({ request: inner, requestId: fc.option(oddRequestIds), extra: fc.subarray(oddHeaderPairs, { maxLength: 3 }) })
    .map(({ request, requestId, extra }): FuzzRequest => {
      const headers: Record<string, string> = { ...Object.fromEntries(extra), ...request.headers };
      if (requestId !== null) headers["x-request-id"] = requestId;
      return { ...request, kind: "headers", headers };
    });
}

/** Every kind of invalid request that applies to the route; mutated bodies, the richest, weigh the most. */
function invalidRequests(routeCase: RouteCase): fc.Arbitrary<FuzzRequest> {
  const bodies = takesBody(routeCase.route) ? validBodies(routeCase) : [];
  const kinds = [
    { arbitrary: pathRequests(routeCase, bodies), weight: 2 },
    { arbitrary: queryRequests(routeCase), weight: 3 },
    { arbitrary: bodyRequests(routeCase, bodies), weight: 6 },
    { arbitrary: rawBodyRequests(routeCase, bodies), weight: 2 },
    { arbitrary: credentialRequests(routeCase, bodies), weight: 1 },
    { arbitrary: methodRequests(routeCase, bodies), weight: 1 },
  ].filter((kind): kind is { arbitrary: fc.Arbitrary<FuzzRequest>; weight: number } => kind.arbitrary !== undefined);
  return fc.oneof(...kinds, { arbitrary: headerRequests(fc.oneof(...kinds)), weight: 2 });
}

/**
 * Requests that pass the contract but carry hostile content (NUL characters, lone surrogates, long and
 * odd text, odd record keys, deep JSON where any value is taken): they may succeed and change data, but
 * must never answer 5xx. Each mutation is kept only if the body still passes, so generation always ends.
 */
function hostileRequests(routeCase: RouteCase): fc.Arbitrary<FuzzRequest> | undefined {
  const { route } = routeCase;
  const [basePath, baseQuery = ""] = routeCase.path.split("?") as [string, string?];
  if (takesRawBody(route)) {
    // A valid header, then any bytes: may be stored (201), never a 5xx.
    const [header] = validBodies(routeCase) as Uint8Array[];
    return fc.uint8Array({ maxLength: 512 }).map((tail): FuzzRequest => {
      const bytes = new Uint8Array(header!.byteLength + tail.byteLength);
      bytes.set(header!);
      bytes.set(tail, header!.byteLength);
      return { kind: "body", method: route.method, path: routeCase.path, headers: rawHeaders, rawBody: bytes, expected: [] };
    });
  }
  if (takesBody(route)) {
    const bodies = validBodies(routeCase);
    const kinds = ["unicode", "unicode in text", "unicode in text", "unknown key", "huge string", "deep nesting", "remove key", "empty"] as const;
    return fc
      .record({ base: fc.nat(), mutations: fc.array(mutationArbitrary(kinds), { minLength: 1, maxLength: 4 }) })
      .map(({ base, mutations }): FuzzRequest => {
        let text = JSON.stringify(bodies[base % bodies.length]);
        for (const mutation of mutations) {
          const next = mutated(JSON.parse(text), [mutation]);
          if (next !== undefined && bodyPasses(route, next)) text = next;
          else counts.discarded++;
        }
        return { kind: "body", method: route.method, path: routeCase.path, headers: jsonHeaders, rawBody: text, expected: [] };
      });
  }
  if (!route.query) return undefined;
  const schema = route.query as z.ZodTypeAny;
  // Only parameters that take free text can carry it and still pass.
  const names = Object.keys(shapeOf(schema)).filter((name) => schema.safeParse({ [name]: "free text ✓" }).success);
  if (!names.length) return undefined;
  return fc
    .record({
      name: fc.constantFrom(...names),
      value: fc.oneof(fc.constantFrom(...UNICODE, "%", "_", "\\", "'", '"', "--", "*"), fc.string({ unit: "binary", maxLength: 64 })),
    })
    .map(({ name, value }): FuzzRequest => {
      const query = new URLSearchParams(baseQuery);
      query.set(name, value);
      return { kind: "query", method: route.method, path: `${basePath}?${query}`, headers: {}, expected: [] };
    })
    .filter(keep((request) => schema.safeParse(queryObject(request.path)).success));
}

// ------------------------------------------------------------------------------------------------
// Checks
// ------------------------------------------------------------------------------------------------

/** Every failure is the envelope, with the request id of the header; a sent id is echoed when reasonable. */
function checkReply(request: FuzzRequest, reply: Reply): void {
  const what = `${request.kind}: ${request.method} ${request.path.slice(0, 200)} → ${reply.status} ${reply.text.slice(0, 300)}`;
  expect(reply.status, what).toBeLessThan(500);
  if (request.expected.length) expect(request.expected, what).toContain(reply.status);
  const requestId = reply.headers.get("x-request-id");
  const sent = request.headers["x-request-id"];
  if (sent !== undefined && REQUEST_ID.test(sent)) expect(requestId, what).toBe(sent);
  else expect(requestId, what).toMatch(/^req_[0-9a-f]{32}$/);
  if (reply.status < 300) return;
  expectSomeEnvelope(reply, what);
}

/** The state the fuzzing must not touch: every row of every table, but the rate limiter's buckets and tokens' last use. */
async function dumpTables(db: Database): Promise<Record<string, string[]>> {
  const tables = await selectRows<{ name: string }>(
    db,
    sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  const dump: Record<string, string[]> = {};
  for (const { name } of tables) {
    // The CDN audit log records refused writes too: each fuzzed CDN write is in it, by design.
    if (name === "rate_limit_buckets" || name === "cdn_audit_log") continue;
    const rows = await selectRows(db, sql`select * from ${sql.identifier(name)}`);
    dump[name] = rows
      .map((row) => {
        const { last_usage: _lastUsage, ...kept } = row;
        return JSON.stringify(name === "api_tokens" ? kept : row);
      })
      .sort();
  }
  return dump;
}

function tally(into: Record<string, number>, key: string | number): void {
  into[key] = (into[key] ?? 0) + 1;
}

describe.each(engines())("fuzzing every route on %s", (engine) => {
  const api = useApi(engine);
  let before: Record<string, string[]>;
  const statuses: Record<string, number> = {};
  const kinds: Record<string, number> = {};
  const hostileStatuses: Record<string, number> = {};
  let sent = 0;
  let hostileSent = 0;
  let started = 0;

  // Over HTTP, through the Node server a deployment runs: what the bridge and Node's HTTP layer make of a request is fuzzed too.
  let server: Server | undefined;
  let origin = "";
  const send = async (request: FuzzRequest): Promise<Reply> => {
    const built = buildRequest(request.method, request.path, {
      headers: request.headers,
      ...(request.rawBody === undefined ? {} : { rawBody: request.rawBody }),
      ...(request.authorization === undefined ? {} : { authorization: request.authorization }),
    });
    const url = new URL(built.url);
    const reply = await replyOf(await fetch(`${origin}${url.pathname}${url.search}`, { method: built.method, headers: built.headers, body: request.rawBody }));
    api.recordReply({ method: request.method, path: request.path, status: reply.status, headers: Object.fromEntries(reply.headers), body: reply.text });
    return reply;
  };

  beforeAll(async () => {
    server = await serve(api.handler, { port: 0, hostname: "127.0.0.1" });
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    before = await dumpTables(api.database.db);
    started = performance.now();
    counts.discarded = 0;
  });
  afterAll(async () => {
    if (server) await shutdown(server);
  });

  describe.each(routeCases.map((routeCase, index) => ({ ...routeCase, index })))("$name", (routeCase) => {
    it(`answers ${RUNS_PER_ROUTE} invalid requests with a 4xx in the error envelope`, { timeout: 300_000 }, async () => {
      await fc.assert(
        fc.asyncProperty(invalidRequests(routeCase), async (request) => {
          const reply = await send(request);
          sent++;
          tally(statuses, reply.status);
          tally(kinds, request.kind);
          checkReply(request, reply);
        }),
        { seed: SEED + routeCase.index, numRuns: RUNS_PER_ROUTE, endOnFailure: true },
      );
    });
  });

  it("left every table as it was", async () => {
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `fuzz (${engine}): seed ${SEED}, ${sent} invalid requests over ${routeCases.length} routes in ${seconds.toFixed(1)} s ` +
        `(${(sent / seconds).toFixed(0)}/s); by kind ${JSON.stringify(kinds)}; by status ${JSON.stringify(statuses)}; ` +
        `${counts.discarded} generated candidates discarded as valid`,
    );
    expect(await dumpTables(api.database.db)).toEqual(before);
    expect(Object.keys(statuses).every((status) => Number(status) >= 400 && Number(status) < 500)).toBe(true);
    expect(sent).toBeGreaterThanOrEqual(REQUESTS);
  });

  describe.each(
    routeCases.map((routeCase, index) => ({ ...routeCase, index, hostile: hostileRequests(routeCase) })).filter((routeCase) => routeCase.hostile),
  )("$name, valid by the contract but hostile", (routeCase) => {
    it(`never answers 5xx to ${HOSTILE_RUNS_PER_ROUTE} requests`, { timeout: 300_000 }, async () => {
      await fc.assert(
        fc.asyncProperty(routeCase.hostile!, async (request) => {
          const reply = await send(request);
          hostileSent++;
          tally(hostileStatuses, reply.status);
          checkReply(request, reply);
        }),
        { seed: SEED + routeCase.index, numRuns: HOSTILE_RUNS_PER_ROUTE, endOnFailure: true },
      );
    });
  });

  it("counted the hostile requests", () => {
    console.log(`fuzz (${engine}): seed ${SEED}, ${hostileSent} valid but hostile requests; by status ${JSON.stringify(hostileStatuses)}`);
    expect(hostileSent).toBeGreaterThan(0);
  });
});
