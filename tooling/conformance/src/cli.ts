/**
 * `pnpm conformance --base-url http://127.0.0.1:8787`: runs the suite against a deployment and
 * prints one line per check; exits 1 when any check fails. The deployment must hold the demo data.
 */
import { parseArgs } from "node:util";
import { ConformanceError } from "./expect.js";
import { runConformance, type CheckResult } from "./run.js";

const USAGE = `Usage: conformance --base-url <url> [--grep <text>]

Runs the cloudplane conformance suite against the API at <url>, which must hold the demo data
(pnpm start loads it; elsewhere: pnpm --filter @cloudplane/db seed).

  --base-url <url>   where the API answers (or CONFORMANCE_BASE_URL)
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
  let values: { "base-url"?: string; grep?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: { "base-url": { type: "string" }, grep: { type: "string" }, help: { type: "boolean", short: "h" } },
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
  console.log(`cloudplane conformance suite against ${baseUrl}`);
  const report = await runConformance({ baseUrl, ...(values.grep ? { grep: values.grep } : {}), onResult: print });
  console.log(`\n${report.passed} passed, ${report.failed} failed`);
  return report.failed === 0 && report.passed > 0 ? 0 : 1;
}

process.exitCode = await main();
