/**
 * What the Object storage routes share: the account's storage named by the path (never a deleted one),
 * the grace period of deleted storages, the credentials they generate, and the fields both APIs show.
 */
import { locationAddress, STORAGE_RESTORE_DAYS, type Storage } from "@cloudplane/contract";
import { and, asc, count, type Database, desc, eq, gte, isNotNull, isNull, lt, type PgColumn, schema, type SQL } from "@cloudplane/db";
import { notFound } from "../errors.js";
import { isoTime } from "../format.js";
import { listingCount, pageAndCount } from "../page.js";
import { randomBytes } from "../random.js";

const { storages } = schema;

export type StorageRow = typeof storages.$inferSelect;

/** The time before which a deleted storage is past its grace period: gone for good. */
export function graceStart(now = new Date()): Date {
  return new Date(now.getTime() - STORAGE_RESTORE_DAYS * 86_400_000);
}

/** How a storage listing is read: its rows, its order, and whether they are every live storage of some types. */
export interface StorageListing {
  accountId: number;
  where: SQL;
  /** The column the listing sorts by (the id breaks ties), and its direction. */
  order: { column: PgColumn; descending: boolean };
  /**
   * Set when the listing shows every storage of the account that is not deleted, of these types: its count is
   * then the one the database keeps (listing_counts), and a far page is read from the listing's other end.
   */
  everyLive?: readonly Storage["type"][];
}

/**
 * The page of a storage listing, in its order, and the listing's count: for an unfiltered listing the count
 * of live storages the database keeps per type (one row read, not every storage of the account), otherwise
 * counted from the rows.
 */
export function storagePages(db: Database): (listing: StorageListing, page: { limit: number; offset: number }) => Promise<{ rows: StorageRow[]; total: number }> {
  const liveCount = listingCount(db, "storages");
  return ({ accountId, where, order, everyLive }, page) =>
    pageAndCount(
      page,
      async (reversed, limit, offset) => {
        const direction = order.descending !== reversed ? desc : asc;
        const terms = order.column === storages.id ? [direction(storages.id)] : [direction(order.column), (reversed ? desc : asc)(storages.id)];
        const rows = await db.select().from(storages).where(where).orderBy(...terms).limit(limit).offset(offset);
        return reversed ? rows.reverse() : rows;
      },
      everyLive
        ? { kept: async () => (await Promise.all(everyLive.map((type) => liveCount(accountId, type)))).reduce((sum, rows) => sum + rows, 0) }
        : { counted: async () => (await db.select({ total: count() }).from(storages).where(where))[0]?.total ?? 0 },
    );
}

/** The account's storages that are not deleted. */
export function liveStorages(accountId: number): SQL {
  return and(eq(storages.accountId, accountId), isNull(storages.deleted))!;
}

/** The account's deleted storages still within their grace period. */
export function restorableStorages(accountId: number): SQL {
  return and(eq(storages.accountId, accountId), isNotNull(storages.deleted), gte(storages.deleted, graceStart()))!;
}

/** The account's storage `id`, not deleted, of `type` if given; or 404. */
export async function storageOf(db: Pick<Database, "select">, accountId: number, id: number, type?: "s3" | "sftp"): Promise<StorageRow> {
  const conditions = [liveStorages(accountId), eq(storages.id, id)];
  if (type) conditions.push(eq(storages.type, type));
  const [row] = await db
    .select()
    .from(storages)
    .where(and(...conditions));
  if (!row) throw notFound(type === "sftp" ? `SFTP storage ${id}` : type === "s3" ? `Object storage ${id}` : `Storage ${id}`);
  return row;
}

/** Deletes for good the account's storages deleted longer ago than the grace period, with everything of theirs. */
export async function purgeExpiredStorages(db: Pick<Database, "delete">, accountId: number): Promise<void> {
  await db.delete(storages).where(and(eq(storages.accountId, accountId), isNotNull(storages.deleted), lt(storages.deleted, graceStart())));
}

const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const SECRET_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** `length` characters of `alphabet`, from the system's cryptographic random source (no bias: 256 is rejected past a multiple). */
export function randomText(length: number, alphabet: string): string {
  const limit = 256 - (256 % alphabet.length);
  let text = "";
  while (text.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < limit && text.length < length) text += alphabet[byte % alphabet.length];
    }
  }
  return text;
}

/** A new access key id (`CP` and 18 upper-case letters and digits) and its secret (40 letters and digits). */
export function newAccessKeyPair(): { accessKey: string; secretKey: string } {
  return { accessKey: `CP${randomText(18, ALPHANUMERIC)}`, secretKey: randomText(40, SECRET_ALPHABET) };
}

/** A new SFTP password: 20 letters and digits. */
export function newSftpPassword(): string {
  return randomText(20, SECRET_ALPHABET);
}

/** The fields every storage of the current API shows. */
export function storageV4Fields(row: StorageRow) {
  return {
    id: row.id,
    name: row.name,
    full_name: `${row.accountId}-${row.name}`,
    location_name: row.location,
    address: locationAddress(row.location),
    created_at: isoTime(row.created),
    provisioning_status: row.deleted ? ("deleted" as const) : ("active" as const),
  };
}
