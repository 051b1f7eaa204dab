/**
 * The errors the client throws: one class per HTTP status of the API's error envelope, and the
 * connection, timeout and abort errors of the request itself. Every one carries the same fields.
 */
import type { ErrorCode, ErrorCodes } from "./api.generated.js";

/** Messages per dotted field path (`options.cors.value.0`, `query.limit`, `path.resource_id`), as the API sends them. */
export type FieldErrors = Record<string, string[]>;

/** Codes the client gives to failures that have no response of the API behind them. */
export type ClientErrorCode = "connection_error" | "connection_timeout" | "user_abort" | "invalid_response" | "response_validation";

/** The error codes of the API (the contract's ERROR_STATUS), the client's own, or one a newer server sends. */
export type APIErrorCode = ErrorCode | ClientErrorCode | (string & {});

/** The codes the API answers with `Status`, one a newer server sends, or none (an answer without the envelope). */
type CodeOf<Status extends keyof ErrorCodes> = ErrorCodes[Status] | (string & {}) | undefined;

/** Every error this client throws is one of these; misuse (a missing API key) throws it directly. */
export class CloudplaneError extends Error {
  override name = "CloudplaneError";
}

export interface APIErrorInit {
  status?: number | undefined;
  code?: APIErrorCode | undefined;
  message: string;
  errors?: FieldErrors | undefined;
  headers?: Headers | undefined;
  requestId?: string | undefined;
  body?: unknown;
  cause?: unknown;
}

/** A failed call: an error response of the API, or a request that got no response. */
export class APIError extends CloudplaneError {
  override name = "APIError";
  /** The HTTP status; undefined when no response came back. */
  readonly status: number | undefined;
  /** The envelope's `code` (`validation_error`, `not_found`, …) or the client's own code. */
  readonly code: APIErrorCode | undefined;
  /** Validation failures only: messages per dotted field path. */
  readonly errors: FieldErrors | undefined;
  /** The response headers; undefined when no response came back. */
  readonly headers: Headers | undefined;
  /** The `x-request-id` of the response, or the one the caller sent when no response came back. */
  readonly requestId: string | undefined;
  /** The response body as parsed (the error envelope), if any. */
  readonly body: unknown;

  constructor(init: APIErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.errors = init.errors;
    this.headers = init.headers;
    this.requestId = init.requestId;
    this.body = init.body;
  }
}

export class BadRequestError extends APIError {
  override name = "BadRequestError";
  declare readonly status: 400;
  declare readonly code: CodeOf<400>;
}
export class AuthenticationError extends APIError {
  override name = "AuthenticationError";
  declare readonly status: 401;
  declare readonly code: CodeOf<401>;
}
export class PermissionDeniedError extends APIError {
  override name = "PermissionDeniedError";
  declare readonly status: 403;
  declare readonly code: CodeOf<403>;
}
export class NotFoundError extends APIError {
  override name = "NotFoundError";
  declare readonly status: 404;
  declare readonly code: CodeOf<404>;
}
export class ConflictError extends APIError {
  override name = "ConflictError";
  declare readonly status: 409;
  declare readonly code: CodeOf<409>;
}
export class PayloadTooLargeError extends APIError {
  override name = "PayloadTooLargeError";
  declare readonly status: 413;
  declare readonly code: CodeOf<413>;
}
export class UnsupportedMediaTypeError extends APIError {
  override name = "UnsupportedMediaTypeError";
  declare readonly status: 415;
  declare readonly code: CodeOf<415>;
}
export class UnprocessableEntityError extends APIError {
  override name = "UnprocessableEntityError";
  declare readonly status: 422;
  declare readonly code: CodeOf<422>;
}
export class RateLimitError extends APIError {
  override name = "RateLimitError";
  declare readonly status: 429;
  declare readonly code: CodeOf<429>;
}
/** Any 5xx answer. */
export class InternalServerError extends APIError {
  override name = "InternalServerError";
  declare readonly code: CodeOf<500> | CodeOf<503>;
}
/** 503: the service cannot serve now (its database is unreachable); `Retry-After` says when to try again. */
export class ServiceUnavailableError extends InternalServerError {
  override name = "ServiceUnavailableError";
  declare readonly status: 503;
  declare readonly code: CodeOf<503>;
}

/** No response came back: the connection failed or broke. */
export class APIConnectionError extends APIError {
  override name = "APIConnectionError";
  declare readonly status: undefined;
  declare readonly code: "connection_error" | "connection_timeout";

  constructor(init: Partial<APIErrorInit> = {}) {
    super({ code: "connection_error", message: "The connection to the API failed.", ...init });
  }
}

/** No response came back within the timeout. */
export class APIConnectionTimeoutError extends APIConnectionError {
  override name = "APIConnectionTimeoutError";
  declare readonly code: "connection_timeout";

  constructor(init: Partial<APIErrorInit> = {}) {
    super({ code: "connection_timeout", message: "The request timed out.", ...init });
  }
}

/** The caller's AbortSignal aborted the call. */
export class APIUserAbortError extends APIError {
  override name = "APIUserAbortError";
  declare readonly status: undefined;
  declare readonly code: "user_abort";

  constructor(init: Partial<APIErrorInit> = {}) {
    super({ code: "user_abort", message: "The request was aborted.", ...init });
  }
}

/** A successful response whose body does not match the contract (only with `validateResponses`). */
export class APIResponseValidationError extends APIError {
  override name = "APIResponseValidationError";
  declare readonly code: "response_validation";
}

const ERROR_CLASSES: Record<number, typeof APIError> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  413: PayloadTooLargeError,
  415: UnsupportedMediaTypeError,
  422: UnprocessableEntityError,
  429: RateLimitError,
  503: ServiceUnavailableError,
};

function isFieldErrors(value: unknown): value is FieldErrors {
  return (
    typeof value === "object" &&
    value !== null &&
    Object.values(value).every((messages) => Array.isArray(messages) && messages.every((message) => typeof message === "string"))
  );
}

/** The error of a non-2xx response, read from the API's envelope `{ message, code, errors?, request_id }`. */
export function errorFromResponse(status: number, body: unknown, headers: Headers): APIError {
  const envelope = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  // A proxy's HTML error page is no message; it stays in `body`.
  const message = typeof envelope.message === "string" ? envelope.message : `The API answered ${status} without an error envelope.`;
  const requestId = headers.get("x-request-id") ?? (typeof envelope.request_id === "string" ? envelope.request_id : undefined);
  const ErrorClass = ERROR_CLASSES[status] ?? (status >= 500 ? InternalServerError : APIError);
  return new ErrorClass({
    status,
    code: typeof envelope.code === "string" ? envelope.code : undefined,
    message,
    errors: isFieldErrors(envelope.errors) ? envelope.errors : undefined,
    headers,
    requestId,
    body,
  });
}
