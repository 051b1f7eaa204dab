/**
 * The production Node server as an operator runs it: the bundle esbuild makes, copied out of the repository
 * (no node_modules beside it) and run with `node server.mjs`. Without a database setting it refuses to
 * start; on PostgreSQL (when DATABASE_URL is set) it migrates an empty database as it starts, serves a
 * provisioned account, answers its health check by whether the database answers, and stops cleanly on
 * SIGTERM.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { copyFile, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import net, { type AddressInfo, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDatabase, provisionAccount, type CloudplaneDatabase, type ProvisionedAccount } from "@cloudplane/db";
import { createTestDatabase, type TestDatabase } from "@cloudplane/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildServer } from "../scripts/build.js";

/** Where the bundle runs: a folder of its own, outside the repository. */
let runDir: string;

beforeAll(async () => {
  const outdir = await mkdtemp(join(tmpdir(), "cloudplane-server-build-"));
  const built = await buildServer(outdir);
  runDir = await mkdtemp(join(tmpdir(), "cloudplane-server-"));
  await copyFile(built.file, join(runDir, "server.mjs"));
  await rm(outdir, { recursive: true, force: true });
});
afterAll(async () => {
  await rm(runDir, { recursive: true, force: true });
});

interface ServerProcess {
  child: ChildProcess;
  url: string;
  stdout(): string;
  stderr(): string;
  exited: Promise<number | null>;
}

/** `node server.mjs` in `runDir` with only these settings (and PATH); resolves once it listens, rejects if it exits first. */
async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ["server.mjs"], { cwd: runDir, env: { PATH: process.env.PATH ?? "", PORT: "0", HOST: "127.0.0.1", ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    const poll = setInterval(() => {
      const listening = /"msg":"listening","port":(\d+)/.exec(stdout);
      if (listening) {
        clearInterval(poll);
        resolve(Number(listening[1]));
      }
    }, 25);
    void exited.then((code) => {
      clearInterval(poll);
      reject(new Error(`The server exited (${code}) before it listened.\nstdout: ${stdout}\nstderr: ${stderr}`));
    });
  });
  return { child, url: `http://127.0.0.1:${port}`, stdout: () => stdout, stderr: () => stderr, exited };
}

describe("the server's bundle", () => {
  it("is one ES module, without PGlite, that runs where no node_modules are", async () => {
    expect(await readdir(runDir)).toEqual(["server.mjs"]);
    const code = await readFile(join(runDir, "server.mjs"), "utf8");
    expect(code).not.toMatch(/pglite\.wasm|pglite\.data/);
    // The contract without its documentation (a KV store comment's description), with its checks' messages.
    expect(code).not.toContain("The store's description, at most 1024 characters.");
    expect(code).toContain("At most 1024 characters.");
  });

  it("refuses to start without DATABASE_URL, saying what to set, with exit code 1", async () => {
    await expect(startServer({ CLOUDPLANE_SECRETS_KEY: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=" })).rejects.toThrow(
      /exited \(1\)[\s\S]*cloudplane could not start: DATABASE_URL is not set: the server runs on PostgreSQL/,
    );
  });

  it("refuses a setting that is not one, naming it", async () => {
    await expect(startServer({ DATABASE_URL: "postgres://nobody@127.0.0.1:1/none", PORT: "eighty" })).rejects.toThrow(
      /cloudplane could not start: PORT must be a port number \(0 to 65535\), not "eighty"\./,
    );
  });
});

/**
 * A TCP proxy in front of PostgreSQL that can be taken away (its port closed, its connections cut) and
 * brought back on the same port: the database going away and coming back, as the server sees it.
 */
class DatabaseProxy {
  #server: Server | undefined;
  readonly #sockets = new Set<Socket>();
  port = 0;
  constructor(readonly target: URL) {}

  async up(): Promise<void> {
    const server = net.createServer((client) => {
      const upstream = net.connect(Number(this.target.port || 5432), this.target.hostname);
      for (const socket of [client, upstream]) {
        this.#sockets.add(socket);
        socket.on("error", () => socket.destroy());
        socket.on("close", () => this.#sockets.delete(socket));
      }
      client.pipe(upstream).pipe(client);
      client.on("close", () => upstream.destroy());
      upstream.on("close", () => client.destroy());
    });
    server.listen(this.port, "127.0.0.1");
    await once(server, "listening");
    this.port = (server.address() as AddressInfo).port;
    this.#server = server;
  }

  async down(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    for (const socket of this.#sockets) socket.destroy();
    if (server) await new Promise((resolve) => server.close(resolve));
  }

  url(): string {
    const url = new URL(this.target);
    url.hostname = "127.0.0.1";
    url.port = String(this.port);
    return url.toString();
  }
}

// Registered only when there is a PostgreSQL server to run on, so that no test shows as skipped.
if (process.env.DATABASE_URL)
  describe("the server on PostgreSQL", () => {
    let database: TestDatabase;
    let proxy: DatabaseProxy;
    let server: ServerProcess;
    let admin: CloudplaneDatabase;
    /** The account provisioned on the database the server migrated. */
    let account: ProvisionedAccount;

    beforeAll(async () => {
      // A database with nothing in it, not even the migrations: the server applies them.
      database = await createTestDatabase({ engine: "postgres", migrate: false });
      proxy = new DatabaseProxy(new URL(database.url!));
      await proxy.up();
      server = await startServer({ DATABASE_URL: proxy.url(), CLOUDPLANE_SECRETS_KEY: database.secretsKeyBase64, SHUTDOWN_GRACE_MS: "2000" });
      admin = await createDatabase({ url: database.url!, max: 1, migrate: false });
      account = await provisionAccount(admin.db, { name: "Acme", email: "ops@acme.example" });
    });
    afterAll(async () => {
      if (server?.child.exitCode === null) server.child.kill("SIGKILL");
      await admin?.close();
      await proxy?.down();
      await database?.close();
    });

    it("migrates the empty database as it starts, and serves an account provisioned on it", async () => {
      const reply = await fetch(`${server.url}/iam/clients/me`, { headers: { authorization: `apikey ${account.token}` } });
      expect(reply.status).toBe(200);
      expect(await reply.json()).toMatchObject({ id: account.accountId, companyName: "Acme" });
      expect(server.stdout()).toMatch(/"msg":"request".*"path":"\/iam\/clients\/me","status":200/);
      // Neither the database's URL nor the key is ever printed.
      expect(server.stdout() + server.stderr()).not.toContain(database.secretsKeyBase64);
      expect(server.stdout() + server.stderr()).not.toContain("postgres://");
    });

    it("answers its health check 200 while the database answers, 503 with Retry-After while it is away, and 200 once it is back", async () => {
      const health = async () => {
        const reply = await fetch(`${server.url}/healthz`);
        return { status: reply.status, retryAfter: reply.headers.get("retry-after"), body: await reply.json() };
      };
      expect(await health()).toEqual({ status: 200, retryAfter: null, body: { status: "ok" } });
      await proxy.down();
      expect(await health()).toEqual({ status: 503, retryAfter: "5", body: { status: "unavailable" } });
      await proxy.up();
      expect(await health()).toEqual({ status: 200, retryAfter: null, body: { status: "ok" } });
    });

    it("stops on SIGTERM: the request in flight is answered, then the database is closed and the exit code is 0", async () => {
      // A request still arriving when the signal comes (its body sent late) is answered before the server exits.
      const url = new URL(`${server.url}/edge/v1/secrets`);
      const socket = net.connect(Number(url.port), url.hostname);
      await once(socket, "connect");
      const closed = once(socket, "close");
      let answer = "";
      socket.setEncoding("utf8").on("data", (chunk: string) => (answer += chunk));
      const body = JSON.stringify({ name: "late", secret_slots: [{ slot: 0, value: "v" }] });
      socket.write(`POST /edge/v1/secrets HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: apikey ${account.token}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      server.child.kill("SIGTERM");
      await new Promise((resolve) => setTimeout(resolve, 100));
      socket.write(body);
      expect(await server.exited).toBe(0);
      await closed;
      expect(answer).toMatch(/^HTTP\/1\.1 200 /);
      expect(answer).toMatch(/connection: close/i);
      const logged = server
        .stdout()
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => (JSON.parse(line) as { msg: string }).msg);
      expect(logged.slice(logged.indexOf("shutting down"))).toEqual(["shutting down", "request", "stopped"]);
    });
  });
