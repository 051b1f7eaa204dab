/**
 * Edge app secrets: values in slots, encrypted at rest and shown only by their checksum, and the apps
 * that use each.
 */
import { edgeSecretsRoutes, type EdgeAppSecret } from "@cloudplane/contract";
import { and, asc, count, countDistinct, type Database, encryptSecret, eq, exists, ilike, schema, sha256Hex, sql } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { addFieldError, conflict, fieldErrors, notFound, problemCount, validationFailed } from "../errors.js";
import { likePattern } from "../like.js";
import type { RequestExtension, RouteDeps } from "../types.js";
import { nameTaken } from "./shared.js";
import { served } from "../served.js";

const { edgeAppSecrets, edgeSecrets, edgeSecretSlots } = schema;

/**
 * The number of distinct apps that use a secret, as `app_count` shows it, through the (account_id, secret_id)
 * index. Written out: drizzle leaves a column of the query's only table unqualified, which inside the
 * subquery would name the link's.
 */
const secretAppCount = sql<number>`(select count(distinct l.app_id)::int from edge_app_secrets l where l.account_id = edge_secrets.account_id and l.secret_id = edge_secrets.id)`;

/** The account's secret `id` with its slots, or undefined. */
async function secretView(db: Pick<Database, "select">, accountId: number, id: number): Promise<EdgeAppSecret | undefined> {
  const [secret] = await db
    .select({ id: edgeSecrets.id, name: edgeSecrets.name, comment: edgeSecrets.comment, app_count: secretAppCount })
    .from(edgeSecrets)
    .where(and(eq(edgeSecrets.accountId, accountId), eq(edgeSecrets.id, id)));
  if (!secret) return undefined;
  const slots = await db
    .select({ slot: edgeSecretSlots.slot, checksum: edgeSecretSlots.checksum })
    .from(edgeSecretSlots)
    .where(eq(edgeSecretSlots.secretId, id))
    .orderBy(asc(edgeSecretSlots.slot));
  return { ...secret, secret_slots: slots };
}

/** A slot to store: encrypted before the transaction opens, so it holds its locks only for the writes. */
async function sealSlot(secretsKey: CryptoKey, slot: number, value: string) {
  return { slot, valueEncrypted: await encryptSecret(secretsKey, value), checksum: await sha256Hex(value) };
}

/** The secrets' routes; exported as `edgeSecrets`, the name this file gives the secrets' table. */
function edgeSecretsRouter({ db, secretsKey }: RouteDeps) {
  /** PATCH and PUT of a secret: `slots`, when given, is the whole set afterwards; a slot without a value keeps its stored one. */
  async function changeSecret(
    accountId: number,
    id: number,
    change: { name?: string; comment?: string; slots?: { slot: number; value?: string }[] },
  ): Promise<EdgeAppSecret> {
    const sealed = change.slots
      ? await Promise.all(change.slots.map(async (item) => (item.value === undefined ? { slot: item.slot } : await sealSlot(secretsKey, item.slot, item.value))))
      : undefined;
    return db
      .transaction(async (tx) => {
        const [current] = await tx
          .select({ id: edgeSecrets.id })
          .from(edgeSecrets)
          .where(and(eq(edgeSecrets.accountId, accountId), eq(edgeSecrets.id, id)))
          .for("update");
        if (!current) throw notFound(`Secret ${id}`);
        if (sealed) {
          const stored = new Map(
            (await tx.select().from(edgeSecretSlots).where(eq(edgeSecretSlots.secretId, id))).map((row) => [row.slot, row] as const),
          );
          const errors = fieldErrors();
          const rows = sealed.flatMap((item, index) => {
            const kept = "valueEncrypted" in item ? item : stored.get(item.slot);
            if (kept) return [{ accountId, secretId: id, slot: item.slot, valueEncrypted: kept.valueEncrypted, checksum: kept.checksum }];
            addFieldError(errors, `secret_slots.${index}.value`, `Slot ${item.slot} has no stored value: give one.`);
            return [];
          });
          if (problemCount(errors)) throw validationFailed(errors);
          await tx.delete(edgeSecretSlots).where(eq(edgeSecretSlots.secretId, id));
          await tx.insert(edgeSecretSlots).values(rows);
        }
        const fields: Partial<typeof edgeSecrets.$inferInsert> = { updated: new Date() };
        if (change.name !== undefined) fields.name = change.name;
        if (change.comment !== undefined) fields.comment = change.comment;
        await tx.update(edgeSecrets).set(fields).where(eq(edgeSecrets.id, id));
        return (await secretView(tx, accountId, id))!;
      })
      .catch(nameTaken("a secret", change.name));
  }

  return tsr.routerWithMiddleware(served("edge", edgeSecretsRoutes))<RequestExtension>({
    listSecrets: async ({ query }, { request: { caller } }) => {
      const { accountId } = caller;
      const where = and(
        eq(edgeSecrets.accountId, accountId),
        query.secret_name === undefined ? undefined : eq(edgeSecrets.name, query.secret_name),
        query.search === undefined ? undefined : ilike(edgeSecrets.name, likePattern(query.search)),
        query.app_id === undefined
          ? undefined
          : exists(
              db
                .select({ one: sql`1` })
                .from(edgeAppSecrets)
                .where(
                  and(
                    eq(edgeAppSecrets.accountId, accountId),
                    eq(edgeAppSecrets.appId, query.app_id),
                    eq(edgeAppSecrets.secretId, edgeSecrets.id),
                  ),
                ),
            ),
      );
      const [rows, [total]] = await Promise.all([
        db
          .select({ id: edgeSecrets.id, name: edgeSecrets.name, comment: edgeSecrets.comment, app_count: secretAppCount })
          .from(edgeSecrets)
          .where(where)
          .orderBy(asc(edgeSecrets.id))
          .limit(query.limit)
          .offset(query.offset),
        db.select({ total: count() }).from(edgeSecrets).where(where),
      ]);
      return { status: 200, body: { secrets: rows, count: total?.total ?? 0 } };
    },

    createSecret: async ({ body }, { request: { caller } }) => {
      const { accountId } = caller;
      const slots = await Promise.all(body.secret_slots.map((item) => sealSlot(secretsKey, item.slot, item.value)));
      const secret = await db
        .transaction(async (tx) => {
          const [created] = await tx
            .insert(edgeSecrets)
            .values({ accountId, name: body.name, comment: body.comment ?? "" })
            .returning();
          await tx.insert(edgeSecretSlots).values(slots.map((slot) => ({ ...slot, accountId, secretId: created!.id })));
          return created!;
        })
        .catch(nameTaken("a secret", body.name));
      return {
        status: 200,
        body: {
          id: secret.id,
          name: secret.name,
          comment: secret.comment,
          app_count: 0,
          secret_slots: slots.map(({ slot, checksum }) => ({ slot, checksum })).sort((a, b) => a.slot - b.slot),
        },
      };
    },

    getSecret: async ({ params }, { request: { caller } }) => {
      const secret = await secretView(db, caller.accountId, params.id);
      if (!secret) throw notFound(`Secret ${params.id}`);
      return { status: 200, body: secret };
    },

    updateSecret: async ({ params, body }, { request: { caller } }) => {
      const secret = await changeSecret(caller.accountId, params.id, { name: body.name, comment: body.comment, slots: body.secret_slots });
      return { status: 200, body: secret };
    },

    replaceSecret: async ({ params, body }, { request: { caller } }) => {
      const secret = await changeSecret(caller.accountId, params.id, { name: body.name, comment: body.comment ?? "", slots: body.secret_slots });
      return { status: 200, body: secret };
    },

    deleteSecret: async ({ params, query }, { request: { caller } }) => {
      const { accountId } = caller;
      await db.transaction(async (tx) => {
        const [current] = await tx
          .select({ id: edgeSecrets.id })
          .from(edgeSecrets)
          .where(and(eq(edgeSecrets.accountId, accountId), eq(edgeSecrets.id, params.id)))
          .for("update");
        if (!current) throw notFound(`Secret ${params.id}`);
        const [{ apps }] = (await tx
          .select({ apps: countDistinct(edgeAppSecrets.appId) })
          .from(edgeAppSecrets)
          .where(eq(edgeAppSecrets.secretId, params.id))) as [{ apps: number }];
        if (apps > 0 && !query.force)
          throw conflict(`Secret ${params.id} is used by ${apps} app(s); delete with force=true to take it out of them and delete it.`);
        if (apps > 0) await tx.delete(edgeAppSecrets).where(eq(edgeAppSecrets.secretId, params.id));
        // Its slots go with it (ON DELETE CASCADE).
        await tx.delete(edgeSecrets).where(eq(edgeSecrets.id, params.id));
      });
      return { status: 204, body: undefined };
    },
  });
}

export { edgeSecretsRouter as edgeSecrets };
