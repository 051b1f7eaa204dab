/**
 * Child process: our API (`createHandler` + the Node adapter's `serve`) on the benchmark's database.
 * Prints `{"port":…}` once it listens; ends on SIGTERM after closing the database.
 */
import type { AddressInfo } from "node:net";
import { createDatabase, importSecretsKey } from "@cloudplane/db";
import { createHandler } from "@cloudplane/handlers";
import { serve } from "@cloudplane/handlers/node";
import type { DatabaseLocation } from "../databases.js";
import { onStop, serverSettings } from "./settings.js";

const { location, rateLimit } = serverSettings<{ location: DatabaseLocation; rateLimit: "off" | "unreachable" }>();
const database =
  location.engine === "postgres"
    ? await createDatabase({ url: location.url })
    : await createDatabase({ dataDir: location.dataDir, durability: location.durability });
const handler = createHandler({
  db: database.db,
  secretsKey: await importSecretsKey(location.secretsKeyBase64),
  // A budget no run reaches: the limiter does all its work (one upsert a request) and never refuses.
  rateLimit: rateLimit === "unreachable" ? { rate: 1e9, burst: 1e9 } : false,
});
const server = await serve(handler, { port: 0, hostname: "127.0.0.1" });
await onStop(server, () => database.close());
console.log(JSON.stringify({ port: (server.address() as AddressInfo).port }));
