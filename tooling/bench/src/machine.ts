/**
 * The machine the figures were taken on: cores, memory, load, Node, PostgreSQL and PGlite versions.
 */
import { readFile } from "node:fs/promises";
import { arch, cpus, loadavg, platform, release, totalmem } from "node:os";
import postgres from "postgres";
import { postgresServerUrl } from "./databases.js";

export interface Machine {
  cpuModel: string;
  cores: number;
  memoryGiB: number;
  os: string;
  node: string;
  postgres: string;
  pglite: string;
  /** 1-minute load averages when the run started and ended: other work shares the machine. */
  loadAverageAtStart: number;
  loadAverageAtEnd?: number;
}

async function postgresVersion(): Promise<string> {
  const url = postgresServerUrl();
  if (!url) return "not used (DATABASE_URL is not set)";
  const sql = postgres(url, { max: 1, onnotice: () => undefined, connect_timeout: 5 });
  try {
    const [row] = await sql<{ version: string }[]>`select version()`;
    return row?.version.replace(/ on .*$/, "") ?? "unknown";
  } catch (error) {
    return `unreachable (${error instanceof Error ? error.message : String(error)})`;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

async function pgliteVersion(): Promise<string> {
  // PGlite's exports map does not list its package.json: read it where pnpm linked it.
  const manifest = new URL("../node_modules/@electric-sql/pglite/package.json", import.meta.url);
  const { version } = JSON.parse(await readFile(manifest, "utf8")) as { version: string };
  return `PGlite ${version}`;
}

export async function describeMachine(): Promise<Machine> {
  return {
    cpuModel: cpus()[0]?.model.trim() ?? "unknown",
    cores: cpus().length,
    memoryGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    os: `${platform()} ${release()} ${arch()}`,
    node: process.version,
    postgres: await postgresVersion(),
    pglite: await pgliteVersion(),
    loadAverageAtStart: loadavg()[0]!,
  };
}

export function endLoadAverage(machine: Machine): void {
  machine.loadAverageAtEnd = loadavg()[0]!;
}
