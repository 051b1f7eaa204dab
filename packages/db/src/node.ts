/**
 * @cloudplane/db/node: helpers that need Node's file system, kept out of the main entry so that it
 * bundles for Cloudflare Workers.
 */
import { randomUUID } from "node:crypto";
import { chmod, link, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { generateSecretsKey } from "./crypto.js";

/** The file in a data directory that keeps the local secrets key. */
export const LOCAL_SECRETS_KEY_FILE = "secrets.key";

function errorCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error ? String(error.code) : undefined;
}

/**
 * The base64 secrets key kept in `<dataDir>/secrets.key`, made (readable by its owner only) the first
 * time. For local runs without CLOUDPLANE_SECRETS_KEY: losing the file makes stored secrets unreadable.
 */
export async function loadOrCreateLocalSecretsKey(dataDir: string): Promise<string> {
  const path = join(dataDir, LOCAL_SECRETS_KEY_FILE);
  try {
    return (await readFile(path, "utf8")).trim();
  } catch (error) {
    if (errorCode(error) !== "ENOENT") throw error;
  }
  await mkdir(dataDir, { recursive: true });
  const key = generateSecretsKey();
  // Written whole into a file of this start's own, then linked into place in one step: no start ever
  // reads a key file that is only partly written, and if another start linked its key first, the link
  // fails and theirs is kept.
  const draft = `${path}.${randomUUID()}.tmp`;
  try {
    await writeFile(draft, `${key}\n`, { mode: 0o600, flag: "wx" });
    await chmod(draft, 0o600);
    await link(draft, path);
    return key;
  } catch (error) {
    if (errorCode(error) !== "EEXIST") throw error;
    return (await readFile(path, "utf8")).trim();
  } finally {
    await rm(draft, { force: true });
  }
}
