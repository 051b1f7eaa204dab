/**
 * Typed errors from the real handler: each status its own class, carrying the envelope's code,
 * message and field errors, the headers and the request id.
 */
import type { ErrorCode } from "@cloudplane/contract";
import { expectEnvelope } from "@cloudplane/handlers/testing";
import { describe, expect, it } from "vitest";
import {
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
} from "../src/index.js";
import { engines, useClientApi } from "./api.js";

/** The error a call rejects with (the test fails if it resolves). */
async function rejection(call: PromiseLike<unknown>): Promise<APIError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof APIError) return error;
    throw error;
  }
  throw new Error("The call succeeded; an error was expected.");
}

/** What every error of a response carries: its request id in the header, the body (the error envelope, exactly) and the fields. */
function expectResponseMetadata(error: APIError) {
  expect(error.requestId).toMatch(/^req_/);
  expect(error.headers?.get("x-request-id")).toBe(error.requestId);
  const reply = { status: error.status ?? 0, headers: error.headers ?? new Headers(), text: JSON.stringify(error.body), body: error.body };
  const envelope = expectEnvelope(reply, error.status ?? 0, error.code as ErrorCode);
  expect(envelope).toMatchObject({ code: error.code, message: error.message, request_id: error.requestId });
  expect(envelope.errors).toEqual(error.errors);
}

describe.each(engines())("typed errors from the handler on %s", (engine) => {
  const api = useClientApi(engine);

  it("400: BadRequestError with the messages of each body field", async () => {
    const error = await rejection(api.client.edge.secrets.create({ name: "-not-a-name-", secret_slots: [] }));
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({ name: "BadRequestError", status: 400, code: "validation_error" });
    expect(Object.keys(error.errors ?? {}).sort()).toEqual(["name", "secret_slots"]);
    expect(error.errors?.secret_slots).toEqual(["At least one slot."]);
    expectResponseMetadata(error);
  });

  it("400: BadRequestError naming a query parameter as query.<name>", async () => {
    const error = await rejection(api.client.edge.apps.list({ limit: 5000 }));
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.errors).toEqual({ "query.limit": ["Must be at most 1000."] });
  });

  it("400: BadRequestError naming a path parameter as path.<name>", async () => {
    const error = await rejection(api.client.streaming.streams.get(0));
    expect(error).toBeInstanceOf(BadRequestError);
    expect(Object.keys(error.errors ?? {})).toEqual(["path.stream_id"]);
  });

  it("401: AuthenticationError for an unknown or expired token", async () => {
    const unknown = await rejection(api.clientFor([1, "role-1-active"], { apiKey: "not-a-token" }).cdn.features.get());
    expect(unknown).toBeInstanceOf(AuthenticationError);
    expect(unknown).toMatchObject({ status: 401, code: "token_not_valid", errors: undefined });
    expectResponseMetadata(unknown);
    const expired = await rejection(api.clientFor([1, "role-5-expired"]).cdn.features.get());
    expect(expired).toMatchObject({ name: "AuthenticationError", status: 401, code: "token_not_valid" });
  });

  it("403: PermissionDeniedError for a role that may not write, or another account's path", async () => {
    const readOnly = await rejection(api.clientFor([1, "role-2-active"]).cdn.clientSettings.replace({ utilization_level: 1 }));
    expect(readOnly).toBeInstanceOf(PermissionDeniedError);
    expect(readOnly).toMatchObject({ status: 403, code: "permission_denied" });
    expectResponseMetadata(readOnly);
    const otherAccount = await rejection(api.client.iam.tokens.list(2));
    expect(otherAccount).toMatchObject({ name: "PermissionDeniedError", status: 403 });
  });

  it("404: NotFoundError for another account's object", async () => {
    const error = await rejection(api.client.cdn.originGroups.get(2));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, code: "not_found" });
    expectResponseMetadata(error);
  });

  it("409: ConflictError for a duplicate name, after the retries a PUT gets", async () => {
    api.logs.length = 0;
    const error = await rejection(api.client.edge.apps.replace(3, { name: "image-resize-eu" }));
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ status: 409, code: "conflict", message: "The account already has an edge app named image-resize-eu." });
    expectResponseMetadata(error);
    // A PUT is idempotent, so the default two retries were made.
    expect(api.logs.map((entry) => `${entry.method} ${entry.path} ${entry.status}`)).toEqual(Array(3).fill("PUT /edge/v1/apps/3 409"));
  });

  it("409 without retries when maxRetries is 0 for the call", async () => {
    api.logs.length = 0;
    const error = await rejection(api.client.edge.apps.replace(3, { name: "image-resize-eu" }, { maxRetries: 0 }));
    expect(error).toBeInstanceOf(ConflictError);
    expect(api.logs).toHaveLength(1);
  });

  it("422: UnprocessableEntityError for a clip of a stream that is not live", async () => {
    api.logs.length = 0;
    const error = await rejection(api.client.streaming.streams.createClipRecording(3, { duration: 60 }));
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect(error).toMatchObject({ status: 422, code: "unprocessable" });
    expectResponseMetadata(error);
    expect(api.logs).toHaveLength(1);
  });
});

describe.each(engines())("the handler's rate limit on %s", (engine) => {
  const api = useClientApi(engine, { rateLimit: { rate: 1, burst: 2 } });

  it("429: RateLimitError with Retry-After, and a retry after the wait the server asked for", async () => {
    const client = api.clientFor([1, "role-5-active"]);
    await client.cdn.features.get();
    await client.cdn.features.get();
    const error = await rejection(client.cdn.features.get({ maxRetries: 0 }));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, code: "rate_limited" });
    expect(error.headers?.get("retry-after")).toBe("1");
    expectResponseMetadata(error);

    // With retries, the client waits the Retry-After second, and the refilled bucket lets it through.
    api.logs.length = 0;
    const features = await client.cdn.features.get();
    expect(features.id).toBe(1);
    expect(api.logs.map((entry) => entry.status)).toEqual([429, 200]);
  });
});
