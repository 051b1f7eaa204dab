/**
 * The suite's assertions. Each failure says which request it was about and what came back, since
 * the one running the suite sees only the deployment from outside.
 */
import { errorEnvelope, type ErrorCode } from "@cloudplane/contract";
import type { AppRoute } from "@ts-rest/core";
import type { Reply } from "./client.js";

export class ConformanceError extends Error {
  override name = "ConformanceError";
}

function describeReply(reply: Reply): string {
  const body = reply.text.length > 500 ? `${reply.text.slice(0, 500)}…` : reply.text;
  return `${reply.method} ${reply.path} answered ${reply.status}: ${body}`;
}

export function fail(message: string, reply?: Reply): never {
  throw new ConformanceError(reply ? `${message}\n  ${describeReply(reply)}` : message);
}

export function expectTrue(condition: unknown, message: string, reply?: Reply): asserts condition {
  if (!condition) fail(message, reply);
}

export function expectEqual<T>(actual: T, expected: T, message: string, reply?: Reply): void {
  const shown = (value: unknown) => JSON.stringify(value);
  if (shown(actual) !== shown(expected)) fail(`${message}: expected ${shown(expected)}, got ${shown(actual)}`, reply);
}

export function expectStatus(reply: Reply, status: number): void {
  if (reply.status !== status) fail(`expected status ${status}`, reply);
}

/** A JSON object body, for reading fields out of it. */
export function objectBody(reply: Reply): Record<string, unknown> {
  const body = reply.body;
  if (typeof body !== "object" || body === null || Array.isArray(body)) fail("expected a JSON object body", reply);
  return body as Record<string, unknown>;
}

export function arrayBody(reply: Reply): Record<string, unknown>[] {
  if (!Array.isArray(reply.body)) fail("expected a JSON array body", reply);
  return reply.body as Record<string, unknown>[];
}

/** A success: the status, an `x-request-id`, and a body that the route's response schema accepts (strictly). */
export function expectSuccess(reply: Reply, route: AppRoute, status: number): void {
  expectStatus(reply, status);
  expectTrue(reply.headers.get("x-request-id"), "expected an x-request-id header", reply);
  const schema = route.responses[status] as { safeParse?: (value: unknown) => { success: boolean; error?: { issues: unknown[] } } };
  if (typeof schema?.safeParse !== "function") return;
  const contentType = reply.headers.get("content-type") ?? "";
  // An answer the contract types as a bare string is served as the media type it names (a zip archive): bytes, not JSON.
  if ((schema as { _def?: { typeName?: string } })._def?.typeName === "ZodString" && !/\bjson\b/i.test(contentType)) {
    expectTrue(contentType !== "", "expected a content type", reply);
    return;
  }
  expectTrue(/\bjson\b/i.test(contentType), "expected a JSON content type", reply);
  const parsed = schema.safeParse(reply.body);
  if (!parsed.success) fail(`the body does not match the contract's ${status} response: ${JSON.stringify(parsed.error?.issues.slice(0, 5))}`, reply);
}

/**
 * The one error envelope (the guide's Errors section): the status, the code, a JSON body of exactly the
 * envelope's fields, and `request_id` equal to the `x-request-id` header.
 */
export function expectEnvelope(reply: Reply, status: number, code: ErrorCode): Record<string, unknown> {
  expectStatus(reply, status);
  expectTrue(/^application\/json\b/i.test(reply.headers.get("content-type") ?? ""), "expected an application/json error body", reply);
  const parsed = errorEnvelope.safeParse(reply.body);
  if (!parsed.success) fail(`the body is not the error envelope: ${JSON.stringify(parsed.error.issues.slice(0, 5))}`, reply);
  const body = objectBody(reply);
  expectEqual(body.code, code, "error code", reply);
  const requestId = reply.headers.get("x-request-id");
  expectTrue(requestId, "expected an x-request-id header", reply);
  expectEqual(body.request_id, requestId, "request_id in the body equals the x-request-id header", reply);
  return body;
}

/** 400 validation_error naming exactly these field paths in `errors`. */
export function expectValidationError(reply: Reply, fields: string[]): void {
  const body = expectEnvelope(reply, 400, "validation_error");
  const errors = body.errors as Record<string, string[]> | undefined;
  expectTrue(errors, "a validation error names its fields in errors", reply);
  expectEqual(Object.keys(errors).sort(), [...fields].sort(), "fields named in errors", reply);
  for (const field of fields) expectTrue(errors[field]!.length > 0 && errors[field]!.every((message) => typeof message === "string" && message.length > 0), `a message for ${field}`, reply);
}
