/**
 * A stream's HTML overlays: listed, read, added (a list at once), changed (one, or a list at once) and
 * deleted; each placed by its box or stretched over the frame, never both.
 */
import { OVERLAYS_PER_STREAM_MAX, streamingOverlaysRoutes, type Overlay, type UpdateOverlayBody } from "@cloudplane/contract";
import { and, asc, count, eq, inArray, schema, sql, type Database } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { addFieldError, ApiError, fieldErrors, notFound, problemCount, validationFailed } from "../errors.js";
import { isoTime } from "../format.js";
import { preparedOnce } from "../prepared.js";
import { served } from "../served.js";
import type { RequestExtension, RouteDeps } from "../types.js";

const { streams, streamOverlays } = schema;

type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];
type OverlayRow = typeof streamOverlays.$inferSelect;

const BOX = ["width", "height", "x", "y"] as const;

export function toOverlay(row: OverlayRow): Overlay {
  return {
    id: row.id,
    stream_id: row.streamId,
    url: row.url,
    width: row.width,
    height: row.height,
    x: row.x,
    y: row.y,
    stretch: row.stretch,
    created_at: isoTime(row.createdAt),
    updated_at: isoTime(row.updatedAt),
  };
}

/** The overlays of the account's streams `streamIds`, by id ascending, as the API shows them. */
export async function overlaysOf(db: Database | Transaction, accountId: number, streamIds: number[]): Promise<Overlay[]> {
  if (streamIds.length === 0) return [];
  const rows = await db
    .select()
    .from(streamOverlays)
    .where(and(eq(streamOverlays.accountId, accountId), inArray(streamOverlays.streamId, streamIds)))
    .orderBy(asc(streamOverlays.id));
  return rows.map(toOverlay);
}

type OverlaysOfStream = (accountId: number, streamId: number) => Promise<Overlay[]>;

/** One reader per database, shared by the routers that read a stream's overlays (GET a stream, the overlay list). */
const overlayReaders = new WeakMap<Database, OverlaysOfStream>();

/** The overlays of one of the account's streams, by id ascending, as the API shows them: a statement prepared once per database. */
export function overlaysOfStream(db: Database): OverlaysOfStream {
  let read = overlayReaders.get(db);
  if (read) return read;
  const statement = preparedOnce(() =>
    db
      .select()
      .from(streamOverlays)
      .where(and(eq(streamOverlays.accountId, sql.placeholder("accountId")), eq(streamOverlays.streamId, sql.placeholder("streamId"))))
      .orderBy(asc(streamOverlays.id))
      .prepare("overlays_of_stream"),
  );
  read = async (accountId, streamId) => (await statement().execute({ accountId, streamId })).map(toOverlay);
  overlayReaders.set(db, read);
  return read;
}

/**
 * The columns a change sets (`at` is where the item sits in the body, for the error paths): `stretch: true`
 * clears the box, a box field given without `stretch` places the overlay by its box.
 */
function changesOf(body: UpdateOverlayBody, errors: Record<string, string[]>, at: string): Partial<typeof streamOverlays.$inferInsert> {
  const given = BOX.filter((field) => body[field] !== undefined);
  if (body.stretch === true) for (const field of given) addFieldError(errors, `${at}${field}`, "Must not be given with stretch true: a stretched overlay has no box.");
  const changes: Partial<typeof streamOverlays.$inferInsert> = {};
  if (body.url !== undefined) changes.url = body.url;
  for (const field of given) changes[field] = body[field];
  if (body.stretch === true) Object.assign(changes, { stretch: true, width: null, height: null, x: null, y: null });
  else if (body.stretch === false || given.length > 0) changes.stretch = false;
  return changes;
}

export function streamingOverlays({ db }: RouteDeps) {
  const overlaysOfOne = overlaysOfStream(db);
  const overlayById = preparedOnce(() =>
    db
      .select()
      .from(streamOverlays)
      .where(
        and(
          eq(streamOverlays.accountId, sql.placeholder("accountId")),
          eq(streamOverlays.streamId, sql.placeholder("streamId")),
          eq(streamOverlays.id, sql.placeholder("id")),
        ),
      )
      .limit(1)
      .prepare("stream_overlay_by_id"),
  );

  /** The stream, locked until the transaction ends so that its overlays change one write at a time; 404 when it is not the account's. */
  async function lockedStream(tx: Transaction, accountId: number, streamId: number): Promise<void> {
    const [stream] = await tx
      .select({ id: streams.id })
      .from(streams)
      .where(and(eq(streams.accountId, accountId), eq(streams.id, streamId)))
      .for("update");
    if (!stream) throw notFound(`Stream ${streamId}`);
  }

  async function streamExists(accountId: number, streamId: number): Promise<void> {
    const [stream] = await db.select({ id: streams.id }).from(streams).where(and(eq(streams.accountId, accountId), eq(streams.id, streamId)));
    if (!stream) throw notFound(`Stream ${streamId}`);
  }

  return tsr.routerWithMiddleware(served("streaming", streamingOverlaysRoutes))<RequestExtension>({
    listOverlays: async ({ params }, { request: { caller } }) => {
      await streamExists(caller.accountId, params.stream_id);
      return { status: 200, body: await overlaysOfOne(caller.accountId, params.stream_id) };
    },

    getOverlay: async ({ params }, { request: { caller } }) => {
      const [row] = await overlayById().execute({ accountId: caller.accountId, streamId: params.stream_id, id: params.overlay_id });
      if (!row) throw notFound(`Overlay ${params.overlay_id} of stream ${params.stream_id}`);
      return { status: 200, body: toOverlay(row) };
    },

    createOverlays: async ({ params, body }, { request: { caller } }) => {
      const { accountId } = caller;
      const errors = fieldErrors();
      body.forEach((item, index) => {
        if (item.stretch === true)
          for (const field of BOX) if (item[field] !== undefined) addFieldError(errors, `${index}.${field}`, "Must not be given with stretch true: a stretched overlay has no box.");
      });
      if (problemCount(errors) > 0) throw validationFailed(errors);
      const made = await db.transaction(async (tx) => {
        await lockedStream(tx, accountId, params.stream_id);
        const [existing] = await tx
          .select({ total: count() })
          .from(streamOverlays)
          .where(and(eq(streamOverlays.accountId, accountId), eq(streamOverlays.streamId, params.stream_id)));
        const total = existing?.total ?? 0;
        if (total + body.length > OVERLAYS_PER_STREAM_MAX)
          throw new ApiError(
            "unprocessable",
            `A stream has at most ${OVERLAYS_PER_STREAM_MAX} overlays: stream ${params.stream_id} has ${total}, so ${body.length} more cannot be added.`,
          );
        return tx
          .insert(streamOverlays)
          .values(
            body.map((item) => ({
              accountId,
              streamId: params.stream_id,
              url: item.url,
              width: item.width ?? null,
              height: item.height ?? null,
              x: item.x ?? null,
              y: item.y ?? null,
              stretch: item.stretch ?? false,
            })),
          )
          .returning();
      });
      return { status: 201, body: made.sort((a, b) => a.id - b.id).map(toOverlay) };
    },

    updateOverlays: async ({ params, body }, { request: { caller } }) => {
      const { accountId } = caller;
      const errors = fieldErrors();
      const seen = new Set<number>();
      const changes = body.map((item, index) => {
        if (seen.has(item.id)) addFieldError(errors, `${index}.id`, `Overlay ${item.id} is named more than once.`);
        seen.add(item.id);
        const { id: _id, ...fields } = item;
        return changesOf(fields, errors, `${index}.`);
      });
      if (problemCount(errors) > 0) throw validationFailed(errors);
      const changed = await db.transaction(async (tx) => {
        await lockedStream(tx, accountId, params.stream_id);
        const ids = body.map((item) => item.id);
        const found = await tx
          .select({ id: streamOverlays.id })
          .from(streamOverlays)
          .where(and(eq(streamOverlays.accountId, accountId), eq(streamOverlays.streamId, params.stream_id), inArray(streamOverlays.id, ids)));
        const ours = new Set(found.map((row) => row.id));
        body.forEach((item, index) => {
          if (!ours.has(item.id)) addFieldError(errors, `${index}.id`, `Must be an overlay of stream ${params.stream_id}.`);
        });
        if (problemCount(errors) > 0) throw validationFailed(errors);
        const rows: OverlayRow[] = [];
        for (const [index, item] of body.entries()) {
          const [row] = await tx
            .update(streamOverlays)
            .set({ ...changes[index], updatedAt: sql`now()` })
            .where(and(eq(streamOverlays.accountId, accountId), eq(streamOverlays.id, item.id)))
            .returning();
          rows.push(row!);
        }
        return rows;
      });
      return { status: 200, body: changed.map(toOverlay) };
    },

    updateOverlay: async ({ params, body }, { request: { caller } }) => {
      const errors = fieldErrors();
      const changes = changesOf(body, errors, "");
      if (problemCount(errors) > 0) throw validationFailed(errors);
      const [row] = await db
        .update(streamOverlays)
        .set({ ...changes, updatedAt: sql`now()` })
        .where(and(eq(streamOverlays.accountId, caller.accountId), eq(streamOverlays.streamId, params.stream_id), eq(streamOverlays.id, params.overlay_id)))
        .returning();
      if (!row) throw notFound(`Overlay ${params.overlay_id} of stream ${params.stream_id}`);
      return { status: 200, body: toOverlay(row) };
    },

    deleteOverlay: async ({ params }, { request: { caller } }) => {
      const [deleted] = await db
        .delete(streamOverlays)
        .where(and(eq(streamOverlays.accountId, caller.accountId), eq(streamOverlays.streamId, params.stream_id), eq(streamOverlays.id, params.overlay_id)))
        .returning({ id: streamOverlays.id });
      if (!deleted) throw notFound(`Overlay ${params.overlay_id} of stream ${params.stream_id}`);
      return { status: 204, body: undefined };
    },
  });
}
