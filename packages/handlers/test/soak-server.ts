/**
 * The server the soak (test/soak.ts) runs in a child process, bundled with the handler's source: the
 * Node adapter on a PGlite database in SOAK_DATA_DIR with the demo data and the default rate limit.
 * It prints `{"port": …}` once it listens, reports unexpected errors as JSON lines on stderr, runs a
 * garbage collection on SIGUSR2 (so memory is read in a settled state) and stops on SIGTERM. Its
 * handler is recorded for the secrets scan in SECRETS_SCAN_DIRECTORY, as every test's handler is.
 */
import type { AddressInfo } from "node:net";
import { createDatabase, generateSecretsKey, importSecretsKey, loadDemoData } from "@cloudplane/db";
import { serve } from "../src/adapter/node/index.js";
import { createRecordedHandler, RunRecorder } from "./recorded-handler.js";

const dataDir = process.env.SOAK_DATA_DIR;
if (!dataDir) throw new Error("SOAK_DATA_DIR must name the data directory.");
const scanDirectory = process.env.SECRETS_SCAN_DIRECTORY;
if (!scanDirectory) throw new Error("SECRETS_SCAN_DIRECTORY must name the secrets scan's folder of this run.");
const recorder = new RunRecorder(scanDirectory, `soak-server-${process.pid}`);

const database = await createDatabase({ dataDir });
const secretsKey = await importSecretsKey(generateSecretsKey());
await loadDemoData(database.db, { secretsKey });
const handler = createRecordedHandler(
  {
    db: database.db,
    secretsKey,
    onError: (report, requestId) => process.stderr.write(`${JSON.stringify({ request_id: requestId, ...report })}\n`),
  },
  recorder,
);
const server = await serve(handler, { port: 0, hostname: "127.0.0.1" });

process.on("SIGUSR2", () => (globalThis as { gc?: () => void }).gc?.());
process.on("SIGTERM", () => {
  server.close(() => {
    recorder.flush();
    void database.close().then(() => process.exit(0));
  });
});
process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
