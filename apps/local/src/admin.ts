/**
 * `cloudplane-admin`, the operator's command (`pnpm provision -- …` at the root): provisions an account with its
 * first user (Administrators) and that user's API token on any deployment's database, printing the token once.
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { createDatabase, provisionAccount, provisionProblem, type ProvisionAccountOptions } from "@cloudplane/db";
import { lockDataDir } from "./data-dir-lock.js";

const USAGE = `Usage: cloudplane-admin provision --name <account name> --email <first user's email> [--user-name <name>]

Creates an account, its first user (role Administrators) and an API token for that user, and prints the
token once: only its hash is stored. Runs on DATABASE_URL (PostgreSQL), else on the PGlite data directory
DATA_DIR (default ./.data), applying the migrations the database lacks first.`;

/** A mistake in the command line: said with the usage, exit code 2. */
class UsageError extends Error {}

function provisionOptions(args: string[]): ProvisionAccountOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: { name: { type: "string" }, email: { type: "string" }, "user-name": { type: "string" } },
      strict: true,
      allowPositionals: false,
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { name, email, "user-name": userName } = parsed.values;
  if (name === undefined || email === undefined) throw new UsageError("provision needs --name and --email.");
  const options: ProvisionAccountOptions = { name, email, ...(userName === undefined ? {} : { userName }) };
  const problem = provisionProblem(options);
  if (problem) throw new UsageError(problem);
  return options;
}

/** Runs the command; resolves to the exit code. `write` gets stdout's text, `fail` stderr's. */
export async function runAdmin(
  argv: string[],
  env: Record<string, string | undefined>,
  io: { write: (text: string) => void; fail: (text: string) => void },
): Promise<number> {
  // `pnpm provision -- --name …` passes the `--` on; it means nothing here.
  const [command, ...args] = argv.filter((arg, index) => !(arg === "--" && index <= 1));
  try {
    if (command !== "provision") throw new UsageError(command === undefined ? "Name a command." : `Unknown command "${command}".`);
    const options = provisionOptions(args);
    const url = env.DATABASE_URL || undefined;
    const dataDir = resolve(env.INIT_CWD || process.cwd(), env.DATA_DIR || ".data");
    // One process at a time on a PGlite directory: a running `pnpm start` on it refuses this, and the other way round.
    const unlock = url ? async () => {} : await lockDataDir(dataDir);
    try {
      const database = await createDatabase(url ? { url, max: 1 } : { dataDir });
      try {
        const provisioned = await provisionAccount(database.db, options);
        // The URL is not printed: it may carry a password.
        const where = url ? `PostgreSQL (${new URL(url).host}${new URL(url).pathname})` : `PGlite in ${dataDir}`;
        io.write(
          `Account ${provisioned.accountId} "${options.name.trim()}" provisioned on ${where}, with user ${provisioned.userId} ` +
            `(${options.email.trim()}, Administrators).\n` +
            `  API token ${provisioned.tokenId}:  ${provisioned.token}\n` +
            "Store the token now: it is shown this once (only its hash is kept). Call the API with\n" +
            "  Authorization: apikey <token>\n",
        );
      } finally {
        await database.close();
      }
    } finally {
      await unlock();
    }
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.fail(`${error.message}\n\n${USAGE}\n`);
      return 2;
    }
    io.fail(`cloudplane-admin: ${(error as Error).message}\n`);
    return 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  process.exitCode = await runAdmin(process.argv.slice(2), process.env, {
    write: (text) => process.stdout.write(text),
    fail: (text) => process.stderr.write(text),
  });
