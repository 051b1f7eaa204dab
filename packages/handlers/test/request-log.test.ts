/**
 * The request log of the environment's settings (CLOUDPLANE_REQUEST_LOG): a JSON line per request on the
 * console by default, none when it is off, whatever `onRequest` the caller gave.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { createHandler, handlerOptionsFromEnv, requestLogFromEnv, type RequestLogEntry } from "../src/index.js";
import { buildRequest, engines, useApi } from "./harness.js";

describe("CLOUDPLANE_REQUEST_LOG", () => {
  it("is on unless it says off, in any case, and refuses anything else, naming the setting", () => {
    expect(requestLogFromEnv({})).toBe(true);
    expect(requestLogFromEnv({ CLOUDPLANE_REQUEST_LOG: "" })).toBe(true);
    expect(requestLogFromEnv({ CLOUDPLANE_REQUEST_LOG: "on" })).toBe(true);
    expect(requestLogFromEnv({ CLOUDPLANE_REQUEST_LOG: "OFF" })).toBe(false);
    for (const value of ["0", "false", "no", "of"])
      expect(() => requestLogFromEnv({ CLOUDPLANE_REQUEST_LOG: value }), value).toThrow(/CLOUDPLANE_REQUEST_LOG must be on .* or off/);
  });
});

describe.each(engines())("the request log of a handler made from the environment, on %s", (engine) => {
  const api = useApi(engine);

  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** The console's JSON lines while `serve` runs, and the answer's request id. */
  async function consoleLines(env: Record<string, string>, onRequest?: (entry: RequestLogEntry) => void) {
    const handler = createHandler(
      await handlerOptionsFromEnv({ CLOUDPLANE_RATE_LIMIT: "0", ...env }, { db: api.database.db, secretsKey: api.database.secretsKey, ...(onRequest ? { handler: { onRequest } } : {}) }),
    );
    const lines: unknown[] = [];
    vi.spyOn(console, "log").mockImplementation((line: unknown) => void lines.push(line));
    const response = await handler(buildRequest("GET", "/iam/clients/me"));
    expect(response.status).toBe(200);
    await response.text();
    return { lines, requestId: response.headers.get("x-request-id") };
  }

  it("writes a JSON line per request by default, with the request id the answer carries", async () => {
    const { lines, requestId } = await consoleLines({});
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0] as string) as Record<string, unknown>;
    expect(entry).toMatchObject({ level: "info", msg: "request", request_id: requestId, method: "GET", path: "/iam/clients/me", status: 200 });
    expect(typeof entry.duration_ms).toBe("number");
  });

  it("writes none when it is off, and calls no onRequest the caller gave either", async () => {
    const given: RequestLogEntry[] = [];
    const { lines } = await consoleLines({ CLOUDPLANE_REQUEST_LOG: "off" }, (entry) => given.push(entry));
    expect(lines).toEqual([]);
    expect(given).toEqual([]);
    // The caller's own log is called when the environment leaves the log on.
    const on = await consoleLines({}, (entry) => given.push(entry));
    expect(on.lines).toEqual([]);
    expect(given.map((entry) => entry.request_id)).toEqual([on.requestId]);
  });
});
