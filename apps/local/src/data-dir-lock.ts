/**
 * One process at a time on a PGlite data directory: two embedded databases writing the same files
 * corrupt them. The lock is a file holding the owner's pid; a lock whose process is gone is taken over.
 */
import { readFile, unlink, writeFile, mkdir } from "node:fs/promises";
import { join } from "node:path";

export const LOCK_FILE = "cloudplane.pid";

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as { code?: string }).code === "EPERM";
  }
}

/** Takes the data directory's lock; resolves to its release. */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  await mkdir(dataDir, { recursive: true });
  const path = join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(path, `${process.pid}\n`, { flag: "wx" });
      return () => unlink(path).catch(() => undefined);
    } catch (error) {
      if ((error as { code?: string }).code !== "EEXIST") throw error;
    }
    const owner = Number((await readFile(path, "utf8").catch(() => "")).trim());
    if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isRunning(owner))
      throw new Error(`Another cloudplane process (pid ${owner}) is using the data directory ${dataDir}: stop it, or set DATA_DIR to another folder.`);
    await unlink(path).catch(() => undefined);
  }
  throw new Error(`Could not take the lock ${path}.`);
}
