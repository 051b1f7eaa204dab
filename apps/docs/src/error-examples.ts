/**
 * An example error envelope for every error code, shown under each error status of each operation.
 * The validation error is the contract's own example; the others follow it with the code's message.
 */
import { ERROR_STATUS, examples, type ErrorCode, type ErrorEnvelope } from "@cloudplane/contract";
import { RATE_LIMIT } from "./guide.js";

const { request_id } = examples.validationErrorExample;

/** The message each code answers with, as the handlers write it. */
const MESSAGES: Record<Exclude<ErrorCode, "validation_error">, string> = {
  bad_request: "The request cannot be read: Invalid host header.",
  malformed_json: "The body is not valid JSON.",
  not_authenticated: "Authentication credentials were not provided.",
  token_not_valid: "The API token is not valid.",
  permission_denied: "Your role (Users) may not call this route.",
  not_found: "CDN resource 201 was not found.",
  method_not_allowed: "DELETE is not a method of /cdn/clients/me/features; it has GET, HEAD.",
  request_timeout: "The request's body was not received within 25 s.",
  conflict: "Secondary host names already used by another resource of the account: static.example.com.",
  payload_too_large: "The body is over the limit of 1048576 bytes (1 MiB).",
  unsupported_media_type: "The body must be JSON, sent with Content-Type: application/json.",
  unprocessable: "The stream is not live; clips are cut from a live stream's DVR window.",
  rate_limited: `Too many requests for this API token: the limit is ${RATE_LIMIT.requestsPerSecond} a second (bursts of ${RATE_LIMIT.burst}). Retry after 1 s.`,
  request_header_fields_too_large: "The request line or a header is too large.",
  internal: "Something went wrong on our side. The request id identifies it in our logs.",
  unavailable: "The service cannot reach its database; try again shortly.",
};

/** The example envelope of each error code. */
export const ERROR_EXAMPLES = Object.fromEntries(
  (Object.keys(ERROR_STATUS) as ErrorCode[]).map((code) => [
    code,
    code === "validation_error" ? examples.validationErrorExample : { message: MESSAGES[code], code, request_id },
  ]),
) as Record<ErrorCode, ErrorEnvelope>;

/** The error codes an error status answers with, e.g. 401: not_authenticated and token_not_valid. */
export function errorCodesOf(status: number): ErrorCode[] {
  return (Object.entries(ERROR_STATUS) as Array<[ErrorCode, number]>).filter(([, codeStatus]) => codeStatus === status).map(([code]) => code);
}
