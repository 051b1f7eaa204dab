/**
 * Tests of the Node-only helpers: the local secrets key file is made once, owner-readable only, and
 * read back on every later start.
 */
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importSecretsKey } from "./crypto.js";
import { LOCAL_SECRETS_KEY_FILE, loadOrCreateLocalSecretsKey } from "./node.js";

describe("loadOrCreateLocalSecretsKey", () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "cloudplane-key-"));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("makes a key file readable by its owner only, then keeps using it", async () => {
    const dataDir = join(root, "nested", "data");
    const key = await loadOrCreateLocalSecretsKey(dataDir);
    await expect(importSecretsKey(key)).resolves.toBeDefined();
    const file = join(dataDir, LOCAL_SECRETS_KEY_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await readFile(file, "utf8")).trim()).toBe(key);
    expect(await loadOrCreateLocalSecretsKey(dataDir)).toBe(key);
  });

  it("makes one key when several starts race for it, and no start reads a key that is only partly written", async () => {
    // Many rounds of many starts: a start that finds the file made but not yet written would answer an
    // empty key (two keys in a round).
    for (let round = 0; round < 150; round++) {
      const dataDir = join(root, "racing", String(round));
      const keys = await Promise.all(Array.from({ length: 8 }, () => loadOrCreateLocalSecretsKey(dataDir)));
      expect(new Set(keys).size).toBe(1);
      await expect(importSecretsKey(keys[0]!)).resolves.toBeDefined();
      expect((await readFile(join(dataDir, LOCAL_SECRETS_KEY_FILE), "utf8")).trim()).toBe(keys[0]);
      // Nothing left behind beside the key.
      expect(await readdir(dataDir)).toEqual([LOCAL_SECRETS_KEY_FILE]);
    }
    // About 7,000 file system calls: under half a second on a quiet machine, but a CI run whose other
    // suites keep the disk busy once held them past the 30 s default. The rounds are what the test is for,
    // so it gets time for them rather than fewer.
  }, 180_000);

  it("reads a key that was put there by hand", async () => {
    const dataDir = join(root, "given");
    await loadOrCreateLocalSecretsKey(dataDir);
    const given = btoa(String.fromCharCode(...new Uint8Array(32).fill(7)));
    await writeFile(join(dataDir, LOCAL_SECRETS_KEY_FILE), `${given}\n`);
    expect(await loadOrCreateLocalSecretsKey(dataDir)).toBe(given);
  });
});
