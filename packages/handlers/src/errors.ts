/**
 * The one error envelope: `ApiError` for failures the route code decides, and the
 * mapping of everything else (validation, malformed JSON, unknown routes, bugs) onto the envelope.
 */
import { ERROR_STATUS, MAX_LISTED_REFERENCES, MAX_REPORTED_PATH_LENGTH, MAX_REPORTED_PROBLEMS, type ErrorCode, type ErrorEnvelope } from "@cloudplane/contract";
import type { ZodError } from "zod";
import { randomHex } from "./random.js";

/** A failure with its code, message and, for validation failures, the messages per field path. */
export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly errors?: Record<string, string[]>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "ApiError";
    this.status = ERROR_STATUS[code];
  }
}

/*
 * At most MAX_REPORTED_PROBLEMS (the contract's) messages are reported in a validation failure's
 * `errors`; its message says how many problems there were in all. Every place that collects validation
 * errors adds them through `addFieldError`, which keeps this bound, so that a body with thousands of
 * problems costs no more to answer than one with a hundred.
 */

/** What `addFieldError` keeps beside the messages of a record: how many it holds and how many it left out. */
const TALLY = Symbol("cloudplane.fieldErrors");

interface Tally {
  kept: number;
  leftOut: number;
}

type Tallied = Record<string, string[]> & { [TALLY]?: Tally };

function tallyOf(errors: Tallied): Tally {
  let tally = errors[TALLY];
  if (!tally) {
    tally = { kept: 0, leftOut: 0 };
    // Not enumerable: never part of the envelope.
    Object.defineProperty(errors, TALLY, { value: tally, enumerable: false });
  }
  return tally;
}

/** An empty record of messages per field path, with no prototype: a path such as "__proto__" is a key like any other. */
export function fieldErrors(): Record<string, string[]> {
  return Object.create(null) as Record<string, string[]>;
}

/**
 * Adds a problem to `errors` (messages per field path): the first MAX_REPORTED_PROBLEMS distinct
 * messages are kept (a message a path already has is not added again), the others only counted. The
 * problem is at `path`, or, given `member`, at that member of the value at `path` (`path.member`, or
 * `member` alone where `path` is ""): written out only for a problem that is kept, so a walk over a
 * hundred thousand bad items does not join a hundred thousand paths to count them.
 */
export function addFieldError(errors: Record<string, string[]>, path: string, message: string, member?: string | number): void {
  const tally = tallyOf(errors);
  // Once the report is full, a problem is only counted: no lookup of its path, which may be long.
  if (tally.kept >= MAX_REPORTED_PROBLEMS) {
    tally.leftOut += 1;
    return;
  }
  const fullPath = member === undefined ? path : path ? `${path}.${member}` : String(member);
  // An answer echoes no more of a client's key than this (a megabyte-long unknown key would be a megabyte answer).
  const shown = fullPath.length > MAX_REPORTED_PATH_LENGTH ? `${fullPath.slice(0, MAX_REPORTED_PATH_LENGTH)}…` : fullPath;
  const list = Object.hasOwn(errors, shown) ? errors[shown] : undefined;
  if (list?.includes(message)) return;
  tally.kept += 1;
  // An own property: a key such as "toString" or "__proto__" (an unknown body field) must not find Object.prototype's.
  if (list) list.push(message);
  else Object.defineProperty(errors, shown, { value: [message], enumerable: true, writable: true, configurable: true });
}

/**
 * Ids (or names) for a message: the first MAX_LISTED_REFERENCES of them, and how many more there are of
 * `total` (default: all of `ids` were given).
 */
export function listed(ids: readonly (number | string)[], total = ids.length): string {
  const shown = ids.slice(0, MAX_LISTED_REFERENCES).join(", ");
  return total > MAX_LISTED_REFERENCES ? `${shown} and ${total - MAX_LISTED_REFERENCES} more` : shown;
}

/** The number of problems added to `errors`, kept or not. */
export function problemCount(errors: Record<string, string[]>): number {
  const tally = (errors as Tallied)[TALLY];
  return tally ? tally.kept + tally.leftOut : Object.values(errors).reduce((sum, messages) => sum + messages.length, 0);
}

/**
 * 400 validation_error with the messages per field path: at most MAX_REPORTED_PROBLEMS of them, the
 * message saying how many problems there were when there were more.
 */
export function validationFailed(errors: Record<string, string[]>): ApiError {
  let reported = errors;
  if (!(errors as Tallied)[TALLY]) {
    // Made without addFieldError: bounded here.
    reported = fieldErrors();
    for (const [path, messages] of Object.entries(errors)) for (const message of messages) addFieldError(reported, path, message);
  }
  const count = problemCount(reported);
  const message =
    count > MAX_REPORTED_PROBLEMS
      ? `The request did not pass validation: ${count} problems, of which errors shows the first ${MAX_REPORTED_PROBLEMS}.`
      : "The request did not pass validation: see errors.";
  return new ApiError("validation_error", message, reported);
}

/** 400 validation_error for one field: `invalid("originGroup", "Must be an origin group of the account.")`. */
export function invalid(path: string, message: string): ApiError {
  return validationFailed({ [path]: [message] });
}

/** A new request id: `req_` and 32 hex digits (128 random bits, from random.ts's pool). */
export function newRequestId(): string {
  return `req_${randomHex(32)}`;
}

/** 503 with Retry-After: the database cannot be reached (or a request ran past its deadline). */
export function unavailable(message = "The service cannot reach its database; try again shortly."): ApiError {
  return new ApiError("unavailable", message, undefined, { "retry-after": "5" });
}

export function notFound(what: string): ApiError {
  return new ApiError("not_found", `${what} was not found.`);
}

export function conflict(message: string): ApiError {
  return new ApiError("conflict", message);
}

/**
 * Adds a zod error's issues to `errors` (through addFieldError, so at most MAX_REPORTED_PROBLEMS of
 * them) under dotted paths: body fields as written, query parameters as `query.<name>`, path
 * parameters as `path.<name>`. A problem with the body as a whole (say, no body at all) is reported
 * under `body`.
 */
export function addZodIssues(errors: Record<string, string[]>, error: ZodError, prefix: "" | "query" | "path"): void {
  for (const issue of error.issues) {
    const parts = prefix ? [prefix, ...issue.path] : issue.path;
    const key = parts.length > 0 ? parts.join(".") : "body";
    addFieldError(errors, key, issue.message === "Required" ? "This field is required." : issue.message);
  }
}

/** The envelope of an error. */
export function envelope(error: ApiError, requestId: string): ErrorEnvelope {
  const body: ErrorEnvelope = { message: error.message, code: error.code, request_id: requestId };
  if (error.errors) body.errors = error.errors;
  return body;
}

/** The error's answer: the envelope, with its status and headers and the request id. */
export function errorResponse(error: ApiError, requestId: string): Response {
  return new Response(JSON.stringify(envelope(error, requestId)), {
    status: error.status,
    headers: { ...error.headers, "content-type": "application/json", "x-request-id": requestId },
  });
}

/**
 * What is reported of an unexpected error, for an operator to diagnose it: its kind, message and
 * stack, a driver's code and detail, and what caused it. Never the SQL or its parameters, which may
 * hold credentials and secrets.
 */
export interface ErrorReport {
  name: string;
  message: string;
  /** The driver's error code (e.g. ECONNREFUSED, or a SQLSTATE such as 42P01). */
  code?: string;
  /** The database's detail of the failure (PostgreSQL's DETAIL), when it gives one. */
  detail?: string;
  /**
   * Where it was thrown: the stack's frames (`at …` lines), without the message; for a failed query,
   * where the query was made (the driver's own frames say only where its reply was read).
   */
  stack?: string;
  /** The error's `cause`, reported the same way (at most MAX_REPORTED_CAUSES of them in a chain). */
  cause?: ErrorReport;
}

/** How many causes of an error are reported, one inside the other. */
export const MAX_REPORTED_CAUSES = 5;

/**
 * Drizzle's wrapper of a failed query: its message is "Failed query: <sql> params: <values>", and its
 * cause the driver's error, which says what went wrong without them. The wrapper is reported by its
 * stack only.
 */
function isFailedQuery(error: unknown): error is Error {
  return error instanceof Error && error.message.startsWith("Failed query:") && error.cause !== undefined;
}

/**
 * The stack's frames: what follows the message (the stack's first lines repeat it), or, if the
 * message changed since the stack was taken, only the lines that are frames.
 */
function framesOf(error: Error): string | undefined {
  const stack = typeof error.stack === "string" ? error.stack : undefined;
  if (!stack) return undefined;
  const at = error.message ? stack.indexOf(error.message) : -1;
  const frames = (at >= 0 ? stack.slice(at + error.message.length) : stack)
    .split("\n")
    .filter((line) => /^\s+at /.test(line))
    .join("\n");
  return frames || undefined;
}

/**
 * The one report of an unexpected error, for every place that logs one: name, message, stack, a
 * driver's `code` and `detail` (postgres.js and PGlite errors; never their query or parameters), and
 * the `cause` chain, bounded. A value that is no Error is reported by its kind.
 */
export function errorReport(error: unknown): ErrorReport {
  return reportOf(error, 0);
}

function reportOf(error: unknown, depth: number): ErrorReport {
  let current = error;
  let query: Error | undefined;
  for (let unwrapped = 0; isFailedQuery(current) && unwrapped < MAX_REPORTED_CAUSES; unwrapped++) {
    query ??= current;
    current = current.cause;
  }
  if (isFailedQuery(current)) return { name: current.name, message: "A query failed (its SQL and parameters are not reported)." };
  if (!(current instanceof Error)) return { name: "Error", message: typeof current === "string" ? current : `A non-Error value was thrown (${current === null ? "null" : typeof current}).` };
  const { code, detail } = current as { code?: unknown; detail?: unknown };
  const stack = (query && framesOf(query)) ?? framesOf(current);
  return {
    name: current.name,
    message: current.message,
    ...(typeof code === "string" ? { code } : {}),
    ...(typeof detail === "string" && detail ? { detail } : {}),
    ...(stack ? { stack } : {}),
    ...(current.cause !== undefined && depth < MAX_REPORTED_CAUSES ? { cause: reportOf(current.cause, depth + 1) } : {}),
  };
}

/**
 * Where an unexpected error goes when the caller names no place: one JSON line on stderr,
 * `{ level: "error", msg, …fields, error: report }`, the shape the local app logs too.
 */
export function logErrorReport(msg: string, report: ErrorReport, fields: Record<string, unknown> = {}): void {
  console.error(JSON.stringify({ level: "error", msg, ...fields, error: report }));
}
