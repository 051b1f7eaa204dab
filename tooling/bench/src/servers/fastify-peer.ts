/**
 * Child process: the Fastify peer (../fastify-peer-core.ts) listening on node:http through Fastify's own
 * `listen`, on the benchmark's database, with the driver the baseline uses (postgres.js with its defaults,
 * or PGlite with ours' prepared statements). Prints `{"port":…}` once it listens; ends on SIGTERM after closing the database.
 */
import type { AddressInfo } from "node:net";
import { openRawDatabase } from "../baseline.js";
import type { RouteSql } from "../capture.js";
import type { DatabaseLocation } from "../databases.js";
import { createFastifyPeerApp } from "../fastify-peer-core.js";
import { onStop, serverSettings } from "./settings.js";

const { location, statements } = serverSettings<{ location: DatabaseLocation; statements: RouteSql }>();
const db = await openRawDatabase(location);
const app = createFastifyPeerApp({ db, statements });

await app.listen({ port: 0, host: "127.0.0.1" });
await onStop(app.server, () => db.close());
console.log(JSON.stringify({ port: (app.server.address() as AddressInfo).port }));
