/**
 * Child process: the peer (../peer-core.ts, Hono with @hono/zod-openapi) served by @hono/node-server on
 * the benchmark's database, with the driver the baseline uses (postgres.js with its defaults, or PGlite with ours' prepared statements).
 * Prints `{"port":…}` once it listens; ends on SIGTERM after closing the database.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { openRawDatabase } from "../baseline.js";
import type { RouteSql } from "../capture.js";
import type { DatabaseLocation } from "../databases.js";
import { createPeerApp } from "../peer-core.js";
import { onStop, serverSettings } from "./settings.js";

const { location, statements } = serverSettings<{ location: DatabaseLocation; statements: RouteSql }>();
const db = await openRawDatabase(location);
const app = createPeerApp({ connect: () => ({ db, statements }) });

const server = await new Promise<Server>((resolve) => {
  const started = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(started as Server));
});
await onStop(server, () => db.close());
console.log(JSON.stringify({ port: (server.address() as AddressInfo).port }));
