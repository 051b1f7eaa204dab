/**
 * `conformance --base-url http://127.0.0.1:8787 --tokens tokens.json`: runs the suite against a
 * deployment and prints one line per check; exits 1 when any check fails.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { conformanceTokens, type ConformanceTokens } from "./client.js";
import { ConformanceError } from "./expect.js";
import { runConformance, type CheckResult } from "./run.js";

const USAGE = `Usage: conformance --base-url <url> --tokens <file> [--grep <text>]

Runs the cloudplane conformance suite against the API at <url>, calling it with the tokens of <file>:
a JSON object {"1": {"role-1-active": "<token>", ...}, "2": {"role-1-active": "<token>"}}, or a list
of {accountId, name, plaintext} rows (the demo data's file, packages/db/fixtures/demo.json, is one:
\`pnpm conformance\` in the repository gives it). Account 1 is the account checked and needs an
active token of each role (role-1-active, role-2-active, role-5-active, role-3009-active,
role-3022-active), an expired Engineers token (role-5-expired) and a revoked Users token
(role-2-deleted); account 2 is another account, with its administrator's token (role-1-active).
Each account needs a few objects of every kind (the demo data has them).

  --base-url <url>   where the API answers (or CONFORMANCE_BASE_URL)
  --tokens <file>    the tokens (or CONFORMANCE_TOKENS)
  --grep <text>      run only the checks whose name contains <text>
`;

function reason(error: unknown): string {
  if (error instanceof ConformanceError) return error.message;
  if (error instanceof Error) return `${error.name}: ${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ""}`;
  return String(error);
}

function print(result: CheckResult): void {
  const time = `${Math.round(result.durationMs)} ms`;
  if (result.passed) console.log(`ok      ${result.name} (${time})`);
  else console.log(`FAILED  ${result.name} (${time})\n        ${reason(result.error).replaceAll("\n", "\n        ")}`);
}

async function main(): Promise<number> {
  let values: { "base-url"?: string; tokens?: string; grep?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: { "base-url": { type: "string" }, tokens: { type: "string" }, grep: { type: "string" }, help: { type: "boolean", short: "h" } },
      allowPositionals: false,
    }));
  } catch (error) {
    console.error(`${reason(error)}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const baseUrl = values["base-url"] ?? process.env.CONFORMANCE_BASE_URL;
  if (!baseUrl || !URL.canParse(baseUrl)) {
    console.error(`${baseUrl ? `Not a URL: ${baseUrl}` : "--base-url is required."}\n\n${USAGE}`);
    return 2;
  }
  const tokensFile = values.tokens ?? process.env.CONFORMANCE_TOKENS;
  let tokens: ConformanceTokens;
  try {
    if (!tokensFile) throw new Error("--tokens is required.");
    tokens = conformanceTokens(JSON.parse(readFileSync(tokensFile, "utf8")));
  } catch (error) {
    console.error(`${reason(error)}\n\n${USAGE}`);
    return 2;
  }
  console.log(`cloudplane conformance suite against ${baseUrl}`);
  const report = await runConformance({ baseUrl, tokens, ...(values.grep ? { grep: values.grep } : {}), onResult: print });
  console.log(`\n${report.passed} passed, ${report.failed} failed`);
  return report.failed === 0 && report.passed > 0 ? 0 : 1;
}

process.exitCode = await main();
