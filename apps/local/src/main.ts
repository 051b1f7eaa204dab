/**
 * `pnpm start`: runs the local app from the environment (PORT, HOST, DATA_DIR, DATABASE_URL,
 * CLOUDPLANE_SECRETS_KEY, CLOUDPLANE_PGLITE_DURABILITY, HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS,
 * SHUTDOWN_GRACE_MS), prints where it is and, on the demo data, the demo administrator's API key (a
 * provisioned database has accounts of its own), and shuts down cleanly on SIGINT and SIGTERM.
 */
import { resolve } from "node:path";
import { PGLITE_DURABILITIES, type PgliteDurability } from "@cloudplane/db";
import { serveSettingsFromEnv } from "@cloudplane/handlers/node";
import { startLocalApp } from "./app.js";
import { errorFields, jsonLogger } from "./log.js";

/** CLOUDPLANE_PGLITE_DURABILITY: "durable" or "relaxed"; unset: the app's default (durable). */
function durabilityFrom(value: string | undefined): PgliteDurability | undefined {
  if (value === undefined || value === "") return undefined;
  const durability = PGLITE_DURABILITIES.find((known) => known === value);
  if (!durability) throw new Error(`CLOUDPLANE_PGLITE_DURABILITY must be ${PGLITE_DURABILITIES.map((known) => `"${known}"`).join(" or ")}, not "${value}".`);
  return durability;
}

async function main(): Promise<void> {
  const env = process.env;
  // pnpm runs scripts in the package's folder; a relative DATA_DIR means the folder pnpm was run from.
  const dataDir = resolve(env.INIT_CWD || process.cwd(), env.DATA_DIR || ".data");
  const started = startLocalApp({
    env,
    ...serveSettingsFromEnv(env),
    dataDir,
    ...(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : {}),
    ...(env.CLOUDPLANE_SECRETS_KEY ? { secretsKey: env.CLOUDPLANE_SECRETS_KEY } : {}),
    pgliteDurability: durabilityFrom(env.CLOUDPLANE_PGLITE_DURABILITY),
  });

  // Taken from the start: a signal while the database is being set up waits for it, then closes it.
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      jsonLogger({ level: "error", msg: "second signal: exiting without waiting", signal });
      process.exit(1);
    }
    stopping = true;
    jsonLogger({ level: "info", msg: "shutting down", signal });
    started
      .then((app) => app.close())
      .then(
        () => {
          jsonLogger({ level: "info", msg: "stopped" });
          process.exit(0);
        },
        (error: unknown) => {
          jsonLogger({ level: "error", msg: "shutdown failed", ...errorFields(error) });
          process.exit(1);
        },
      );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);

  const app = await started;
  if (stopping) return;
  const docs = app.docsBuilt ? app.docsUrl : `not built (pnpm --filter @cloudplane/docs build, then reload ${app.docsUrl})`;
  process.stdout.write(
    [
      "",
      `cloudplane API on ${app.storage}${app.demoDataLoaded ? " (demo data loaded)" : ""}`,
      "",
      `  API:            ${app.url}`,
      `  Docs:           ${docs}`,
      ...(app.adminApiKey
        ? [`  Admin API key:  ${app.adminApiKey}   (demo account 1, role Administrators)`, "", `  Try: curl -H "Authorization: apikey ${app.adminApiKey}" ${app.url}/cdn/clients/me/features`]
        : [
            "  Accounts:       this database's own, without the demo data: call with a token `pnpm provision` printed",
            "",
            `  Try: curl -H "Authorization: apikey <token>" ${app.url}/cdn/clients/me/features`,
          ]),
      "",
      "Request logs follow as JSON lines. Ctrl-C stops the server.",
      "",
    ].join("\n") + "\n",
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`cloudplane could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
