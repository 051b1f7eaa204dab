/**
 * The one set of assertions on the error envelope, for every test of every package: a failure is the
 * envelope and nothing else, exactly as the contract defines it.
 */
import { ERROR_STATUS, errorEnvelope, type ErrorCode, type ErrorEnvelope } from "@cloudplane/contract";
import { expect } from "vitest";

/** A reply as the harness reads it: the status, the headers, the body as text and parsed as JSON. */
export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body (undefined when the content type is not JSON). */
  body: any;
}

/** A fetch `Response` read into a `Reply`. */
export async function replyOf(response: Response): Promise<Reply> {
  const text = await response.text();
  let body: unknown;
  if (response.headers.get("content-type")?.includes("json")) body = JSON.parse(text);
  return { status: response.status, headers: response.headers, text, body };
}

/**
 * What `errors` must be: the exact set of field paths named (each with at least one message), or the
 * exact `errors` object (matchers such as `expect.any(String)` allowed).
 */
export type ExpectedErrors = readonly string[] | Record<string, unknown>;

/**
 * A reply in the error envelope, and nothing else:
 * - the status, and the code, which is the one the contract gives that status;
 * - content type JSON;
 * - a body of exactly `message` (a non-empty string), `code`, `request_id` and, for
 *   `validation_error` only, `errors`;
 * - `request_id` equal to the `x-request-id` header;
 * - `errors`, when given: exactly those field paths (a list) or exactly that object; when not given,
 *   a `validation_error` still names at least one field, each with at least one message.
 * `context` is added to every failure's message (what was sent, for generated requests).
 * Returns the envelope.
 */
export function expectEnvelope(reply: Reply, status: number, code: ErrorCode, errors?: ExpectedErrors, context = ""): ErrorEnvelope {
  const what = `${context ? `${context}: ` : ""}${reply.status} ${reply.text.slice(0, 500)}`;
  expect(reply.status, what).toBe(status);
  expect(ERROR_STATUS[code], `${what}: the contract gives ${code} another status`).toBe(status);
  expect(reply.headers.get("content-type"), what).toMatch(/^application\/json(;|$)/);
  const requestId = reply.headers.get("x-request-id");
  expect(requestId, what).toEqual(expect.any(String));
  const body = reply.body as Record<string, unknown>;
  expect(Object.keys(body ?? {}).sort(), what).toEqual(["code", "message", "request_id", ...(code === "validation_error" ? ["errors"] : [])].sort());
  expect(body, what).toEqual({
    message: expect.stringMatching(/\S/),
    code,
    request_id: requestId,
    ...(code === "validation_error" ? { errors: expect.any(Object) } : {}),
  });
  const parsed = errorEnvelope.safeParse(body);
  expect(parsed.success, `${what}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
  const envelope = body as ErrorEnvelope;
  if (code === "validation_error") {
    const named = envelope.errors ?? {};
    expect(Object.keys(named).length, `${what}: a validation error names its fields`).toBeGreaterThan(0);
    for (const [field, messages] of Object.entries(named)) expect(messages.length, `${what}: ${field} has a message`).toBeGreaterThan(0);
  }
  if (errors !== undefined) {
    if (Array.isArray(errors)) expect(Object.keys(envelope.errors ?? {}).sort(), what).toEqual([...(errors as string[])].sort());
    else expect(envelope.errors, what).toEqual(errors);
  }
  return envelope;
}

/**
 * A reply in the error envelope whatever its code, as long as the code is the one the contract gives
 * its status: for generated requests, whose failure is known only by its kind. Same checks otherwise.
 */
export function expectSomeEnvelope(reply: Reply, context = ""): ErrorEnvelope {
  const code = (reply.body as { code?: unknown } | undefined)?.code;
  expect(Object.keys(ERROR_STATUS), `${context}: ${reply.status} ${reply.text.slice(0, 500)}`).toContain(code);
  return expectEnvelope(reply, reply.status, code as ErrorCode, undefined, context);
}
