/**
 * One process at a time on a PGlite data directory: two embedded databases writing the same files
 * corrupt them. The lock is a local socket that the holder listens on, named after the data directory:
 * the operating system closes it when its process ends, however it ends (kill -9 included), so no lock
 * outlives its process, and a pid reused by another program means nothing to it. Listening on a name
 * that is taken fails at once, so two processes cannot both hold it. The holder answers each
 * connection with its pid, for the message that refuses a second process.
 *
 * The socket: on Linux an abstract one (no file; the kernel's alone, within a network namespace); on
 * Windows a named pipe; elsewhere a socket file in the data directory (in the temp folder when the
 * directory's path is too long for one), which is left behind by a process that did not close it, and
 * taken over when nothing listens on it (two processes starting at the same moment on such a file could
 * both take it over: there, and only then, the lock can fail).
 */
import { createHash } from "node:crypto";
import { mkdir, realpath, unlink } from "node:fs/promises";
import { connect, createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The socket file, where the platform has no socket without one. */
export const LOCK_SOCKET_FILE = "cloudplane.sock";
/** The pid file earlier versions locked the directory with: removed by a process that holds the lock. */
const OLD_LOCK_FILE = "cloudplane.pid";
/** The longest socket file path used (Linux allows 107 bytes, macOS 103). */
const MAX_SOCKET_PATH_BYTES = 100;
/** How long a process that holds the lock has to say its pid. */
const ASK_TIMEOUT_MS = 2000;

/** The lock's socket for a data directory on a platform. */
export async function lockAddress(dataDir: string, platform: NodeJS.Platform = process.platform): Promise<string> {
  // One name per folder however it is written (relative, through a link): its real path.
  const key = createHash("sha256").update(await realpath(dataDir)).digest("hex").slice(0, 32);
  if (platform === "linux") return `\0cloudplane-data-dir-${key}`;
  if (platform === "win32") return `\\\\.\\pipe\\cloudplane-data-dir-${key}`;
  const file = join(dataDir, LOCK_SOCKET_FILE);
  // A socket file's path has room for about 100 bytes (104 on macOS): a deeper folder's goes in the temp folder.
  return Buffer.byteLength(file) <= MAX_SOCKET_PATH_BYTES ? file : join(tmpdir(), `cloudplane-data-dir-${key}.sock`);
}

function errorCode(error: unknown): string | undefined {
  return (error as { code?: string } | null)?.code;
}

function listen(server: Server, address: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(address, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

/**
 * Who holds the lock at `address`: "free" when nothing listens there (a socket file left behind), else
 * the pid it answered with (undefined when it said none in time).
 */
function askHolder(address: string): Promise<"free" | number | undefined> {
  return new Promise((resolve) => {
    let answer = "";
    const socket = connect(address);
    const done = (result: "free" | number | undefined) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => done(undefined), ASK_TIMEOUT_MS);
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (answer += chunk));
    socket.on("end", () => {
      const pid = Number(answer.trim());
      done(Number.isInteger(pid) && pid > 0 ? pid : undefined);
    });
    socket.on("error", (error) => done(["ECONNREFUSED", "ENOENT"].includes(errorCode(error) ?? "") ? "free" : undefined));
  });
}

function heldError(dataDir: string, pid: number | undefined): Error {
  const who = pid === undefined ? "Another process" : `Another cloudplane process (pid ${pid})`;
  return new Error(`${who} is using the data directory ${dataDir}: stop it, or set DATA_DIR to another folder.`);
}

/**
 * Takes the data directory's lock; resolves to its release. Rejects when another process holds it,
 * naming that process's pid. `platform` chooses the kind of socket (the tests try each on one machine).
 */
export async function lockDataDir(dataDir: string, platform: NodeJS.Platform = process.platform): Promise<() => Promise<void>> {
  await mkdir(dataDir, { recursive: true });
  const address = await lockAddress(dataDir, platform);
  const server = createServer((socket) => socket.end(`${process.pid}\n`));
  // A listening socket, not work: the process may end while it holds the lock.
  server.unref();
  for (let attempt = 0; ; attempt++) {
    try {
      await listen(server, address);
      break;
    } catch (error) {
      if (errorCode(error) !== "EADDRINUSE") throw error;
    }
    const holder = await askHolder(address);
    // Only a socket file can be left behind with nothing listening: take it over, once.
    if (holder !== "free" || attempt > 0 || address.startsWith("\0") || address.startsWith("\\\\")) throw heldError(dataDir, holder === "free" ? undefined : holder);
    await unlink(address).catch((error: unknown) => {
      if (errorCode(error) !== "ENOENT") throw error;
    });
  }
  await unlink(join(dataDir, OLD_LOCK_FILE)).catch(() => undefined);
  let released: Promise<void> | undefined;
  // Closing the server removes its socket file, where it has one.
  return () => (released ??= new Promise((resolve) => server.close(() => resolve())));
}
