/**
 * Tests of `createDatabase`: the engine chosen by the options, PGlite kept in a data directory across
 * restarts, and a PostgreSQL URL that cannot be reached failing fast.
 */
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createDatabase } from "./database.js";
import { importSecretsKey, generateSecretsKey } from "./crypto.js";
import { loadDemoData } from "./demo.js";
import { applyMigrations, cloudplaneMigrations } from "./migrate.js";
import { migrations } from "./migrations.generated.js";
import { accounts, edgeSecrets } from "./schema/index.js";

describe("createDatabase with PGlite", () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "cloudplane-db-"));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("keeps the data in the data directory across restarts, and migrates it only once", async () => {
    const secretsKey = await importSecretsKey(generateSecretsKey());
    // A directory that does not exist yet, parents included.
    const dataDir = join(root, "nested", "data");
    const first = await createDatabase({ dataDir });
    expect(first.engine).toBe("pglite");
    await loadDemoData(first.db, { secretsKey });
    const [created] = await first.db.insert(edgeSecrets).values({ accountId: 1, name: "made-before-restart" }).returning();
    await first.close();
    // PGlite's files stay in their own folder, so the data directory can hold the secrets key too.
    expect((await readdir(dataDir)).sort()).toEqual(["pglite"]);

    const second = await createDatabase({ dataDir });
    try {
      const [kept] = await second.db.select().from(edgeSecrets).where(eq(edgeSecrets.id, created?.id ?? 0));
      expect(kept?.name).toBe("made-before-restart");
      expect(await second.db.select().from(accounts)).toHaveLength(2);
      expect(await applyMigrations(second.db)).toEqual([]);
      expect(await second.db.select().from(cloudplaneMigrations)).toHaveLength(migrations.length);
      const again = await loadDemoData(second.db, { secretsKey });
      expect(Object.values(again.inserted).reduce((sum, count) => sum + count, 0)).toBe(0);
    } finally {
      await second.close();
    }
  });

  it("runs in memory when no directory is given", async () => {
    const database = await createDatabase();
    try {
      expect(database.engine).toBe("pglite");
      expect(await database.db.select().from(accounts)).toEqual([]);
    } finally {
      await database.close();
    }
  });
});

describe("createDatabase with a PostgreSQL URL", () => {
  it("fails within the connect timeout when the server cannot be reached, without the password in the error", async () => {
    const started = Date.now();
    const error: unknown = await createDatabase({ url: "postgres://cloudplane:hunter2-password@127.0.0.1:1/none", connectTimeout: 2 }).then(
      async (database) => {
        await database.close();
        return undefined;
      },
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(Error);
    expect(JSON.stringify(error, Object.getOwnPropertyNames(error))).not.toContain("hunter2-password");
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
