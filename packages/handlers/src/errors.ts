/**
 * The one error envelope: `ApiError` for failures the route code decides, and the
 * mapping of everything else (validation, malformed JSON, unknown routes, bugs) onto the envelope.
 */
import { ERROR_STATUS, type ErrorCode, type ErrorEnvelope } from "@cloudplane/contract";
import type { ZodError } from "zod";

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

/** 400 validation_error with the messages per field path. */
export function validationFailed(errors: Record<string, string[]>): ApiError {
  return new ApiError("validation_error", "The request did not pass validation: see errors.", errors);
}

/** 400 validation_error for one field: `invalid("originGroup", "Must be an origin group of the account.")`. */
export function invalid(path: string, message: string): ApiError {
  return validationFailed({ [path]: [message] });
}

/** A new request id: `req_` and 32 hex digits. */
export function newRequestId(): string {
  return `req_${crypto.randomUUID().replaceAll("-", "")}`;
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
 * Adds a zod error's issues to `errors` under dotted paths: body fields as written, query
 * parameters as `query.<name>`, path parameters as `path.<name>`. A problem with the body as a
 * whole (say, no body at all) is reported under `body`.
 */
export function addZodIssues(errors: Record<string, string[]>, error: ZodError, prefix: "" | "query" | "path" | "header"): void {
  for (const issue of error.issues) {
    const parts = prefix ? [prefix, ...issue.path] : issue.path;
    const key = parts.length > 0 ? parts.join(".") : "body";
    const message = issue.message === "Required" ? "This field is required." : issue.message;
    // An own property: a key such as "toString" or "__proto__" (an unknown body field) must not find Object.prototype's.
    if (!Object.hasOwn(errors, key)) Object.defineProperty(errors, key, { value: [], enumerable: true, writable: true, configurable: true });
    const list = errors[key]!;
    if (!list.includes(message)) list.push(message);
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

/** What is reported of an unexpected error: never the SQL parameters, which may hold credentials. */
export interface ErrorReport {
  name: string;
  message: string;
  /** The driver's error code (e.g. ECONNREFUSED, or a SQLSTATE such as 23505). */
  code?: string;
  stack?: string;
}

export function errorReport(error: unknown): ErrorReport {
  // Drizzle wraps driver errors in "Failed query: <sql> params: <values>"; the cause says what went wrong without them.
  let current = error;
  while (current instanceof Error && current.message.startsWith("Failed query:") && current.cause !== undefined) current = current.cause;
  if (!(current instanceof Error)) return { name: "Error", message: typeof current === "string" ? current : "A non-Error value was thrown." };
  const code = (current as { code?: unknown }).code;
  return {
    name: current.name,
    message: current.message,
    ...(typeof code === "string" ? { code } : {}),
    // The stack's first line repeats the message; the rest is only code locations.
    ...(current.stack ? { stack: current.stack.split("\n").slice(1).join("\n") } : {}),
  };
}
