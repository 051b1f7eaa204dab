/**
 * Unexpected errors as an operator sees them: one report (errorReport) with the name, message, stack,
 * the driver's code and detail and the cause chain, never the SQL or its parameters; a real database
 * failure reported that way; and the default log line on stderr.
 */
import { sql } from "@cloudplane/db";
import { afterEach, describe, expect, it, vi } from "vitest";
import { errorReport, lazyHandler } from "../src/index.js";
import { MAX_REPORTED_CAUSES, type ErrorReport } from "../src/errors.js";
import { engines, expectEnvelope, useApi } from "./harness.js";

/** A driver error as postgres.js makes it: the query and its parameters ride along, not enumerable. */
function driverError(message: string, fields: Record<string, unknown>): Error {
  const error = Object.assign(new Error(message), fields);
  error.name = "PostgresError";
  Object.defineProperties(error, {
    query: { value: "insert into edge_secrets (name, value) values ($1, $2)", enumerable: false },
    parameters: { value: ["my-secret", "s3cr3t-parameter-value"], enumerable: false },
  });
  return error;
}

describe("errorReport", () => {
  it("reports name, message, stack frames, code and detail, and never the query or its parameters", () => {
    const cause = driverError('duplicate key value violates unique constraint "edge_secrets_name_key"', { code: "23505", detail: "Key (account_id, name)=(1, my-secret) already exists.", severity: "ERROR" });
    // Drizzle's wrapper: the SQL and the parameters in its message.
    const wrapper = new Error("Failed query: insert into edge_secrets (name, value) values ($1, $2)\nparams: my-secret,s3cr3t-parameter-value", { cause });
    const report = errorReport(wrapper);
    expect(report).toEqual({
      name: "PostgresError",
      message: 'duplicate key value violates unique constraint "edge_secrets_name_key"',
      code: "23505",
      detail: "Key (account_id, name)=(1, my-secret) already exists.",
      stack: expect.stringMatching(/^\s+at .*error-report\.test\.ts/),
    });
    expect(report.stack!.split("\n").every((line) => /^\s+at /.test(line))).toBe(true);
    const text = JSON.stringify(report);
    for (const hidden of ["s3cr3t-parameter-value", "insert into", "Failed query", "params"]) expect(text).not.toContain(hidden);
  });

  it("keeps a message's lines out of the stack, even lines that look like frames", () => {
    const error = new Error("it broke on\n    at s3cr3t-in-the-message (file.ts:1:1)");
    const report = errorReport(error);
    expect(report.message).toBe(error.message);
    expect(report.stack).toMatch(/^\s+at /);
    expect(report.stack).not.toContain("s3cr3t");
  });

  it("reports the cause chain, each cause the same way, at most MAX_REPORTED_CAUSES deep, a loop included", () => {
    const root = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    const report = errorReport(new Error("the handler could not start", { cause: new TypeError("opening the database failed", { cause: root }) }));
    expect(report).toMatchObject({
      name: "Error",
      message: "the handler could not start",
      stack: expect.stringMatching(/^\s+at /),
      cause: { name: "TypeError", message: "opening the database failed", stack: expect.any(String), cause: { message: "connect ECONNREFUSED 127.0.0.1:5432", code: "ECONNREFUSED" } },
    });
    expect(report.cause!.cause!.cause).toBeUndefined();

    const looped = new Error("one");
    looped.cause = new Error("two", { cause: looped });
    let depth = 0;
    for (let current: ErrorReport | undefined = errorReport(looped); current; current = current.cause) depth++;
    expect(depth).toBe(MAX_REPORTED_CAUSES + 1);
    const wrapsItself = new Error("Failed query: select 1\nparams: s3cr3t");
    wrapsItself.cause = wrapsItself;
    expect(JSON.stringify(errorReport(wrapsItself))).not.toContain("s3cr3t");
  });

  it("reports what is no Error by its kind", () => {
    expect(errorReport("plain text")).toEqual({ name: "Error", message: "plain text" });
    expect(errorReport({ password: "s3cr3t" })).toEqual({ name: "Error", message: "A non-Error value was thrown (object)." });
    expect(errorReport(undefined)).toEqual({ name: "Error", message: "A non-Error value was thrown (undefined)." });
  });
});

describe("the default error log", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("is one JSON line on stderr with the report under error, for a setup that failed", async () => {
    const lines: string[] = [];
    vi.spyOn(console, "error").mockImplementation((line: unknown) => lines.push(String(line)));
    const handler = lazyHandler(() => Promise.reject(new Error("CLOUDPLANE_SECRETS_KEY is not set: it encrypts secrets at rest.")));
    const response = await handler(new Request("http://api.test/cdn/clients/me/features"));
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain("CLOUDPLANE_SECRETS_KEY");
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toEqual({
      level: "error",
      msg: "the handler could not start",
      error: { name: "Error", message: "CLOUDPLANE_SECRETS_KEY is not set: it encrypts secrets at rest.", stack: expect.stringMatching(/^\s+at .*error-report\.test\.ts/) },
    });
  });
});

describe.each(engines())("a database failure on %s", (engine) => {
  const api = useApi(engine);

  it("answers 500 without internals and reports the database's own message, code and a stack", async () => {
    await api.database.db.execute(sql`drop table edge_apps cascade`);
    const reply = await api.call("GET", "/edge/v1/apps", { headers: { "x-request-id": "dropped-table" } });
    expectEnvelope(reply, 500, "internal");
    expect(reply.text).not.toMatch(/edge_apps|relation/);
    const reports = api.takeErrors() as ErrorReport[];
    expect(reports).toHaveLength(1);
    const [report] = reports;
    expect(report).toMatchObject({ message: 'relation "edge_apps" does not exist', code: "42P01", stack: expect.stringMatching(/^\s+at /) });
    expect(report!.name).toMatch(/\S/);
    // Where the query was made, not only where the driver read its reply.
    expect(report!.stack).toMatch(/\n\s+at listApps \(.*edge\/apps\.ts:\d+/);
    expect(JSON.stringify(report)).not.toMatch(/Failed query|params:|\bselect\b[^"]*\bfrom\b/i);
  });
});
