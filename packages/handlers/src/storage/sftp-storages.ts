/**
 * SFTP storages at the current paths (listing, details, creation, change, deletion) with their password
 * (encrypted, shown only when generated) and the SSH keys they let in; and the account's SSH keys.
 */
import { storageExpiry, storageSftpStoragesRoutes, storageSshKeysRoutes, type SftpStorage } from "@cloudplane/contract";
import { and, asc, count, desc, type DatabaseTransaction, encryptSecret, eq, ilike, inArray, ne, schema } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { sqlState } from "../database-errors.js";
import { conflict, fieldErrors, addFieldError, invalid, listed, notFound, validationFailed } from "../errors.js";
import { isoTime } from "../format.js";
import { likePattern } from "../like.js";
import { served } from "../served.js";
import type { RequestExtension, RouteDeps } from "../types.js";
import { storageListFilter } from "./object-storages.js";
import { liveStorages, newSftpPassword, storageOf, storagePages, storageV4Fields, type StorageRow } from "./shared.js";

const { storages, storageSshKeys, storageSshKeyLinks } = schema;

type SshKeyRow = typeof storageSshKeys.$inferSelect;

function toSftpStorage(row: StorageRow, sshKeyIds: number[], password?: string): SftpStorage {
  return {
    ...storageV4Fields(row),
    expires: row.expires ? isoTime(row.expires) : "",
    server_alias: row.serverAlias ?? "",
    has_password: row.passwordEncrypted !== null,
    is_http_disabled: row.httpDisabled,
    has_custom_config_file: row.customConfigFile,
    ssh_key_ids: sshKeyIds,
    password: password ?? null,
  };
}

function toSshKey(row: Pick<SshKeyRow, "id" | "name" | "publicKey" | "created">) {
  return { id: row.id, name: row.name, public_key: row.publicKey, created_at: isoTime(row.created) };
}

/** The time an `expires` value (not empty) names, counted from now; 400 on the field when it no longer holds. */
function expiryOf(value: string): Date {
  const expiry = storageExpiry(value, new Date());
  if ("error" in expiry) throw invalid("expires", expiry.error);
  return expiry;
}

export function storageSftpStorages({ db, secretsKey }: RouteDeps) {
  const storagePage = storagePages(db);
  /** The SSH key ids of each storage of `ids`, ascending. */
  async function keysOf(ids: number[]): Promise<Map<number, number[]>> {
    const keys = new Map<number, number[]>(ids.map((id) => [id, []]));
    if (ids.length === 0) return keys;
    const rows = await db
      .select({ storageId: storageSshKeyLinks.storageId, sshKeyId: storageSshKeyLinks.sshKeyId })
      .from(storageSshKeyLinks)
      .where(inArray(storageSshKeyLinks.storageId, ids))
      .orderBy(asc(storageSshKeyLinks.sshKeyId));
    for (const row of rows) keys.get(row.storageId)?.push(row.sshKeyId);
    return keys;
  }

  /** Locks the account's SSH keys `ids` (shared: a delete of one waits), or 400 naming each id it does not have. */
  async function lockKeys(tx: DatabaseTransaction, accountId: number, ids: readonly number[]): Promise<number[]> {
    const wanted = [...new Set(ids)].sort((a, b) => a - b);
    if (wanted.length === 0) return [];
    const found = await tx
      .select({ id: storageSshKeys.id })
      .from(storageSshKeys)
      .where(and(eq(storageSshKeys.accountId, accountId), inArray(storageSshKeys.id, wanted)))
      .orderBy(asc(storageSshKeys.id))
      .for("share");
    const have = new Set(found.map((row) => row.id));
    const errors = fieldErrors();
    ids.forEach((id, index) => {
      if (!have.has(id)) addFieldError(errors, `ssh_key_ids.${index}`, `The account has no SSH key ${id}.`);
    });
    if (Object.keys(errors).length > 0) throw validationFailed(errors);
    return wanted;
  }

  /** 409 when a storage other than `except` has the server alias `alias` (in any account). */
  async function checkAlias(tx: DatabaseTransaction, alias: string, except?: number) {
    const [taken] = await tx
      .select({ id: storages.id })
      .from(storages)
      .where(except === undefined ? eq(storages.serverAlias, alias) : and(eq(storages.serverAlias, alias), ne(storages.id, except)))
      .limit(1);
    if (taken) throw conflict(`The server alias ${alias} is used by another storage.`);
  }

  const sftpRouter = tsr.routerWithMiddleware(served("storage", storageSftpStoragesRoutes))<RequestExtension>({
    listSftpStorages: async ({ query }, { request: { caller } }) => {
      const filter = storageListFilter(caller.accountId, "sftp", query);
      if (!filter) return { status: 200, body: { count: 0, results: [] } };
      const { rows, total } = await storagePage(filter, query);
      const keys = await keysOf(rows.map((row) => row.id));
      return { status: 200, body: { count: total, results: rows.map((row) => toSftpStorage(row, keys.get(row.id) ?? [])) } };
    },

    createSftpStorage: async ({ body }, { request: { caller } }) => {
      const { accountId } = caller;
      const generated = body.password_mode === "auto" ? newSftpPassword() : undefined;
      const password = generated ?? (body.password_mode === "set" ? body.sftp_password : undefined);
      const passwordEncrypted = password === undefined ? null : await encryptSecret(secretsKey, password);
      const alias = body.server_alias ? body.server_alias.toLowerCase() : null;
      try {
        const { row, keyIds } = await db.transaction(async (tx) => {
          const keyIds = await lockKeys(tx, accountId, body.ssh_key_ids ?? []);
          if (alias) await checkAlias(tx, alias);
          const [row] = await tx
            .insert(storages)
            .values({
              accountId,
              name: body.name,
              type: "sftp",
              location: body.location_name,
              expires: body.expires ? expiryOf(body.expires) : null,
              serverAlias: alias,
              passwordEncrypted,
              httpDisabled: body.is_http_disabled ?? false,
              customConfigFile: body.has_custom_config_file ?? false,
            })
            .returning();
          if (keyIds.length > 0) await tx.insert(storageSshKeyLinks).values(keyIds.map((sshKeyId) => ({ accountId, storageId: row!.id, sshKeyId })));
          return { row: row!, keyIds };
        });
        return { status: 201, body: toSftpStorage(row, keyIds, generated) };
      } catch (error) {
        if (sqlState(error) === "23505")
          throw conflict(alias ? `The account already has a storage named ${body.name}, or the server alias ${alias} is used by another storage.` : `The account already has a storage named ${body.name}.`);
        throw error;
      }
    },

    getSftpStorage: async ({ params }, { request: { caller } }) => {
      const row = await storageOf(db, caller.accountId, params.sftp_storage_id, "sftp");
      return { status: 200, body: toSftpStorage(row, (await keysOf([row.id])).get(row.id) ?? []) };
    },

    updateSftpStorage: async ({ params, body }, { request: { caller } }) => {
      const { accountId } = caller;
      const changes: Partial<StorageRow> = {};
      if (body.expires !== undefined) changes.expires = body.expires === "" ? null : expiryOf(body.expires);
      if (body.server_alias !== undefined) changes.serverAlias = body.server_alias === "" ? null : body.server_alias.toLowerCase();
      if (body.is_http_disabled !== undefined) changes.httpDisabled = body.is_http_disabled;
      if (body.has_custom_config_file !== undefined) changes.customConfigFile = body.has_custom_config_file;
      const generated = body.password_mode === "auto" ? newSftpPassword() : undefined;
      if (generated !== undefined) changes.passwordEncrypted = await encryptSecret(secretsKey, generated);
      else if (body.password_mode === "none") changes.passwordEncrypted = null;
      const mine = and(liveStorages(accountId), eq(storages.id, params.sftp_storage_id), eq(storages.type, "sftp"));
      try {
        const { row, keyIds } = await db.transaction(async (tx) => {
          const [current] = await tx.select().from(storages).where(mine).for("update");
          if (!current) throw notFound(`SFTP storage ${params.sftp_storage_id}`);
          let keyIds: number[];
          if (body.ssh_key_ids !== undefined) {
            keyIds = await lockKeys(tx, accountId, body.ssh_key_ids);
            await tx.delete(storageSshKeyLinks).where(eq(storageSshKeyLinks.storageId, current.id));
            if (keyIds.length > 0) await tx.insert(storageSshKeyLinks).values(keyIds.map((sshKeyId) => ({ accountId, storageId: current.id, sshKeyId })));
          } else {
            const links = await tx
              .select({ id: storageSshKeyLinks.sshKeyId })
              .from(storageSshKeyLinks)
              .where(eq(storageSshKeyLinks.storageId, current.id))
              .orderBy(asc(storageSshKeyLinks.sshKeyId));
            keyIds = links.map((link) => link.id);
          }
          if (changes.serverAlias) await checkAlias(tx, changes.serverAlias, current.id);
          if (Object.keys(changes).length === 0) return { row: current, keyIds };
          const [updated] = await tx.update(storages).set(changes).where(mine).returning();
          return { row: updated!, keyIds };
        });
        return { status: 200, body: toSftpStorage(row, keyIds, generated) };
      } catch (error) {
        if (sqlState(error) === "23505") throw conflict(`The server alias ${changes.serverAlias} is used by another storage.`);
        throw error;
      }
    },

    deleteSftpStorage: async ({ params }, { request: { caller } }) => {
      // For good, with its links to SSH keys (a foreign key that cascades); the keys stay.
      const [deleted] = await db
        .delete(storages)
        .where(and(liveStorages(caller.accountId), eq(storages.id, params.sftp_storage_id), eq(storages.type, "sftp")))
        .returning({ id: storages.id });
      if (!deleted) throw notFound(`SFTP storage ${params.sftp_storage_id}`);
      return { status: 204, body: undefined };
    },
  });

  const keysRouter = tsr.routerWithMiddleware(served("storage", storageSshKeysRoutes))<RequestExtension>({
    listSshKeys: async ({ query }, { request: { caller } }) => {
      const where = and(eq(storageSshKeys.accountId, caller.accountId), query.name ? ilike(storageSshKeys.name, likePattern(query.name)) : undefined);
      const direction = query.order_by.startsWith("-") ? desc : asc;
      const field = query.order_by.replace(/^-/, "");
      const column = field === "name" ? storageSshKeys.name : field === "created_at" ? storageSshKeys.created : storageSshKeys.id;
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(storageSshKeys)
          .where(where)
          .orderBy(...(column === storageSshKeys.id ? [direction(column)] : [direction(column), asc(storageSshKeys.id)]))
          .limit(query.limit)
          .offset(query.offset),
        db.select({ total: count() }).from(storageSshKeys).where(where),
      ]);
      return { status: 200, body: { count: total?.total ?? 0, results: rows.map(toSshKey) } };
    },

    createSshKey: async ({ body }, { request: { caller } }) => {
      try {
        const [row] = await db.insert(storageSshKeys).values({ accountId: caller.accountId, name: body.name, publicKey: body.public_key }).returning();
        return { status: 201, body: toSshKey(row!) };
      } catch (error) {
        if (sqlState(error) === "23505") throw conflict(`The account already has an SSH key named ${body.name}.`);
        throw error;
      }
    },

    getSshKey: async ({ params }, { request: { caller } }) => {
      const [row] = await db
        .select()
        .from(storageSshKeys)
        .where(and(eq(storageSshKeys.accountId, caller.accountId), eq(storageSshKeys.id, params.ssh_key_id)));
      if (!row) throw notFound(`SSH key ${params.ssh_key_id}`);
      return { status: 200, body: toSshKey(row) };
    },

    deleteSshKey: async ({ params }, { request: { caller } }) => {
      const mine = and(eq(storageSshKeys.accountId, caller.accountId), eq(storageSshKeys.id, params.ssh_key_id));
      await db.transaction(async (tx) => {
        const [key] = await tx.select({ id: storageSshKeys.id }).from(storageSshKeys).where(mine).for("update");
        if (!key) throw notFound(`SSH key ${params.ssh_key_id}`);
        const users = await tx
          .select({ id: storageSshKeyLinks.storageId })
          .from(storageSshKeyLinks)
          .where(eq(storageSshKeyLinks.sshKeyId, key.id))
          .orderBy(asc(storageSshKeyLinks.storageId));
        if (users.length > 0)
          throw conflict(`SSH key ${key.id} is let in by SFTP storages ${listed(users.map((user) => user.id))}; take it out of their ssh_key_ids first.`);
        await tx.delete(storageSshKeys).where(mine);
      });
      return { status: 204, body: undefined };
    },
  });

  return { ...sftpRouter, ...keysRouter };
}
