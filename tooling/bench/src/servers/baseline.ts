/**
 * Child process: the baseline (../baseline.ts) on `node:http`, on the benchmark's database. Prints
 * `{"port":…}` once it listens; ends on SIGTERM after closing the database.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { baselineAnswer, openRawDatabase } from "../baseline.js";
import type { RouteSql } from "../capture.js";
import type { DatabaseLocation } from "../databases.js";
import { onStop, serverSettings } from "./settings.js";

const { location, statements } = serverSettings<{ location: DatabaseLocation; statements: RouteSql }>();
const db = await openRawDatabase(location);

const server = createServer((request, reply) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    const text = Buffer.concat(chunks).toString("utf8");
    const url = new URL(request.url ?? "/", "http://baseline.local");
    baselineAnswer(db, statements, request.method ?? "GET", url, text ? JSON.parse(text) : undefined)
      .then(({ status, body }) => {
        reply.writeHead(status, { "content-type": "application/json" });
        reply.end(JSON.stringify(body));
      })
      .catch((error: unknown) => {
        console.error(error);
        reply.writeHead(500, { "content-type": "application/json" });
        reply.end('{"message":"internal"}');
      });
  });
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
await onStop(server, () => db.close());
console.log(JSON.stringify({ port: (server.address() as AddressInfo).port }));
