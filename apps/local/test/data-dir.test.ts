/**
 * The PGlite data directory: its lock (a local socket the operating system closes with its process, so a
 * stale pid file or a killed process never blocks a start, while a second running process is refused),
 * and the writes it keeps across a kill -9, durable by default and with CLOUDPLANE_PGLITE_DURABILITY=relaxed.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { demoFixture } from "@cloudplane/db";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { LOCK_SOCKET_FILE, lockAddress, lockDataDir } from "../src/data-dir-lock.js";
import { startLocalProcess, type LocalProcess } from "./local-process.js";

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "cloudplane-data-dir-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A fresh folder under the suite's root. */
async function freshDir(): Promise<string> {
  return mkdtemp(join(root, "dir-"));
}

/** Processes a test started; each is killed after it. */
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGKILL");
      await once(child, "exit");
    }
});

/** A live process that is not cloudplane (`sleep`), for a pid file to name. */
function otherProcess(): ChildProcess {
  const child = spawn("sleep", ["600"], { stdio: "ignore" });
  children.push(child);
  return child;
}

/** The lock socket kinds this machine can make: the platform's own, and on Linux also the socket file other Unixes use. */
const kinds: { platform: NodeJS.Platform; name: string }[] =
  process.platform === "linux"
    ? [
        { platform: "linux", name: "abstract socket (Linux)" },
        { platform: "darwin", name: "socket file (macOS and other Unixes)" },
      ]
    : [{ platform: process.platform, name: process.platform }];

describe.each(kinds)("the data directory's lock: $name", ({ platform }) => {
  it("is held by one taker at a time: a second is refused with the holder's pid, and may take it once it is released", async () => {
    const dataDir = await freshDir();
    const release = await lockDataDir(dataDir, platform);
    await expect(lockDataDir(dataDir, platform)).rejects.toThrow(
      new Error(`Another cloudplane process (pid ${process.pid}) is using the data directory ${dataDir}: stop it, or set DATA_DIR to another folder.`),
    );
    await release();
    await release();
    const again = await lockDataDir(dataDir, platform);
    await again();
    // A socket file goes with its lock.
    expect(await readdir(dataDir)).toEqual([]);
  });

  it("is not blocked by an earlier version's pid file naming a live process that is not cloudplane, and removes that file", async () => {
    const dataDir = await freshDir();
    const sleeping = otherProcess();
    await writeFile(join(dataDir, "cloudplane.pid"), `${sleeping.pid}\n`);
    const release = await lockDataDir(dataDir, platform);
    expect(existsSync(join(dataDir, "cloudplane.pid"))).toBe(false);
    expect(sleeping.exitCode).toBe(null);
    await release();
  });
});

if (process.platform !== "win32")
  describe("the data directory's lock as a socket file", () => {
    it("is taken over when the process that held it was killed and left its file behind", async () => {
      const dataDir = await freshDir();
      const address = await lockAddress(dataDir, "darwin");
      expect(address).toBe(join(dataDir, LOCK_SOCKET_FILE));
      // Another program listening on the socket as a holder does, answering with its pid.
      const holder = spawn(
        process.execPath,
        ["-e", `require("node:net").createServer((s) => s.end(process.pid + "\\n")).listen(${JSON.stringify(address)}, () => console.log("listening"))`],
        { stdio: ["ignore", "pipe", "inherit"] },
      );
      children.push(holder);
      await once(holder.stdout, "data");
      await expect(lockDataDir(dataDir, "darwin")).rejects.toThrow(`Another cloudplane process (pid ${holder.pid}) is using the data directory ${dataDir}`);

      holder.kill("SIGKILL");
      await once(holder, "exit");
      expect(await readdir(dataDir)).toEqual([LOCK_SOCKET_FILE]);
      const release = await lockDataDir(dataDir, "darwin");
      await release();
      expect(await readdir(dataDir)).toEqual([]);
    });

    it("is kept in the temp folder when the data directory's path is too long for a socket file", async () => {
      const dataDir = join(await freshDir(), "a-folder-whose-name-makes-the-path-longer-than-a-socket-file-may-be".repeat(2));
      await mkdir(dataDir);
      const address = await lockAddress(dataDir, "darwin");
      expect(dirname(address)).toBe(tmpdir());
      expect(basename(address)).toMatch(/^cloudplane-data-dir-[0-9a-f]{32}\.sock$/);
      const release = await lockDataDir(dataDir, "darwin");
      await expect(lockDataDir(dataDir, "darwin")).rejects.toThrow(`Another cloudplane process (pid ${process.pid}) is using the data directory ${dataDir}`);
      expect(existsSync(address)).toBe(true);
      await release();
      expect(existsSync(address)).toBe(false);
      expect(await readdir(dataDir)).toEqual([]);
    });
  });

/** The demo app the writes go to, and a fresh comment and secret name. */
function writes() {
  const apps = demoFixture.edgeApps.filter((candidate) => candidate.accountId === 1);
  const stamp = `${Date.now()}-${Math.random().toString(36).slice(2)}`;
  return { appId: apps[apps.length - 1]!.id, comment: `written before the kill ${stamp}`, secretName: `killed-${stamp}` };
}

function call(app: LocalProcess, method: string, path: string, body?: unknown) {
  return fetch(`${app.url}${path}`, {
    method,
    headers: { authorization: `apikey ${app.adminApiKey}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** Writes through the API (an update and a create), kills the app with SIGKILL, starts it again and finds both. */
async function expectWritesKeptAcrossKill(app: LocalProcess, env: Record<string, string>): Promise<LocalProcess> {
  const { appId, comment, secretName } = writes();
  expect((await call(app, "PUT", `/edge/v1/apps/${appId}`, { comment })).status).toBe(200);
  expect((await call(app, "POST", "/edge/v1/secrets", { name: secretName, secret_slots: [{ slot: 1, value: "kept" }] })).status).toBe(200);

  expect(await app.stop("SIGKILL")).toBe(null);
  expect(app.child.signalCode).toBe("SIGKILL");

  // The killed process's lock went with it: the restart is not refused.
  const restarted = await startLocalProcess(env);
  expect(restarted.headline).not.toContain("demo data loaded");
  const listed = (await (await call(restarted, "GET", "/edge/v1/apps?limit=1000")).json()) as { apps: { id: number; comment: string }[] };
  expect(listed.apps.find((candidate) => candidate.id === appId)?.comment).toBe(comment);
  // The secret is there: its name is taken.
  expect((await call(restarted, "POST", "/edge/v1/secrets", { name: secretName, secret_slots: [{ slot: 1, value: "again" }] })).status).toBe(409);
  return restarted;
}

/** A test that starts the app twice: a first start loads the demo data, and the machine may be busy. */
const TWO_STARTS_MS = 150_000;

describe("the local app on a PGlite data directory", () => {
  const apps: LocalProcess[] = [];
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.stop("SIGKILL");
  });

  it("starts although a stale pid file names a live process that is not cloudplane, and refuses a second cloudplane process on the same DATA_DIR", async () => {
    const dataDir = await freshDir();
    await writeFile(join(dataDir, "cloudplane.pid"), `${otherProcess().pid}\n`);
    const app = await startLocalProcess({ DATA_DIR: dataDir });
    apps.push(app);
    expect(app.headline).toBe(`cloudplane API on PGlite in ${dataDir} (demo data loaded)`);

    const refused = await startLocalProcess({ DATA_DIR: dataDir }).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(refused?.message).toContain(
      `cloudplane could not start: Another cloudplane process (pid ${app.child.pid}) is using the data directory ${dataDir}: stop it, or set DATA_DIR to another folder.`,
    );
    // The first one serves on.
    expect((await call(app, "GET", "/cdn/clients/me/features")).status).toBe(200);
  }, TWO_STARTS_MS);

  it("keeps every answered write across a kill -9 (durable, the default), and the killed process's lock does not block the restart", async () => {
    const env = { DATA_DIR: await freshDir() };
    const app = await startLocalProcess(env);
    apps.push(app);
    apps.push(await expectWritesKeptAcrossKill(app, env));
  }, TWO_STARTS_MS);

  it("with CLOUDPLANE_PGLITE_DURABILITY=relaxed, says so and keeps answered writes across a kill -9 too", async () => {
    const env = { DATA_DIR: await freshDir(), CLOUDPLANE_PGLITE_DURABILITY: "relaxed" };
    const app = await startLocalProcess(env);
    apps.push(app);
    expect(app.headline).toBe(`cloudplane API on PGlite in ${env.DATA_DIR}, durability relaxed (demo data loaded)`);
    apps.push(await expectWritesKeptAcrossKill(app, env));
  }, TWO_STARTS_MS);

  it("refuses to start with a CLOUDPLANE_PGLITE_DURABILITY it does not know, before touching the data directory", async () => {
    const dataDir = join(await freshDir(), "data");
    const refused = await startLocalProcess({ DATA_DIR: dataDir, CLOUDPLANE_PGLITE_DURABILITY: "fast" }).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(refused?.message).toContain('cloudplane could not start: CLOUDPLANE_PGLITE_DURABILITY must be "durable" or "relaxed", not "fast".');
    expect(existsSync(dataDir)).toBe(false);
  });
});
