/**
 * Restreams: the paged listing (with X-Total-Count), one restream, its creation, changes and deletion;
 * `live` is read from the restream's switch and its stream's ingest at each request.
 */
import { RESTREAMS_PAGE_SIZE, streamingRestreamsRoutes, type Restream, type UpdateRestreamBody } from "@cloudplane/contract";
import { and, count, desc, eq, schema, sql, type Database } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { addFieldError, fieldErrors, notFound, problemCount, validationFailed } from "../errors.js";
import { preparedOnce } from "../prepared.js";
import { served } from "../served.js";
import type { RequestExtension, RouteDeps } from "../types.js";

const { streams, restreams, users } = schema;

type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];
type RestreamRow = typeof restreams.$inferSelect;
type RestreamSettings = UpdateRestreamBody["restream"];

/** A restream's columns with whether its stream is live now (either ingest). */
const shownColumns = {
  restream: restreams,
  // A driver that looks up no types reads a boolean as "t" or "f".
  streamLive: sql<boolean>`(${streams.live} or ${streams.backupLive})`.mapWith((value: unknown) => value === true || value === "t" || value === "true"),
};

function toRestream({ restream, streamLive }: { restream: RestreamRow; streamLive: boolean }): Restream {
  return {
    id: restream.id,
    name: restream.name,
    stream_id: restream.streamId,
    uri: restream.uri,
    active: restream.active,
    live: restream.active && streamLive,
    client_user_id: restream.clientUserId,
  };
}

/** The columns a create or change sets from `settings`, after checking that the stream and the user named are the account's. */
async function columnsOf(tx: Transaction, accountId: number, settings: RestreamSettings): Promise<Partial<typeof restreams.$inferInsert>> {
  const errors = fieldErrors();
  if (settings.stream_id !== undefined) {
    const [stream] = await tx
      .select({ id: streams.id })
      .from(streams)
      .where(and(eq(streams.accountId, accountId), eq(streams.id, settings.stream_id)))
      // Until the write commits: a delete of the stream waits, then takes the restream along.
      .for("key share");
    if (!stream) addFieldError(errors, "restream.stream_id", "Must be a stream of the account.");
  }
  if (settings.client_user_id !== undefined) {
    const [user] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.accountId, accountId), eq(users.id, settings.client_user_id), eq(users.deleted, false)));
    if (!user) addFieldError(errors, "restream.client_user_id", "Must be a user of the account.");
  }
  if (problemCount(errors) > 0) throw validationFailed(errors);
  const columns: Partial<typeof restreams.$inferInsert> = {};
  if (settings.name !== undefined) columns.name = settings.name;
  if (settings.stream_id !== undefined) columns.streamId = settings.stream_id;
  if (settings.uri !== undefined) columns.uri = settings.uri;
  if (settings.active !== undefined) columns.active = settings.active;
  if (settings.client_user_id !== undefined) columns.clientUserId = settings.client_user_id;
  return columns;
}

export function streamingRestreams({ db }: RouteDeps) {
  const restreamById = preparedOnce(() =>
    db
      .select(shownColumns)
      .from(restreams)
      .innerJoin(streams, and(eq(streams.accountId, restreams.accountId), eq(streams.id, restreams.streamId)))
      .where(and(eq(restreams.accountId, sql.placeholder("accountId")), eq(restreams.id, sql.placeholder("id"))))
      .limit(1)
      .prepare("restream_by_id"),
  );

  /** The restream as shown, read in `tx` (its own writes included). */
  async function shownIn(tx: Transaction, accountId: number, id: number): Promise<Restream> {
    const [row] = await tx
      .select(shownColumns)
      .from(restreams)
      .innerJoin(streams, and(eq(streams.accountId, restreams.accountId), eq(streams.id, restreams.streamId)))
      .where(and(eq(restreams.accountId, accountId), eq(restreams.id, id)));
    return toRestream(row!);
  }

  return tsr.routerWithMiddleware(served("streaming", streamingRestreamsRoutes))<RequestExtension>({
    listRestreams: async ({ query }, { request: { caller }, responseHeaders }) => {
      const mine = eq(restreams.accountId, caller.accountId);
      const [rows, [total]] = await Promise.all([
        db
          .select(shownColumns)
          .from(restreams)
          .innerJoin(streams, and(eq(streams.accountId, restreams.accountId), eq(streams.id, restreams.streamId)))
          .where(mine)
          .orderBy(desc(restreams.id))
          .limit(RESTREAMS_PAGE_SIZE)
          .offset((query.page - 1) * RESTREAMS_PAGE_SIZE),
        db.select({ total: count() }).from(restreams).where(mine),
      ]);
      responseHeaders.set("x-total-count", String(total?.total ?? 0));
      return { status: 200, body: rows.map(toRestream) };
    },

    getRestream: async ({ params }, { request: { caller } }) => {
      const [row] = await restreamById().execute({ accountId: caller.accountId, id: params.restream_id });
      if (!row) throw notFound(`Restream ${params.restream_id}`);
      return { status: 200, body: toRestream(row) };
    },

    createRestream: async ({ body }, { request: { caller } }) => {
      const { accountId } = caller;
      const made = await db.transaction(async (tx) => {
        const columns = await columnsOf(tx, accountId, body.restream);
        const [inserted] = await tx
          .insert(restreams)
          .values({
            ...columns,
            accountId,
            name: body.restream.name,
            streamId: body.restream.stream_id,
            uri: body.restream.uri,
            clientUserId: body.restream.client_user_id ?? caller.userId,
          })
          .returning({ id: restreams.id });
        return shownIn(tx, accountId, inserted!.id);
      });
      return { status: 201, body: made };
    },

    updateRestream: async ({ params, body }, { request: { caller } }) => {
      const { accountId } = caller;
      const changed = await db.transaction(async (tx) => {
        const mine = and(eq(restreams.accountId, accountId), eq(restreams.id, params.restream_id));
        const [current] = await tx.select({ id: restreams.id }).from(restreams).where(mine).for("update");
        if (!current) throw notFound(`Restream ${params.restream_id}`);
        const columns = await columnsOf(tx, accountId, body.restream);
        if (Object.keys(columns).length > 0) await tx.update(restreams).set(columns).where(mine);
        return shownIn(tx, accountId, params.restream_id);
      });
      return { status: 200, body: changed };
    },

    deleteRestream: async ({ params }, { request: { caller } }) => {
      const [deleted] = await db
        .delete(restreams)
        .where(and(eq(restreams.accountId, caller.accountId), eq(restreams.id, params.restream_id)))
        .returning({ id: restreams.id });
      if (!deleted) throw notFound(`Restream ${params.restream_id}`);
      return { status: 204, body: undefined };
    },
  });
}
