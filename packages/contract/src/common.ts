/**
 * Building blocks shared by every area of the contract: scalar formats, integers held to their column's
 * range, lists and maps of bounded size, path and query parameters, strict request bodies, the
 * authorization header and the one error envelope (the guide's Errors section; `errorEnvelope`'s description).
 */
import { z } from "zod";

/** The range of a PostgreSQL `integer` column (int32): the range of every integer the API stores as one. */
export const INT32_MIN = -2_147_483_648;
export const INT32_MAX = 2_147_483_647;

/** The largest id the API hands out (PostgreSQL `integer`); larger path ids are rejected, not looked up. */
export const MAX_ID = INT32_MAX;

/** The column an integer is stored in: `integer` (int32) or `bigint`, held to the integers JavaScript represents exactly. */
export type IntegerColumn = "integer" | "bigint";

const COLUMN_RANGE: Record<IntegerColumn, readonly [number, number]> = {
  integer: [INT32_MIN, INT32_MAX],
  bigint: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};

export interface IntegerOptions {
  /** At least this (default: the column's least value). */
  min?: number;
  /** At most this (default: the column's greatest value). */
  max?: number;
  /** The column the value is stored in; default `integer`. */
  column?: IntegerColumn;
}

function integerBounds({ min, max, column = "integer" }: IntegerOptions): [number, number] {
  const [least, greatest] = COLUMN_RANGE[column];
  const bounds: [number, number] = [min ?? least, max ?? greatest];
  if (bounds[0] < least || bounds[1] > greatest || bounds[0] > bounds[1])
    throw new Error(`An ${column} column holds ${least} to ${greatest}: ${bounds[0]} to ${bounds[1]} is not within it.`);
  return bounds;
}

/**
 * An integer of the contract, in the range of the column that stores it (int32 unless `column` is
 * `bigint`), narrowed by `min` and `max`: a value out of range, such as 2147483648 or 1e300, is refused
 * with the field's path instead of reaching the database. Every integer of the contract is made here,
 * in bodies, responses and (through integerParam) paths and queries.
 */
export function integer(options: IntegerOptions = {}): z.ZodNumber {
  const [min, max] = integerBounds(options);
  return z.number().int().min(min, `Must be at least ${min}.`).max(max, `Must be at most ${max}.`);
}

/** The bounds `integer` gave `schema`, or undefined for a number schema made elsewhere. */
export function integerRange(schema: z.ZodNumber): { min: number; max: number } | undefined {
  if (!schema.isInt || schema.minValue === null || schema.maxValue === null) return undefined;
  return { min: schema.minValue, max: schema.maxValue };
}

/** The size of a list or map: its length or its number of keys, counted only as far as `limit` + 1. */
function sizeUpTo(value: unknown, limit: number): number | undefined {
  if (Array.isArray(value)) return value.length;
  if (typeof value !== "object" || value === null) return undefined;
  let size = 0;
  for (const key in value) if (Object.hasOwn(value, key) && ++size > limit) break;
  return size;
}

/**
 * Refuses a list or map of more than `max` entries with one problem, before any entry is looked at (a
 * fatal issue: the schema inside is not run), so that a long one costs no more than a short one.
 */
function sizeGate(max: number, message: string) {
  return (value: unknown, ctx: z.RefinementCtx) => {
    if ((sizeUpTo(value, max) ?? 0) > max) ctx.addIssue({ code: z.ZodIssueCode.custom, message, fatal: true });
    return value;
  };
}

export interface SizeOptions {
  /** At most this many entries, said in the description and refused with 400 beyond it. */
  max: number;
  /** What the entries are, plural, for the description and the message: "origins" → "At most 100 origins." */
  noun: string;
  /** What the list or map is; the limit is added after it. */
  description: string;
}

/**
 * A list of at most `max` items (and at least `min`), with the limit in its description: a longer one
 * is refused with one problem before any item is checked. Every list a client sends is made here.
 */
export function listOf<T extends z.ZodTypeAny>(item: T, options: SizeOptions & { min?: number; minMessage?: string }) {
  const { max, noun, description, min, minMessage } = options;
  const tooMany = `At most ${max} ${noun}.`;
  let list = z.array(item).max(max, tooMany);
  if (min !== undefined) list = list.min(min, minMessage ?? `At least ${min} ${noun}.`);
  const schema = z.preprocess(sizeGate(max, tooMany), list).describe(`${description} ${tooMany}`);
  return schema as unknown as z.ZodType<z.output<typeof list>, z.ZodTypeDef, z.input<typeof list>>;
}

/** The maximum of each map made by mapOf, by its record schema (which `.describe()` and `.optional()` keep). */
const MAP_LIMITS = new WeakMap<z.ZodTypeAny, number>();

/** The most entries a map made by mapOf takes; undefined for a record made otherwise. */
export function mapLimit(record: z.ZodRecord): number | undefined {
  return MAP_LIMITS.get(record);
}

/**
 * A map (a JSON object of keys chosen by the client) of at most `max` entries, with the limit in its
 * description: a larger one is refused with one problem before any key or value is checked. Every map
 * a client sends is made here.
 */
export function mapOf<K extends z.ZodType<string, z.ZodTypeDef, string>, V extends z.ZodTypeAny>(key: K, value: V, options: SizeOptions) {
  const { max, noun, description } = options;
  const tooMany = `At most ${max} ${noun}.`;
  const map = z.record(key, value);
  MAP_LIMITS.set(map, max);
  const schema = z.preprocess(sizeGate(max, tooMany), map).describe(`${description} ${tooMany}`);
  return schema as unknown as z.ZodType<z.output<typeof map>, z.ZodTypeDef, z.input<typeof map>>;
}

/** The limits of a JSON value a client writes freely (`jsonValue`). */
export interface JsonLimits {
  /** Arrays and objects inside one another, the value itself counting as 1. */
  depth: number;
  /** Items of each array. */
  items: number;
  /** Keys of each object. */
  properties: number;
  /** Characters of each string (and of each key). */
  stringLength: number;
}

/**
 * Any JSON value, within `limits`: checked by one walk that looks at each array's and object's size
 * before its entries and never goes deeper than `limits.depth`, so that the work is bounded by the body's
 * size and nothing later (a JSON Schema check, the database) meets a value larger or deeper than these.
 */
export function jsonValue(limits: JsonLimits, description: string) {
  const described =
    `At most ${limits.depth} levels of arrays and objects, ${limits.items} items per array, ${limits.properties} keys per object ` +
    `and ${limits.stringLength} characters per string.`;
  const schema = z.unknown().superRefine((root, ctx) => {
    const problem = (path: (string | number)[], message: string) => ctx.addIssue({ code: z.ZodIssueCode.custom, path, message });
    const visit = (value: unknown, path: (string | number)[], depth: number): void => {
      if (typeof value === "string") {
        if (value.length > limits.stringLength) problem(path, `At most ${limits.stringLength} characters.`);
        return;
      }
      if (typeof value !== "object" || value === null) return;
      if (depth > limits.depth) return problem(path, `Nested too deep: at most ${limits.depth} levels of arrays and objects.`);
      if (Array.isArray(value)) {
        if (value.length > limits.items) return problem(path, `At most ${limits.items} items.`);
        value.forEach((item, index) => visit(item, [...path, index], depth + 1));
        return;
      }
      if ((sizeUpTo(value, limits.properties) ?? 0) > limits.properties) return problem(path, `At most ${limits.properties} keys.`);
      for (const [key, item] of Object.entries(value)) {
        if (key.length > limits.stringLength) problem([...path, key], `Keys of at most ${limits.stringLength} characters.`);
        visit(item, [...path, key], depth + 1);
      }
    };
    visit(root, [], 1);
  });
  return schema.describe(`${description} ${described}`);
}

const INTEGER_TEXT = /^-?\d{1,16}$/;

/**
 * The number a path segment or query string stands for. Only plain decimal digits are read ("12"),
 * never "1e3", "0x10", " 12" or "12abc", so a typo never lands on another object: any other value is
 * passed on as it is, for the schema to reject.
 */
function integerFromText(value: unknown): unknown {
  return typeof value === "string" && INTEGER_TEXT.test(value) ? Number(value) : value;
}

/**
 * An integer read from a path segment or a query string (digits only, see integerFromText).
 * Typed as a number for callers; the text form is what travels in the URL.
 */
export function integerParam(options: { min?: number; max?: number; description: string }) {
  const [min, max] = integerBounds({ min: options.min ?? 0, max: options.max });
  const schema = z.preprocess(
    integerFromText,
    z
      .number({ invalid_type_error: "Must be an integer." })
      .int("Must be an integer.")
      .min(min, `Must be at least ${min}.`)
      .max(max, `Must be at most ${max}.`),
  );
  return schema.describe(options.description) as unknown as z.ZodType<number, z.ZodTypeDef, number>;
}

/**
 * An integer read from a path segment or a query string, as integerParam reads it, that must be one of
 * `values`: an enum, so that the OpenAPI document lists them.
 */
export function integerEnumParam<const T extends readonly [number, number, ...number[]]>(values: T, description: string) {
  const schema = z.preprocess(integerFromText, integerEnum(values));
  return schema.describe(description) as unknown as z.ZodType<T[number], z.ZodTypeDef, T[number]>;
}

/** An id in a path: a positive integer. */
export function idParam(description: string) {
  return integerParam({ min: 1, description });
}

/** A boolean in a query string: exactly `true` or `false`. */
export function booleanQuery(description: string) {
  const schema = z.preprocess(
    (value) => (value === "true" ? true : value === "false" ? false : value),
    z.boolean({ invalid_type_error: "Must be true or false." }),
  );
  return schema.describe(description) as unknown as z.ZodType<boolean, z.ZodTypeDef, boolean>;
}

/** The most items a page of any offset-paged list holds. */
export const PAGE_MAX = 1000;

/**
 * The query parameters of an offset-paged list: `limit` (1 to `max`, default `defaultLimit`) and `offset`,
 * each with its default in its description. `noun` names what `offset` skips.
 */
export function paging(noun: string, defaultLimit: number, max = PAGE_MAX) {
  return {
    limit: integerParam({ min: 1, max, description: `Page size, 1 to ${max}. Default ${defaultLimit}.` }).default(defaultLimit),
    offset: integerParam({ min: 0, description: `Number of matching ${noun} skipped. Default 0.` }).default(0),
  };
}

/** A page of an offset-paged list, the platform's `{count, results}` envelope: the page's items and how many match. */
export function pageOf<T extends z.ZodTypeAny>(item: T, noun: string) {
  return z
    .object({
      count: integer().describe(`The number of ${noun} that match the filters, before limit and offset.`),
      results: z.array(item).describe(`The ${noun} of this page.`),
    })
    .strict()
    .describe(`A page of ${noun}, and the number of all the ${noun} that match.`);
}

/** A string that must be one of `values`, with a message that lists them. */
export function stringEnum<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values as unknown as [T[number], ...T[number][]], {
    errorMap: () => ({ message: `Must be one of: ${values.join(", ")}.` }),
  });
}

/** An integer that must be one of `values`, with a message that lists them. */
export function integerEnum<const T extends readonly [number, number, ...number[]]>(values: T, message?: string) {
  const literals = values.map((value) => z.literal(value)) as unknown as [
    z.ZodLiteral<T[number]>,
    z.ZodLiteral<T[number]>,
    ...z.ZodLiteral<T[number]>[],
  ];
  return z.union(literals, {
    errorMap: () => ({ message: message ?? `Must be one of: ${values.join(", ")}.` }),
  });
}

/** An email address as the service takes it: a local part of 1 to 64 characters, an @ and a domain with a dot (254 characters at most in all). */
export const EMAIL_PATTERN = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]+$/;

/** ISO 8601 UTC timestamp, e.g. `2026-03-01T12:00:00.000Z`. */
export const isoTimestamp = z
  .string()
  .datetime({ offset: false, message: "Must be an ISO 8601 UTC timestamp." })
  .describe("ISO 8601 UTC timestamp, e.g. 2026-03-01T12:00:00.000Z.");

/** The CDN area's timestamp: `YYYY-MM-DD HH:MM:SS.ffffff+00:00`. */
export const cdnTimestamp = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/, "Must look like 2026-03-01 12:00:00.123456+00:00.")
  .describe("UTC timestamp with microseconds: YYYY-MM-DD HH:MM:SS.ffffff+00:00.");

/** The IAM area's timestamp: `YYYY-MM-DD HH:MM:SS+00:00`. */
export const iamTimestamp = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\+00:00$/, "Must look like 2026-03-01 12:00:00+00:00.")
  .describe("UTC timestamp: YYYY-MM-DD HH:MM:SS+00:00.");

export const uuid = z.string().uuid("Must be a UUID.");

const HOSTNAME_LABEL = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?";
const HOSTNAME = new RegExp(`^(?=.{1,253}$)${HOSTNAME_LABEL}(?:\\.${HOSTNAME_LABEL})+$`, "i");

/** A fully qualified host name such as `cdn.example.com` (at least two labels). */
export const hostname = z.string().regex(HOSTNAME, "Must be a host name such as cdn.example.com.");

/** Is `value` a host name (as `hostname` accepts)? */
export function isHostname(value: string): boolean {
  return HOSTNAME.test(value);
}

/** An HTTP header name (RFC 9110 token). */
export const headerName = z
  .string()
  .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,256}$/, "Must be an HTTP header name.");

const IPV4 = z.string().ip({ version: "v4" });
const IPV6 = z.string().ip({ version: "v6" });

/** Does `value` parse as an IPv4 address? */
export function isIPv4(value: string): boolean {
  return IPV4.safeParse(value).success;
}

/** Does `value` parse as an IPv6 address? */
export function isIPv6(value: string): boolean {
  return IPV6.safeParse(value).success;
}

export const ipAddress = z.string().ip({ message: "Must be an IPv4 or IPv6 address." });

/** An IPv4 or IPv6 block in CIDR notation, e.g. `192.0.2.0/24` or `2001:db8::/32`. */
export const cidr = z.string().refine(
  (value) => {
    const [address, prefix, extra] = value.split("/");
    if (address === undefined || prefix === undefined || extra !== undefined || !/^\d{1,3}$/.test(prefix)) return false;
    const bits = Number(prefix);
    if (isIPv4(address)) return bits <= 32;
    if (isIPv6(address)) return bits <= 128;
    return false;
  },
  { message: "Must be a CIDR block such as 192.0.2.0/24 or 2001:db8::/32." },
);

const UNKNOWN_FIELD = "Unknown field: this operation does not take it.";
const READ_ONLY_FIELD = "Read-only field: it is set by the service and cannot be written.";
/** Fields a strict object rejects one by one; past this many, they are rejected together as one problem. */
const MAX_LISTED_UNKNOWN_FIELDS = 100;

/**
 * A strict JSON object for request bodies (no typo passes silently): every field outside `shape` is rejected
 * with its own path and message ("Read-only field" for the ones in `readOnly`, the message given in
 * `rejected` for others that exist but may not be written here, "Unknown field" for the rest), and all
 * such problems are reported together with the other validation errors of the body. An object with
 * more than 100 such fields is rejected with one problem that says how many there are.
 */
export function strictObject<S extends z.ZodRawShape>(
  shape: S,
  options: { readOnly?: readonly string[]; rejected?: Record<string, string>; unknownMessage?: string } = {},
) {
  const messages = new Map<string, string>(Object.entries(options.rejected ?? {}));
  for (const key of options.readOnly ?? []) messages.set(key, READ_ONLY_FIELD);
  const inner = z.object(shape).strict();
  const known = new Set(Object.keys(shape));
  const schema = z.preprocess((value, ctx) => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
    const kept: Record<string, unknown> = {};
    const others: string[] = [];
    let otherCount = 0;
    // Object.keys: one native list of the own keys, several times faster than for…in over tens of thousands of them.
    for (const key of Object.keys(value)) {
      if (known.has(key)) kept[key] = (value as Record<string, unknown>)[key];
      else if (++otherCount <= MAX_LISTED_UNKNOWN_FIELDS) others.push(key);
    }
    if (otherCount > MAX_LISTED_UNKNOWN_FIELDS)
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        message: `${otherCount} fields this operation does not take (unknown or read-only), such as ${others.slice(0, 3).map((key) => JSON.stringify(key.slice(0, 64))).join(", ")}.`,
      });
    else
      for (const key of others)
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: [key], message: messages.get(key) ?? options.unknownMessage ?? UNKNOWN_FIELD });
    return kept;
  }, inner);
  return schema as unknown as z.ZodType<z.output<typeof inner>, z.ZodTypeDef, z.input<typeof inner>>;
}

/** The body of an operation that takes no input: none, or `{}`; `why` says where the input is instead. */
export function emptyInput(why = "the path says it all") {
  return strictObject({}).optional().describe(`No fields: ${why}. The body may be left out, or be an empty JSON object.`);
}

/** The authorization header every route takes; its description is the guide's Authentication section. */
export const authorizationHeaders = z.object({
  authorization: z
    .string()
    .describe(
      "`apikey <API token>`. The scheme word is case-insensitive (`APIKey` works too); any other scheme, " +
        "such as `Bearer`, is rejected with 401 `token_not_valid`. The token decides the account and the role. " +
        "A token is refused from the moment its `exp_date` passes; a token revoked (deleted), or whose user is deleted or " +
        "given another role, takes effect within one second (each server reuses a token's lookup for up to a second).",
    ),
});

/**
 * The most problems a validation failure lists in `errors`; its `message` says how many there were
 * when there were more.
 */
export const MAX_REPORTED_PROBLEMS = 100;

/**
 * The longest field path `errors` names: a longer one (an unknown key of a megabyte) is cut to its first
 * this many characters, followed by `…`.
 */
export const MAX_REPORTED_PATH_LENGTH = 256;

/**
 * The most ids (or names) a message lists, such as the objects that still refer to one being deleted
 * (409); it then says how many more there are.
 */
export const MAX_LISTED_REFERENCES = 10;

/** Every error code the API answers with, and its HTTP status (the table of the guide's Errors section). */
export const ERROR_STATUS = {
  bad_request: 400,
  malformed_json: 400,
  validation_error: 400,
  not_authenticated: 401,
  token_not_valid: 401,
  permission_denied: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  rate_limited: 429,
  request_header_fields_too_large: 431,
  internal: 500,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

/** The one error envelope of every non-2xx response, on every route and every runtime. */
const errorEnvelopeSchema = z
  .object({
    message: z.string().describe("A human-readable sentence saying what went wrong."),
    code: z
      .enum(ERROR_CODES)
      .describe(
        "Machine-readable code: " +
          Object.entries(ERROR_STATUS)
            .map(([code, status]) => `${code} (${status})`)
            .join(", ") +
          ".",
      ),
    errors: z
      .record(z.array(z.string()))
      .optional()
      .describe(
        "Validation failures only: a map from the dotted path of each offending field to its messages. " +
          "Body fields are written as they are sent (`options.cors.value.0`), query parameters as " +
          "`query.<name>`, path parameters as `path.<name>`. It holds at most " +
          `${MAX_REPORTED_PROBLEMS} messages; when there were more problems, \`message\` says how many. A path longer ` +
          `than ${MAX_REPORTED_PATH_LENGTH} characters (an unknown key) is cut to its first ${MAX_REPORTED_PATH_LENGTH}, followed by \`…\`.`,
      ),
    request_id: z.string().describe("The request id, the same as the `x-request-id` response header."),
  })
  .strict()
  .describe(
    "The error envelope. Every response, success or error, carries an `x-request-id` header; a client-sent " +
      "`x-request-id` of at most 128 characters of [A-Za-z0-9._-] is echoed, otherwise a new one is made.",
  );

/** The error envelope's schema type, named so that declaration files refer to it instead of repeating it. */
export interface ErrorEnvelopeSchema extends ErrorEnvelopeObject {}
type ErrorEnvelopeObject = typeof errorEnvelopeSchema;
export const errorEnvelope: ErrorEnvelopeSchema = errorEnvelopeSchema;

export type ErrorEnvelope = z.infer<typeof errorEnvelope>;

const ERROR_DESCRIPTIONS = {
  400: "A request that cannot be read (`bad_request`: a method, URL or Host header HTTP does not allow), malformed JSON (`malformed_json`), or a path, query or body that fails validation (`validation_error`, with `errors`), JSON nested more than 64 levels deep among them (`errors.body`, refused before it is parsed).",
  401: "No Authorization header (`not_authenticated`), or a wrong scheme, unknown, expired or deleted token (`token_not_valid`). Checked before a body is read: a request without a valid token is answered from its headers.",
  403: "The token's role may not call this route, or the path names another account (`permission_denied`).",
  404: "No such route, or no such object in the caller's account (`not_found`). Another account's objects answer 404 too.",
  405: "The path exists but not with this method (`method_not_allowed`); `Allow` lists the methods it has.",
  408: "The client was too slow to send its request's headers or body (`request_timeout`); the connection is closed.",
  409: `A uniqueness or state conflict (\`conflict\`), or a delete of an object others still refer to, whose message names at most ${MAX_LISTED_REFERENCES} of them and counts the rest. A write that races a delete of an object it refers to answers as one order or the other would: 400 on the field, or 409.`,
  413: "The body is over 1 MiB (`payload_too_large`).",
  415: "The body has a content type other than application/json (`unsupported_media_type`).",
  422: "Valid input that the object's current state cannot take (`unprocessable`).",
  429: "Over the token's request rate (`rate_limited`); `Retry-After` says how many seconds to wait.",
  431: "The request line or a header is over the server's size limit (`request_header_fields_too_large`).",
  500: "A bug on our side (`internal`); the body never carries internals.",
  503: "The database cannot be reached (`unavailable`); `Retry-After` says when to try again.",
} as const;

type ErrorStatus = keyof typeof ERROR_DESCRIPTIONS;

/**
 * The error responses of a route: those every route can give, plus `extra` ones that only some do.
 * Routes with a body add 413 and 415 through `withBody`.
 */
export function errorResponses<const E extends readonly ErrorStatus[]>(extra: E = [] as unknown as E) {
  const statuses: ErrorStatus[] = [400, 401, 403, 404, 429, 500, 503, ...extra];
  const responses: Partial<Record<ErrorStatus, typeof errorEnvelope>> = {};
  for (const status of statuses) {
    responses[status] = errorEnvelope.describe(ERROR_DESCRIPTIONS[status]);
  }
  return responses as Record<400 | 401 | 403 | 404 | 429 | 500 | 503 | E[number], typeof errorEnvelope>;
}

/** Error statuses that every route with a JSON body can give, besides the common ones. */
export const withBody = [408, 413, 415] as const;

/**
 * Idempotency keys: a POST sent with `Idempotency-Key` is done once per key and user; a repeat of the same
 * request (method, path, query and body) within `keptHours` answers the first answer, marked with
 * `replayedHeader`. The same key with another request is 422 (`unprocessable`); the same key while its first
 * request is being served is 409 (`conflict`) with `Retry-After`. An answer of 429 or 5xx is not kept, and a
 * first request that never finished frees its key after `abandonedMinutes`.
 */
export const IDEMPOTENCY = {
  header: "Idempotency-Key",
  replayedHeader: "Idempotent-Replayed",
  keptHours: 24,
  abandonedMinutes: 10,
  /** A key: 1 to 255 visible ASCII characters. */
  pattern: "^[\\x21-\\x7e]{1,255}$",
} as const;

/** What the `Idempotency-Key` header does, for the docs (apart from `IDEMPOTENCY`, which deployments read: a bundle leaves this text out). */
export const IDEMPOTENCY_DESCRIPTION =
  "Makes a retried POST safe: the service does the request once per key (per user) and answers a repeat of the same " +
  `request (method, path, query and body) within ${IDEMPOTENCY.keptHours} hours with the first answer, marked \`${IDEMPOTENCY.replayedHeader}: true\`. ` +
  "The same key with another request is 422 (`unprocessable`); while the first request is still being served, 409 " +
  "(`conflict`) with `Retry-After`. An answer of 429 or 5xx is not kept, so a retry after one is done anew. 1 to 255 " +
  "visible ASCII characters, e.g. a UUID; @cloudplane/client sends a new one with each call, the same on each retry.";
