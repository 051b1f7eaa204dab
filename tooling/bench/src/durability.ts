/**
 * Part 7: what a durable PGlite data directory costs writes. Our server (rate limit off) twice, each in
 * a Node process of its own on its own copy of the same data directory: durable (the default: a commit
 * is answered once its WAL is synced to the disk) and relaxed (PGlite's own settings, fsync off). Per
 * write route, both are warmed up, then measured in interleaved rounds (the order turning each round),
 * so load from elsewhere on the machine falls on both alike.
 */
import { statfs } from "node:fs/promises";
import type { PgliteDurability } from "@cloudplane/db";
import { benchDatabase, databaseForServer, type BenchDatabase } from "./databases.js";
import { inTurns, runLoad, shownRatio, summarize, type LoadResult, type LoadSample } from "./load.js";
import { LOAD, WRITE_ROUTES, type WriteRouteId } from "./scenario.js";
import { startServer, type RunningServer } from "./servers/launch.js";
import { show } from "./throughput.js";

export const DURABILITIES = ["durable", "relaxed"] as const satisfies readonly PgliteDurability[];

export interface DurabilityRow {
  route: WriteRouteId;
  title: string;
  results: Record<PgliteDurability, LoadResult>;
}

export interface DurabilityPart {
  engine: "pglite";
  /** The file system of the data directories (fsync's cost is the disk's, through it). */
  fileSystem: string;
  rows: DurabilityRow[];
}

/** Linux's names of some file systems' magic numbers (statfs); others are shown by number. */
const FILE_SYSTEMS: Record<number, string> = {
  0xef53: "ext4",
  0x58465342: "xfs",
  0x9123683e: "btrfs",
  0x794c7630: "overlayfs",
  0x01021994: "tmpfs (no disk: a sync costs nothing)",
  0x2fc12fc1: "zfs",
  0x6969: "nfs",
};

async function fileSystemOf(path: string): Promise<string> {
  const { type } = await statfs(path);
  return FILE_SYSTEMS[type] ?? `type 0x${type.toString(16)}`;
}

export async function measureDurability(): Promise<DurabilityPart> {
  const database = await benchDatabase("pglite");
  const copies: BenchDatabase[] = [];
  const servers: Partial<Record<PgliteDurability, RunningServer>> = {};
  try {
    if (database.location.engine !== "pglite") throw new Error("part 7 runs on PGlite");
    const fileSystem = await fileSystemOf(database.location.dataDir);
    console.log(`  data directories on ${fileSystem}`);
    for (const durability of DURABILITIES) {
      const copy = await databaseForServer(database);
      copies.push(copy);
      if (copy.location.engine !== "pglite") throw new Error("part 7 runs on PGlite");
      servers[durability] = await startServer("ours", { location: { ...copy.location, durability }, rateLimit: "off" });
    }
    const rows: DurabilityRow[] = [];
    for (const route of WRITE_ROUTES) {
      for (const durability of DURABILITIES) await runLoad(servers[durability]!.url, route.requests, LOAD.connections, LOAD.warmupSeconds);
      const samples: Record<PgliteDurability, LoadSample[]> = { durable: [], relaxed: [] };
      await inTurns(DURABILITIES, route.requests, (durability) => servers[durability]!.url, async (durability, url) => {
        samples[durability].push(await runLoad(url, route.requests, LOAD.connections, LOAD.roundSeconds));
      });
      const results = { durable: summarize(samples.durable), relaxed: summarize(samples.relaxed) };
      for (const durability of DURABILITIES) console.log(`  pglite   ${route.title.padEnd(40)} ${durability.padEnd(22)} ${show(results[durability])}`);
      console.log(`  pglite   ${route.title.padEnd(40)} ${"durable / relaxed".padEnd(22)} ${shownRatio(results.durable, results.relaxed)}`);
      rows.push({ route: route.id, title: route.title, results });
    }
    return { engine: "pglite", fileSystem, rows };
  } finally {
    for (const server of Object.values(servers)) await server.stop();
    for (const copy of copies) await copy.close();
    await database.close();
  }
}
