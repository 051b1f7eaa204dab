/**
 * PGlite images: a database made once (migrated, seeded), dumped as a tar of its data directory, and
 * started again from that tar as often as needed, in under a second instead of the seconds PGlite's
 * initdb, the migrations and the seed take. `@cloudplane/db/testing` makes one per test run
 * (`prepareTestDatabases`); `@cloudplane/testing` one per preset, cached on disk.
 */
import type { PGlite } from "@electric-sql/pglite";
import { PGLITE_CLIENT_OPTIONS } from "./database.js";

/**
 * A new, empty PGlite to make an image in. Its cluster has WAL segments of 1 MB instead of 16 MB and
 * keeps no spare ones: PostgreSQL needs the segment of the last checkpoint to start, and every start
 * unpacks all of them (16 MB of a 30 MB tar, otherwise).
 */
export async function createPgliteForImage(): Promise<PGlite> {
  const { PGlite } = await import("@electric-sql/pglite");
  return PGlite.create({
    initDbStartParams: ["--wal-segsize=1"],
    startParams: [...PGlite.defaultStartParams, "-c", "min_wal_size=2MB", "-c", "wal_recycle=off"],
    ...PGLITE_CLIENT_OPTIONS,
  });
}

/**
 * The image of `client` (made by `createPgliteForImage`) as it is now: checkpointed, dumped, and without
 * the files of the template databases (template0, template1). A database started from an image only
 * ever uses the database it starts in, and a third less to unpack makes every start faster.
 */
export async function dumpPgliteImage(client: PGlite): Promise<Blob> {
  await client.exec("checkpoint");
  const { rows } = await client.query<{ oid: number }>("select oid from pg_database where datname <> current_database()");
  const dropped = new Set(rows.map((row) => String(row.oid)));
  const bytes = new Uint8Array(await (await client.dumpDataDir("none")).arrayBuffer());
  const decoder = new TextDecoder();
  const field = (offset: number, length: number) => decoder.decode(bytes.subarray(offset, offset + length)).replace(/\0.*$/s, "");
  const kept: Uint8Array<ArrayBuffer>[] = [];
  let offset = 0;
  while (offset + 512 <= bytes.length) {
    const name = field(offset, 100);
    if (name === "") break;
    const size = Number.parseInt(field(offset + 124, 12).trim() || "0", 8);
    const end = offset + 512 + Math.ceil(size / 512) * 512;
    // Entries are `<dir>/base/<oid>/<file>`; the folders themselves stay, empty.
    const match = /(?:^|\/)base\/(\d+)\/./.exec(name);
    if (!match || !dropped.has(match[1]!)) kept.push(bytes.subarray(offset, end));
    offset = end;
  }
  kept.push(new Uint8Array(1024));
  const image = new Uint8Array(kept.reduce((size, part) => size + part.length, 0));
  offset = 0;
  for (const part of kept) {
    image.set(part, offset);
    offset += part.length;
  }
  return pgliteImage(image);
}

/**
 * A new PGlite holding the image's data, started with `PGLITE_CLIENT_OPTIONS` (give it to `pgliteDatabase`).
 * - PostgreSQL starts on a copied data directory by recovering it, and during recovery arms a timer to
 *   log its progress every 10 s that single-user PGlite never disarms: it would keep a test process (a
 *   jest worker, a script) from ever exiting. Hence no such log.
 * - Shared buffers of 16 MB instead of PGlite's 128 MB: a test's data fits many times over (and the
 *   rest is in memory too), and a start no longer sets up 128 MB of buffers, a third of its time.
 * - Give it the image as `pgliteImage` makes it: PGlite reads the tar with `arrayBuffer()`, which a
 *   Blob of Node's answers with a copy built from chunks, the slowest part of a start.
 */
export async function startPgliteFromImage(tarball: Blob): Promise<PGlite> {
  const { PGlite } = await import("@electric-sql/pglite");
  return PGlite.create({
    loadDataDir: tarball,
    ...PGLITE_CLIENT_OPTIONS,
    startParams: [...PGlite.defaultStartParams, "-c", "log_startup_progress_interval=0", "-c", "shared_buffers=16MB"],
  });
}

/**
 * An image's tar as a Blob whose `arrayBuffer()` answers the bytes themselves instead of a copy. Node's
 * Blob builds that copy from chunks: 230 ms for 40 MB on these machines (Node 20, 22 and 24), a third of
 * a start from the image, every start; and making a Node Blob of the bytes at all copies them too (280 ms
 * for the kit's 50 MB image, in every process that reads it from the disk). PGlite reads the tar once,
 * whole, and only reads it (each file is copied out of it), so one image starts any number of databases,
 * none of which can change it. The rest of the Blob (its stream, text, bytes and slices) is a Blob of the
 * same bytes, made the first time one of them is asked for.
 */
export function pgliteImage(bytes: Uint8Array<ArrayBuffer>): Blob {
  return new ImageBlob(bytes);
}

class ImageBlob extends Blob {
  readonly #bytes: Uint8Array<ArrayBuffer>;
  #blob: Blob | undefined;

  constructor(bytes: Uint8Array<ArrayBuffer>) {
    super();
    this.#bytes = bytes;
  }

  #copy(): Blob {
    return (this.#blob ??= new Blob([this.#bytes]));
  }

  override get size(): number {
    return this.#bytes.byteLength;
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = this.#bytes;
    return Promise.resolve(bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes.buffer : bytes.slice().buffer);
  }

  override bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return this.#copy().bytes();
  }

  override slice(start?: number, end?: number, contentType?: string): Blob {
    return this.#copy().slice(start, end, contentType);
  }

  override stream(): ReadableStream<Uint8Array<ArrayBuffer>> {
    return this.#copy().stream();
  }

  override text(): Promise<string> {
    return this.#copy().text();
  }
}
