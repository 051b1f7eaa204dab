/**
 * Tests of a prepared test run (`prepareTestDatabases`): a database started from the run's PGlite image or
 * copied from its PostgreSQL template holds what a database migrated and seeded on its own holds, its
 * secrets open with the key it reports, and the teardown leaves neither the image nor the template behind.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { decryptSecret } from "./crypto.js";
import { demoFixture } from "./demo-fixture.js";
import { createTestDatabase, engines, pgliteImage, prepareTestDatabases, selectRows, type TestDatabase } from "./testing.js";

const RUN_IMAGES = "CLOUDPLANE_TEST_DATABASE_IMAGES";

/** Rows of every table of the public schema, and every sequence's position: what a test can tell apart. */
async function contents(database: TestDatabase): Promise<{ rows: Record<string, number>; sequences: Record<string, string | null> }> {
  const tables = await selectRows<{ name: string }>(
    database.db,
    sql`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind in ('r', 'p') order by 1`,
  );
  const rows: Record<string, number> = {};
  for (const { name } of tables) {
    const [row] = await selectRows<{ count: number }>(database.db, sql`select count(*)::int as count from ${sql.identifier(name)}`);
    rows[name] = row!.count;
  }
  const sequences = await selectRows<{ name: string; last: string | null }>(
    database.db,
    sql`select sequencename as name, last_value::text as last from pg_sequences where schemaname = 'public' order by 1`,
  );
  return { rows, sequences: Object.fromEntries(sequences.map(({ name, last }) => [name, last])) };
}

/** A database made as in a run without images: migrated and seeded on its own. */
async function seededAlone(engine: TestDatabase["engine"]): Promise<TestDatabase> {
  const folder = process.env[RUN_IMAGES];
  delete process.env[RUN_IMAGES];
  try {
    return await createTestDatabase({ engine });
  } finally {
    process.env[RUN_IMAGES] = folder;
  }
}

describe("pgliteImage", () => {
  it("answers arrayBuffer() with the bytes themselves, and is those bytes as any Blob", async () => {
    const bytes = new TextEncoder().encode("a tar, as far as this test goes");
    const image = pgliteImage(bytes);
    expect(await image.arrayBuffer()).toBe(bytes.buffer);
    expect(image.size).toBe(bytes.byteLength);
    expect(await image.text()).toBe("a tar, as far as this test goes");
    expect(await image.slice(2, 5).text()).toBe("tar");
    expect(await image.bytes()).toEqual(bytes);
    expect(await image.bytes()).not.toBe(bytes);
    expect(await new Response(image.stream()).text()).toBe("a tar, as far as this test goes");
    // A view into a larger buffer answers a copy of the view alone.
    const view = new Uint8Array(bytes.buffer, 2, 3);
    const answered = await pgliteImage(view).arrayBuffer();
    expect(answered).not.toBe(bytes.buffer);
    expect(new TextDecoder().decode(answered)).toBe("tar");
  });
});

describe("a test run prepared with prepareTestDatabases", () => {
  let teardown: (() => Promise<void>) | undefined;
  let folder: string | undefined;
  let template: string | undefined;
  beforeAll(async () => {
    teardown = await prepareTestDatabases();
    folder = process.env[RUN_IMAGES];
  }, 120_000);
  afterAll(async () => {
    await teardown?.();
  });

  describe.each(engines())("on %s", (engine) => {
    it("starts each database from the run's image, holding what a database seeded on its own holds", async () => {
      const fromImage = await createTestDatabase({ engine });
      const alone = await seededAlone(engine);
      try {
        const made = await contents(fromImage);
        expect(made.rows["accounts"]).toBeGreaterThan(0);
        expect(made).toEqual(await contents(alone));
        // Its secrets open with the key it reports: the run's, not a key of its own.
        const run = JSON.parse(readFileSync(join(folder!, "image.json"), "utf8")) as { secretsKeyBase64: string };
        expect(fromImage.secretsKeyBase64).toBe(run.secretsKeyBase64);
        expect(alone.secretsKeyBase64).not.toBe(run.secretsKeyBase64);
        const [target] = demoFixture.logsUploaderTargets;
        const [row] = await selectRows<{ secret_access_key_encrypted: string }>(
          fromImage.db,
          sql`select secret_access_key_encrypted from logs_uploader_targets where id = ${target!.id}`,
        );
        expect(await decryptSecret(fromImage.secretsKey, row!.secret_access_key_encrypted)).toBe(target!.secretAccessKey);
        if (engine === "postgres") {
          const server = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => undefined });
          try {
            const [copied] = await server<{ template: string }[]>`
              select datname as template from pg_database where datname like ${`cloudplane_template_${process.pid}_%`}`;
            template = copied?.template;
            expect(template).toBeDefined();
          } finally {
            await server.end({ timeout: 5 });
          }
        }
      } finally {
        await fromImage.close();
        await alone.close();
      }
    }, 60_000);

    it("changes in one database stay in it", async () => {
      const first = await createTestDatabase({ engine });
      const second = await createTestDatabase({ engine });
      try {
        const before = (await contents(second)).rows["storage_usage"];
        expect(before).toBeGreaterThan(0);
        await first.db.execute(sql`delete from storage_usage`);
        expect((await contents(first)).rows["storage_usage"]).toBe(0);
        expect((await contents(second)).rows["storage_usage"]).toBe(before);
        // Nor do they reach the image the next database starts from (PGlite reads the image's own bytes).
        const third = await createTestDatabase({ engine });
        try {
          expect((await contents(third)).rows["storage_usage"]).toBe(before);
        } finally {
          await third.close();
        }
      } finally {
        await first.close();
        await second.close();
      }
    }, 60_000);
  });

  it("leaves neither the image nor the template behind once torn down", async () => {
    expect(folder && existsSync(folder)).toBe(true);
    await teardown!();
    teardown = undefined;
    expect(existsSync(folder!)).toBe(false);
    expect(process.env[RUN_IMAGES]).toBeUndefined();
    if (process.env.DATABASE_URL) {
      const server = postgres(process.env.DATABASE_URL, { max: 1, onnotice: () => undefined });
      try {
        expect(template).toBeDefined();
        expect(await server`select 1 from pg_database where datname = ${template!}`).toHaveLength(0);
      } finally {
        await server.end({ timeout: 5 });
      }
    }
  });
});
