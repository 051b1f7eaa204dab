/**
 * @cloudplane/conformance: the black-box HTTP suite of the cloudplane API. It knows the contract and
 * what it is given, a base URL and tokens of two accounts, so it checks any deployment:
 * `runConformance({ baseUrl, tokens })`, or the `conformance --base-url <url> --tokens <file>` command.
 */
export { conformanceChecks, conformanceContext, runConformance, type CheckResult, type ConformanceOptions, type ConformanceReport } from "./run.js";
export type { ConformanceCheck, ConformanceContext } from "./check.js";
export {
  CONFORMANCE_TOKEN_NAMES,
  conformanceTokens,
  createClient,
  type CallOptions,
  type ConformanceAccount,
  type ConformanceClient,
  type ConformanceTokenName,
  type ConformanceTokens,
  type Reply,
} from "./client.js";
export { expectCorsAnswers } from "./cors.js";
export { ConformanceError } from "./expect.js";
export { expectFailoverAnswers } from "./failover.js";
export { exchangeRaw, HALF_CLOSE, sendRaw, type RawExchange, type RawOptions, type RawPiece, type RawResponse } from "./checks/raw.js";
export { rawFuzz, rawFuzzCases, type RawFuzzCase, type RawFuzzOptions, type RawFuzzReport, type RawFuzzResult } from "./raw-fuzz.js";
