/** What the benchmark's server processes share: their settings (JSON in BENCH_SERVER) and a clean stop. */
import type { Server } from "node:http";

export function serverSettings<T>(): T {
  const text = process.env.BENCH_SERVER;
  if (!text) throw new Error("BENCH_SERVER is not set: this process is started by the benchmark.");
  return JSON.parse(text) as T;
}

/** On SIGTERM: stop listening, drop idle connections and close the database (PGlite writes its files then). */
export function onStop(server: Server, closeDatabase: () => Promise<void>): void {
  process.once("SIGTERM", () => {
    server.close();
    server.closeAllConnections();
    // Requests cut off with their connections still finish their queries: give them time first.
    setTimeout(() => {
      closeDatabase()
        .catch((error: unknown) => console.error(error))
        .finally(() => process.exit(0));
    }, 1000);
  });
}
