/**
 * @cloudplane/conformance: the black-box HTTP suite of the cloudplane API. Configured only by a base
 * URL and the demo fixture, so it checks any deployment: `runConformance({ baseUrl })`, or the
 * `conformance --base-url <url>` command.
 */
export { conformanceChecks, conformanceContext, runConformance, type CheckResult, type ConformanceOptions, type ConformanceReport } from "./run.js";
export type { ConformanceCheck, ConformanceContext } from "./check.js";
export { createClient, type CallOptions, type ConformanceClient, type Reply } from "./client.js";
export { ConformanceError } from "./expect.js";
export { routeCases, type RouteCase } from "./route-cases.js";
export { exchangeRaw, HALF_CLOSE, sendRaw, type RawExchange, type RawOptions, type RawPiece, type RawResponse } from "./checks/raw.js";
export { rawFuzz, rawFuzzCases, type RawFuzzCase, type RawFuzzOptions, type RawFuzzReport, type RawFuzzResult } from "./raw-fuzz.js";
