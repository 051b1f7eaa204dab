/**
 * The suite checked against the real handler over HTTP: it passes where the API behaves, and fails,
 * naming the check and the request, where a deployment misbehaves (faults injected around the handler).
 * Also the `conformance` command: its output and exit codes.
 */
import { execFile } from "node:child_process";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { ROUTES } from "@cloudplane/contract";
import { demoFixture } from "@cloudplane/db";
import { serve } from "@cloudplane/handlers/node";
import { useApi, type Handler } from "@cloudplane/handlers/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { conformanceChecks, conformanceContext, conformanceTokens, createClient, expectCorsAnswers, runConformance, type ConformanceReport } from "../src/index.js";

type Fault = (request: Request, handler: Handler) => Promise<Response>;

const BIN = fileURLToPath(new URL("../bin/conformance.js", import.meta.url));
/** The demo data's file: the tokens the handler's demo database holds, as the command reads them. */
const DEMO_DATA = fileURLToPath(new URL("../../../packages/db/fixtures/demo.json", import.meta.url));
const tokens = conformanceTokens(demoFixture);

function failures(report: ConformanceReport): Record<string, string> {
  return Object.fromEntries(report.results.filter((result) => !result.passed).map((result) => [result.name, String((result.error as Error).message)]));
}

/** Rewrites JSON bodies of the handler's responses. */
function rewriteJson(edit: (body: unknown, response: Response) => unknown): Fault {
  return async (request, handler) => {
    const response = await handler(request);
    if (!response.headers.get("content-type")?.includes("json")) return response;
    const body = edit(await response.json(), response);
    const headers = new Headers(response.headers);
    headers.delete("content-length");
    return new Response(JSON.stringify(body), { status: response.status, headers });
  };
}

describe("the conformance suite against the handler over HTTP", () => {
  // The handler's own default rate limit, as a deployment has it.
  const api = useApi("pglite", { handler: { rateLimit: undefined } });
  let server: Server;
  let baseUrl: string;
  let fault: Fault | undefined;

  beforeAll(async () => {
    // The harness records the handler's replies before a fault rewrites them: the scan sees what the API answered.
    const handler = api.handler;
    server = await serve((request) => (fault ? fault(request, handler) : handler(request)), { port: 0, hostname: "127.0.0.1" });
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(() => {
    fault = undefined;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
  });

  it("has a case for every route of the contract, its objects found on the deployment", async () => {
    const context = await conformanceContext(baseUrl, tokens);
    expect(context.cases.map((route) => route.id)).toEqual(ROUTES.map((entry) => entry.id));
  });

  it("passes every check of routes, auth, isolation, validation, paging and writes where the API behaves", async () => {
    const topics = ["routes:", "auth:", "isolation:", "validation:", "paging:", "writes:"];
    const expected = conformanceChecks.filter((check) => topics.some((topic) => check.name.startsWith(topic)));
    // The paging checks count the account's objects across several requests: they run alone, after the others,
    // whose creates (edge apps among them) would change the counts between two pages.
    const reports = await Promise.all(topics.filter((grep) => grep !== "paging:").map((grep) => runConformance({ baseUrl, tokens, grep })));
    reports.push(await runConformance({ baseUrl, tokens, grep: "paging:" }));
    expect(reports.flatMap((report) => Object.entries(failures(report)))).toEqual([]);
    expect(reports.reduce((sum, report) => sum + report.passed, 0)).toBe(expected.length);
  });

  it("passes again on the same database: created names are fresh each run", async () => {
    const report = await runConformance({ baseUrl, tokens, grep: "writes:" });
    expect(failures(report)).toEqual({});
    expect(report.passed).toBeGreaterThan(0);
  });

  it("fails a success body with a field the contract does not have", async () => {
    fault = rewriteJson((body, response) => (response.status < 300 && body && typeof body === "object" && !Array.isArray(body) ? { ...body, token_hash: "leaked" } : body));
    const report = await runConformance({ baseUrl, tokens, grep: "routes: every route answers" });
    expect(failures(report)).toEqual({
      "routes: every route answers its success status to the administrator, with a body the contract accepts": expect.stringMatching(
        // The first route that answers an object: creating a token.
        /does not match the contract's 201 response[\s\S]*token_hash[\s\S]*POST \/iam\/clients\/1\/tokens answered 201/,
      ),
    });
  });

  it("fails an error envelope whose request_id is not the x-request-id header", async () => {
    fault = rewriteJson((body, response) => (response.status >= 400 ? { ...(body as object), request_id: "something-else" } : body));
    const failed = failures(await runConformance({ baseUrl, tokens, grep: "errors: a sent x-request-id" }));
    expect(Object.values(failed)).toEqual([expect.stringContaining("request_id in the body equals the x-request-id header")]);
  });

  it("fails a deployment that lets a request without credentials through", async () => {
    fault = (request, handler) => {
      if (request.headers.has("authorization")) return handler(request);
      const headers = new Headers(request.headers);
      headers.set("authorization", `apikey ${demoFixture.apiTokens[0]!.plaintext}`);
      return handler(new Request(request, { headers }));
    };
    const failed = failures(await runConformance({ baseUrl, tokens, grep: "auth: no Authorization header" }));
    expect(Object.values(failed)).toEqual([expect.stringContaining("expected status 401")]);
  });

  it("fails paging that ignores the offset", async () => {
    fault = (request, handler) => {
      const url = new URL(request.url);
      url.searchParams.delete("offset");
      return handler(new Request(url, request));
    };
    const failed = failures(await runConformance({ baseUrl, tokens, grep: "paging:" }));
    expect(Object.keys(failed)).toEqual([
      "paging: edge apps page by limit and offset in id order; count is the total before paging",
      "paging: inference models page by limit and offset, by name by default; count is the catalogue's size",
    ]);
  });

  describe("the conformance command", () => {
    const run = (args: string[]) =>
      promisify(execFile)(process.execPath, ["--conditions=@cloudplane/source", BIN, ...args], { env: { ...process.env, CONFORMANCE_BASE_URL: "", CONFORMANCE_TOKENS: "" } }).then(
        ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
        (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
      );

    it("prints one line per check and exits 0 when every check passes", async () => {
      const result = await run(["--base-url", baseUrl, "--tokens", DEMO_DATA, "--grep", "isolation:"]);
      expect(result.code).toBe(0);
      const isolation = conformanceChecks.filter((check) => check.name.startsWith("isolation:"));
      for (const check of isolation) expect(result.stdout).toContain(`ok      ${check.name}`);
      expect(result.stdout).toContain(`${isolation.length} passed, 0 failed`);
    });

    it("prints why a check failed and exits 1", async () => {
      fault = rewriteJson((body, response) => (response.status >= 400 ? { ...(body as object), request_id: "something-else" } : body));
      const result = await run([`--base-url=${baseUrl}`, `--tokens=${DEMO_DATA}`, "--grep", "errors: unknown routes"]);
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(/FAILED {2}errors: unknown routes[^\n]*\n {8}request_id in the body equals the x-request-id header/);
      expect(result.stdout).toContain("0 passed, 1 failed");
    });

    it("exits 2 with the usage when the base URL or the tokens are missing or wrong", async () => {
      const noTokens = fileURLToPath(new URL("../package.json", import.meta.url));
      for (const args of [[], ["--base-url", "not a url"], ["--unknown"], ["--base-url", baseUrl], ["--base-url", baseUrl, "--tokens", noTokens]]) {
        const result = await run(args);
        expect(result.code).toBe(2);
        expect(result.stderr).toContain("Usage: conformance --base-url <url>");
      }
    });
  });
});

describe("the CORS answers of a deployment that allows one page's origin", () => {
  const ORIGIN = "https://app.example";
  // CORS on for one origin, and a rate limit whose burst a test spends at once: one request a second, three at once.
  const api = useApi("pglite", { handler: { rateLimit: { rate: 1, burst: 3 }, cors: { origins: [ORIGIN] } } });
  let server: Server;

  beforeAll(async () => {
    server = await serve(api.handler, { port: 0, hostname: "127.0.0.1" });
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
  });

  it("are checked as any client meets a rate limit: every call, HEAD and the preflight too, waits out a 429 and is sent again", async () => {
    const client = createClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, tokens);
    // The administrator's token spends its burst first, as the whole suite before this check does.
    const statuses = await Promise.all(Array.from({ length: 6 }, () => fetch(`${client.baseUrl}/edge/v1/apps?limit=1`, { headers: { authorization: client.apikey([1, "role-1-active"]) } }).then(async (reply) => (await reply.arrayBuffer(), reply.status))));
    expect(statuses).toContain(429);
    await expectCorsAnswers(client, ORIGIN);
  });
});
