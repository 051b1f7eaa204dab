/**
 * The database image every test platform starts from: PGlite migrated, seeded with a preset and
 * given the reset machinery (snapshot.ts) once, then dumped. Kept in memory for the process and on
 * disk between processes, since test runners start a fresh process (or module registry) per file.
 */
import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { applyMigrations, generateSecretsKey, importSecretsKey, migrations, pgliteDatabase } from "@cloudplane/db";
import { createPgliteForImage, dumpPgliteImage, pgliteImage, startPgliteFromImage } from "@cloudplane/db/testing";
import { PRESETS, type Preset, type SeededAdministrator } from "./presets.js";
import { installSnapshot } from "./snapshot.js";

/**
 * Bumped when what an image holds changes in a way its cache key would not show (2: the empty preset's
 * account has its "default" project; 3: WAL segments of 1 MB).
 */
const IMAGE_FORMAT = 3;

export interface Image {
  /** Its cache key: the migrations, the preset and this format. */
  key: string;
  preset: Preset;
  /** PGlite's data directory as a tar (`loadDataDir`). */
  tarball: Blob;
  /** The key the preset's secrets were encrypted with (base64): test data only. */
  secretsKeyBase64: string;
  /** The account and token the platform's client calls as. */
  administrator: SeededAdministrator;
}

/** What is kept beside the tarball on disk. */
interface ImageMetadata {
  format: number;
  key: string;
  preset: Preset;
  secretsKeyBase64: string;
  administrator: SeededAdministrator;
}

/** Where images are cached between processes, unless the caller says otherwise. */
export function defaultCacheDirectory(): string {
  return resolve("node_modules", ".cache", "cloudplane-testing");
}

/** `<preset>-<hash>`: the hash of the migrations, the preset's data and this format; a file name on disk. */
async function imageKey(preset: Preset): Promise<string> {
  const hash = createHash("sha256");
  hash.update(JSON.stringify({ format: IMAGE_FORMAT, preset, migrations: migrations.map((migration) => [migration.name, migration.hash]) }));
  hash.update(await PRESETS[preset].fingerprint());
  return `${preset}-${hash.digest("hex").slice(0, 32)}`;
}

async function buildImage(preset: Preset, key: string): Promise<Image> {
  const client = await createPgliteForImage();
  try {
    const db = await pgliteDatabase(client);
    await applyMigrations(db);
    const secretsKeyBase64 = generateSecretsKey();
    const administrator = await PRESETS[preset].seed(db, await importSecretsKey(secretsKeyBase64));
    await installSnapshot(client);
    const tarball = await dumpPgliteImage(client);
    return { key, preset, tarball, secretsKeyBase64, administrator };
  } finally {
    await client.close();
  }
}

async function readCached(directory: string, key: string): Promise<Image | undefined> {
  try {
    const metadata = JSON.parse(await readFile(join(directory, `${key}.json`), "utf8")) as ImageMetadata;
    if (metadata.format !== IMAGE_FORMAT || metadata.key !== key) return undefined;
    const tarball = pgliteImage(await readFile(join(directory, `${key}.tar`)));
    return { key, preset: metadata.preset, tarball, secretsKeyBase64: metadata.secretsKeyBase64, administrator: metadata.administrator };
  } catch {
    return undefined;
  }
}

/** Written under temporary names and renamed, so that test processes starting at once never read half a file. */
async function writeCached(directory: string, image: Image): Promise<void> {
  await mkdir(directory, { recursive: true });
  const suffix = `.${process.pid}.${Math.random().toString(36).slice(2)}.partial`;
  const metadata: ImageMetadata = {
    format: IMAGE_FORMAT,
    key: image.key,
    preset: image.preset,
    secretsKeyBase64: image.secretsKeyBase64,
    administrator: image.administrator,
  };
  await writeFile(join(directory, `${image.key}.tar${suffix}`), new Uint8Array(await image.tarball.arrayBuffer()));
  await writeFile(join(directory, `${image.key}.json${suffix}`), JSON.stringify(metadata));
  // The tarball first: metadata present means the tarball is complete.
  await rename(join(directory, `${image.key}.tar${suffix}`), join(directory, `${image.key}.tar`));
  await rename(join(directory, `${image.key}.json${suffix}`), join(directory, `${image.key}.json`));
  // Images of the preset made before the migrations or the data last changed are of no more use.
  for (const file of await readdir(directory))
    if (file.startsWith(`${image.preset}-`) && !file.startsWith(`${image.key}.`) && !file.endsWith(".partial"))
      await rm(join(directory, file), { force: true });
}

const images = new Map<Preset, Promise<Image>>();

/**
 * The image of `preset`: from this process's memory, else from the disk cache (`cacheDirectory`,
 * false for none), else built (and cached). A failure is not remembered, so the next call tries again.
 */
export function imageOf(preset: Preset, cacheDirectory: string | false): Promise<Image> {
  // By preset: what a preset loads does not change within a process, and so neither does its key.
  let image = images.get(preset);
  if (!image) {
    image = (async () => {
      const key = await imageKey(preset);
      const cached = cacheDirectory ? await readCached(cacheDirectory, key) : undefined;
      if (cached) return cached;
      const built = await buildImage(preset, key);
      // A cache that cannot be written (a read-only folder) only costs the next process the build.
      if (cacheDirectory) await writeCached(cacheDirectory, built).catch(() => undefined);
      return built;
    })();
    images.set(preset, image);
    image.catch(() => images.delete(preset));
  }
  return image;
}

/**
 * Databases of closed platforms, put back to the image's state, by image: the next platform of the
 * same image starts on one of them at the cost of a reset instead of a new PGlite. At most
 * `POOL_SIZE` per image are kept (each holds its PGlite's memory).
 */
const POOL_SIZE = 2;
const pools = new Map<string, PGlite[]>();

/** A database in the image's state: a pooled one if there is one, else a new one. */
export async function takeDatabase(image: Image): Promise<PGlite> {
  const pooled = pools.get(image.key)?.pop();
  return pooled ?? startPgliteFromImage(image.tarball);
}

/** Keeps a database that is in the image's state for the next platform; false when the pool is full. */
export function poolDatabase(image: Image, client: PGlite): boolean {
  const pool = pools.get(image.key) ?? [];
  if (pool.length >= POOL_SIZE) return false;
  pool.push(client);
  pools.set(image.key, pool);
  return true;
}
