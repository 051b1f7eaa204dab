/**
 * `cloudplane-admin provision` (`pnpm provision`), run as the operator runs it, on a fresh PGlite data directory
 * and on a fresh PostgreSQL database (when DATABASE_URL is set): it migrates, creates the account, its
 * Administrator and a token printed once, and that token then works through @cloudplane/client on the real handler.
 */
import { existsSync } from "node:fs";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@cloudplane/client";
import { routeExample } from "@cloudplane/contract";
import {
  accounts,
  apiTokens,
  cloudProjects,
  createDatabase,
  demoToken,
  edgePlans,
  generateSecretsKey,
  hashToken,
  importSecretsKey,
  platformCatalog,
  sql,
  users,
  type CloudplaneDatabase,
} from "@cloudplane/db";
import { createTestDatabase, engines, selectRows, type TestDatabase } from "@cloudplane/db/testing";
import { createHandler } from "@cloudplane/handlers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lockDataDir } from "../src/data-dir-lock.js";
import { admin, provisioned, startLocalProcess } from "./local-process.js";

const tableCounts = async (database: CloudplaneDatabase) =>
  (
    await selectRows<{ accounts: number; users: number; tokens: number }>(
      database.db,
      sql`select (select count(*)::int from ${accounts}) as accounts, (select count(*)::int from ${users}) as users, (select count(*)::int from ${apiTokens}) as tokens`,
    )
  )[0];

describe.each(engines())("cloudplane-admin provision on %s", (engine) => {
  /** The settings that point the command at this engine's database. */
  let env: Record<string, string>;
  let dataDir: string | undefined;
  let postgres: TestDatabase | undefined;
  /** The database, opened once the command has run (a PGlite directory is one process's at a time). */
  let database: CloudplaneDatabase | undefined;
  let first: ReturnType<typeof provisioned>;

  beforeAll(async () => {
    if (engine === "pglite") {
      dataDir = await mkdtemp(join(tmpdir(), "cloudplane-provision-"));
      env = { DATA_DIR: dataDir };
    } else {
      // A database with nothing in it, not even the migrations: the command applies them.
      postgres = await createTestDatabase({ engine: "postgres", migrate: false });
      env = { DATABASE_URL: postgres.url! };
    }
    first = provisioned(await admin(["provision", "--name", " Acme Ops ", "--email", "ops@acme.example"], env));
  });

  afterAll(async () => {
    if (dataDir) await database?.close();
    await postgres?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  async function open(): Promise<CloudplaneDatabase> {
    database ??= postgres ?? (await createDatabase({ dataDir: dataDir! }));
    return database;
  }

  /** Closes this process's PGlite on the directory before the command opens it: one process at a time. */
  async function release(): Promise<void> {
    if (!dataDir || !database) return;
    await database.close();
    database = undefined;
  }

  it("migrates an empty database and creates the account, its Administrator and a token kept only as its hash", async () => {
    expect(first).toMatchObject({ name: "Acme Ops", email: "ops@acme.example" });
    const db = (await open()).db;
    expect(await tableCounts(await open())).toEqual({ accounts: 1, users: 1, tokens: 1 });
    const [user] = await selectRows(db, sql`select account_id, name, email, role_id, deleted from ${users} where id = ${first.userId}`);
    expect(user).toEqual({ account_id: first.accountId, name: "ops", email: "ops@acme.example", role_id: 1, deleted: false });
    const [token] = await selectRows(db, sql`select * from ${apiTokens} where id = ${first.tokenId}`);
    expect(token!.token_hash).toBe(await hashToken(first.token));
    expect(JSON.stringify(token)).not.toContain(first.token);
  });

  it("the printed token calls the API through @cloudplane/client on the real handler, as the account's Administrator", async () => {
    const db = (await open()).db;
    const handler = createHandler({ db, secretsKey: await importSecretsKey(generateSecretsKey()), responseValidation: true });
    const client = createClient({ apiKey: first.token, baseUrl: "http://api.test", fetch: (input, init) => handler(new Request(input, init)) });

    const tokens = await client.iam.tokens.list(first.accountId);
    expect(tokens).toEqual([
      expect.objectContaining({
        id: first.tokenId,
        name: "provisioned",
        exp_date: null,
        deleted: false,
        client_user: { role: { id: 1, name: "Administrators" }, deleted: false, user_id: first.userId, user_name: "ops", user_email: "ops@acme.example", client_id: first.accountId },
      }),
    ]);
    const account = await client.iam.account.get();
    expect(account).toMatchObject({ id: first.accountId, companyName: "Acme Ops", currentUser: first.userId, has_active_admin: true });

    // An Administrator's token may issue the account's next tokens.
    const next = await client.iam.tokens.create(first.accountId, { name: "ci" });
    expect((await client.iam.tokens.list(first.accountId)).map((token) => token.id)).toEqual([first.tokenId, next.id]);
  });

  it("loads the platform's catalog, so that the new account uses every area from its first call, and gives it a default project", async () => {
    const db = (await open()).db;
    const handler = createHandler({ db, secretsKey: await importSecretsKey(generateSecretsKey()), responseValidation: true });
    const client = createClient({ apiKey: first.token, baseUrl: "http://api.test", fetch: (input, init) => handler(new Request(input, init)) });
    const catalog = platformCatalog();

    // An edge app from a public template (it needs an edge plan and the template's platform binary).
    const publicTemplate = catalog.edgeTemplates.find((template) => template.accountId === null)!;
    const app = await client.edge.apps.create({ name: "first-app", template: publicTemplate.id, status: 1 });
    expect(app).toMatchObject({ name: "first-app", template: publicTemplate.id, status: 1 });
    expect((await client.edge.templates.list()).total).toBe(catalog.edgeTemplates.length);
    expect((await client.cdn.shieldingPops.list()).total).toBe(catalog.shieldingPops.length);
    expect((await client.cloud.inference.models.list()).total).toBe(catalog.inferenceModels.length);
    // The account's default project, where its GPU images go: none yet, in any region of the catalog.
    const [project] = await selectRows<{ id: number; name: string }>(db, sql`select id, name from ${cloudProjects} where account_id = ${first.accountId}`);
    expect(project).toEqual({ id: expect.any(Number), name: "default" });
    const region = catalog.cloudRegions[0]!;
    const images = await client.cloud.gpu.images.list(project!.id, region.id);
    expect([images.items, images.total]).toEqual([[], 0]);
  });

  it("runs the reference's example of creating an edge app on the new account as it is written: its template is a public one", async () => {
    const db = (await open()).db;
    const handler = createHandler({ db, secretsKey: await importSecretsKey(generateSecretsKey()), responseValidation: true });
    const client = createClient({ apiKey: first.token, baseUrl: "http://api.test", fetch: (input, init) => handler(new Request(input, init)) });
    const example = routeExample("edge.createApp")!;
    const body = example.body as Parameters<typeof client.edge.apps.create>[0];
    const app = await client.edge.apps.create(body);
    const { id: _id, url: _url, ...expected } = example.response as Record<string, unknown>;
    const { id: _made, url: _at, networks: _networks, upgradeable_to: _upgrade, plan_id: _planId, plan: _plan, debug_until: _debug, ...shown } = app;
    const { networks: _n, upgradeable_to: _u, plan_id: _p, plan: _pl, debug_until: _d, ...comparable } = expected;
    expect(shown).toEqual(comparable);
  });

  it("provisions a second account beside the first, and refuses an email that is taken, changing nothing", async () => {
    await release();
    const second = provisioned(await admin(["provision", "--name", "Globex", "--email", "admin@globex.example", "--user-name", "Hana"], env));
    expect(second.accountId).not.toBe(first.accountId);
    const taken = await admin(["provision", "--name", "Again", "--email", "ops@acme.example"], env);
    expect(taken).toEqual({ code: 1, stdout: "", stderr: "cloudplane-admin: A user with the email ops@acme.example exists already; each user belongs to one account.\n" });
    const counts = await tableCounts(await open());
    // The first account made a second token through the API in the test before.
    expect(counts).toEqual({ accounts: 2, users: 2, tokens: 3 });
    // The catalog is loaded once: provisioning again adds none of its rows twice.
    const [plans] = await selectRows<{ count: number }>((await open()).db, sql`select count(*)::int as count from ${edgePlans}`);
    expect(plans!.count).toBe(platformCatalog().edgePlans.length);
  });

  it("pnpm start on the provisioned database says it has accounts of its own and prints no demo key, which answers 401 there", async () => {
    await release();
    const app = await startLocalProcess(
      postgres ? { DATABASE_URL: postgres.url!, CLOUDPLANE_SECRETS_KEY: postgres.secretsKeyBase64 } : { DATA_DIR: dataDir! },
    );
    try {
      expect(app.headline).not.toContain("demo data");
      expect(app.stdout()).toContain("Accounts:       this database's own, without the demo data: call with a token `pnpm provision` printed");
      expect(app.stdout()).not.toContain("Admin API key");
      const demoKey = demoToken(1, "role-1-active").plaintext;
      expect(app.stdout()).not.toContain(demoKey);
      const features = (token: string) => fetch(`${app.url}/cdn/clients/me/features`, { headers: { authorization: `apikey ${token}` } });
      expect((await features(first.token)).status).toBe(200);
      expect((await features(demoKey)).status).toBe(401);
    } finally {
      expect(await app.stop("SIGTERM")).toBe(0);
    }
  });

  it.each([
    [["provision", "--name", "Acme"], "provision needs --name and --email."],
    [["provision", "--name", "", "--email", "x@y.example"], "The account name must be 1 to 255 characters."],
    [["provision", "--name", "Acme", "--email", "not-an-email"], "The email must be an address such as ops@example.com."],
    [["provision", "--name", "Acme", "--email", "x@y.example", "--plan", "gold"], "Unknown option '--plan'"],
    [["deprovision"], 'Unknown command "deprovision".'],
  ])("%j exits 2 with what is wrong and the usage, touching no database", async (args, message) => {
    // Nothing listens on port 1, and the folder is never made: reaching either would fail otherwise.
    const neverMade = join(tmpdir(), `cloudplane-provision-never-made-${process.pid}`);
    const run = await admin(args, engine === "pglite" ? { DATA_DIR: neverMade } : { DATABASE_URL: "postgres://nobody@127.0.0.1:1/none" });
    expect(run.code).toBe(2);
    expect(existsSync(neverMade)).toBe(false);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(message);
    expect(run.stderr).toContain("Usage: cloudplane-admin provision --name <account name> --email <first user's email>");
  });
});

describe("cloudplane-admin provision on a PGlite directory in use", () => {
  it("is refused while another process holds the directory, which stays untouched", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "cloudplane-provision-locked-"));
    const unlock = await lockDataDir(dataDir);
    try {
      const run = await admin(["provision", "--name", "Acme", "--email", "ops@acme.example"], { DATA_DIR: dataDir });
      expect(run.code).toBe(1);
      expect(run.stdout).toBe("");
      expect(existsSync(join(dataDir, "pglite"))).toBe(false);
      expect(run.stderr).toBe(`cloudplane-admin: Another cloudplane process (pid ${process.pid}) is using the data directory ${dataDir}: stop it, or set DATA_DIR to another folder.\n`);
    } finally {
      await unlock();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});


// Registered only when there is a PostgreSQL server to run on, so that no test shows as skipped.
if (process.env.DATABASE_URL)
  describe("pnpm start on PostgreSQL without CLOUDPLANE_SECRETS_KEY", () => {
    it("refuses to start, says what to do, and writes no key file", async () => {
      const dataDir = await mkdtemp(join(tmpdir(), "cloudplane-no-key-"));
      const database = await createTestDatabase({ engine: "postgres" });
      try {
        const start = startLocalProcess({ DATA_DIR: dataDir, DATABASE_URL: database.url! });
        await expect(start).rejects.toThrow(/exited \(1\) before it was ready[\s\S]*cloudplane could not start: CLOUDPLANE_SECRETS_KEY is not set\. On PostgreSQL, give the key/);
        await expect(start).rejects.toThrow(/Make one with: node -e/);
        expect(await readdir(dataDir)).toEqual([]);
      } finally {
        await database.close();
        await rm(dataDir, { recursive: true, force: true });
      }
    });
  });
