/**
 * Streaming directories: the tree of folders an account files its videos in, one directory with what it
 * holds, creation, renames and moves (never into itself), and deletion of an empty one.
 */
import { DIRECTORY_DEPTH_MAX, streamingDirectoriesRoutes, type Directory, type DirectoryDetails, type DirectoryNode } from "@cloudplane/contract";
import { and, asc, desc, eq, schema, sql, type Database } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { conflict, invalid, notFound } from "../errors.js";
import { isoTime } from "../format.js";
import { served } from "../served.js";
import type { RequestExtension, RouteDeps } from "../types.js";
import { toVideo, videoColumns, vodLadders } from "./videos.js";

const { videoDirectories, videos } = schema;

type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];
type Reader = Database | Transaction;
type DirectoryRow = typeof videoDirectories.$inferSelect;

/** Every directory of the account with how many videos and directories each holds directly. */
async function directoriesOf(db: Reader, accountId: number) {
  const [rows, videoCounts] = await Promise.all([
    db.select().from(videoDirectories).where(eq(videoDirectories.accountId, accountId)).orderBy(asc(videoDirectories.name), asc(videoDirectories.id)),
    db
      .select({ directoryId: videos.directoryId, total: sql<number>`count(*)::int` })
      .from(videos)
      .where(and(eq(videos.accountId, accountId), sql`${videos.directoryId} is not null`))
      .groupBy(videos.directoryId),
  ]);
  const counts = new Map<number, number>(videoCounts.map((row) => [row.directoryId!, Number(row.total)]));
  for (const row of rows) if (row.parentId !== null) counts.set(row.parentId, (counts.get(row.parentId) ?? 0) + 1);
  return { rows, counts };
}

const toDirectory = (row: DirectoryRow, counts: Map<number, number>): Directory => ({
  id: row.id,
  name: row.name,
  parent_id: row.parentId,
  items_count: counts.get(row.id) ?? 0,
  created_at: isoTime(row.createdAt),
  updated_at: isoTime(row.updatedAt),
});

/** The directory `id` and those it sits in, up to the root: as many as its depth. */
function ancestry(rows: DirectoryRow[], id: number): number[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  const chain: number[] = [];
  for (let at = byId.get(id); at && !chain.includes(at.id); at = at.parentId === null ? undefined : byId.get(at.parentId)) chain.push(at.id);
  return chain;
}

/** How deep the deepest directory under `id` goes below it (0 when it holds none). */
function heightBelow(rows: DirectoryRow[], id: number): number {
  const children = rows.filter((row) => row.parentId === id);
  return children.length === 0 ? 0 : 1 + Math.max(...children.map((child) => heightBelow(rows, child.id)));
}

export function streamingDirectories({ db }: RouteDeps) {
  /**
   * Checks that `parentId` may hold the directory `id` (a new one: undefined) in `tx`, whose directories
   * are locked: it is the account's, not the directory or below it, and the result is not too deep.
   */
  async function checkParent(tx: Transaction, accountId: number, parentId: number, id: number | undefined) {
    const rows = await tx.select().from(videoDirectories).where(eq(videoDirectories.accountId, accountId)).for("update");
    if (!rows.some((row) => row.id === parentId)) throw invalid("parent_id", "Must be a directory of the account.");
    const above = ancestry(rows, parentId);
    if (id !== undefined && above.includes(id)) throw invalid("parent_id", "Must not be the directory itself or a directory it holds.");
    if (above.length + 1 + (id === undefined ? 0 : heightBelow(rows, id)) > DIRECTORY_DEPTH_MAX)
      throw invalid("parent_id", `Directories nest at most ${DIRECTORY_DEPTH_MAX} levels deep.`);
  }

  return tsr.routerWithMiddleware(served("streaming", streamingDirectoriesRoutes))<RequestExtension>({
    getDirectoryTree: async (_request, { request: { caller } }) => {
      const { rows, counts } = await directoriesOf(db, caller.accountId);
      const nodeOf = (row: DirectoryRow): DirectoryNode => ({
        ...toDirectory(row, counts),
        descendants: rows.filter((child) => child.parentId === row.id).map(nodeOf),
      });
      return { status: 200, body: { tree: rows.filter((row) => row.parentId === null).map(nodeOf) } };
    },

    getDirectory: async ({ params }, { request: { caller } }) => {
      const { rows, counts } = await directoriesOf(db, caller.accountId);
      const row = rows.find((candidate) => candidate.id === params.directory_id);
      if (!row) throw notFound(`Directory ${params.directory_id}`);
      const [reads, ladders] = await Promise.all([
        db
          .select(videoColumns)
          .from(videos)
          .where(and(eq(videos.accountId, caller.accountId), eq(videos.directoryId, row.id)))
          .orderBy(desc(videos.id)),
        vodLadders(db, caller.accountId),
      ]);
      const items: DirectoryDetails["directory"]["items"] = [
        ...rows.filter((child) => child.parentId === row.id).map((child) => ({ ...toDirectory(child, counts), item_type: "Directory" as const })),
        ...reads.map((read) => ({ ...toVideo(read, ladders), item_type: "Video" as const })),
      ];
      return { status: 200, body: { directory: { ...toDirectory(row, counts), items } } };
    },

    createDirectory: async ({ body }, { request: { caller } }) => {
      const created = await db.transaction(async (tx) => {
        if (body.parent_id != null) await checkParent(tx, caller.accountId, body.parent_id, undefined);
        const [row] = await tx.insert(videoDirectories).values({ accountId: caller.accountId, name: body.name, parentId: body.parent_id ?? null }).returning();
        return row!;
      });
      return { status: 201, body: toDirectory(created, new Map()) };
    },

    updateDirectory: async ({ params, body }, { request: { caller } }) => {
      const shown = await db.transaction(async (tx) => {
        const mine = and(eq(videoDirectories.accountId, caller.accountId), eq(videoDirectories.id, params.directory_id));
        const [current] = await tx.select().from(videoDirectories).where(mine).for("update");
        if (!current) throw notFound(`Directory ${params.directory_id}`);
        if (body.parent_id != null) await checkParent(tx, caller.accountId, body.parent_id, current.id);
        const changes: Partial<typeof videoDirectories.$inferInsert> = {};
        if (body.name !== undefined) changes.name = body.name;
        if (body.parent_id !== undefined) changes.parentId = body.parent_id;
        await tx
          .update(videoDirectories)
          .set({ ...changes, updatedAt: sql`now()` })
          .where(mine);
        const { rows, counts } = await directoriesOf(tx, caller.accountId);
        return toDirectory(rows.find((row) => row.id === current.id)!, counts);
      });
      return { status: 200, body: shown };
    },

    deleteDirectory: async ({ params }, { request: { caller } }) => {
      await db.transaction(async (tx) => {
        const mine = and(eq(videoDirectories.accountId, caller.accountId), eq(videoDirectories.id, params.directory_id));
        // Locked first: a video or directory filed in it meanwhile waits (key share), then finds it gone.
        const [current] = await tx.select().from(videoDirectories).where(mine).for("update");
        if (!current) throw notFound(`Directory ${params.directory_id}`);
        const held = await tx
          .select({ id: videos.id })
          .from(videos)
          .where(and(eq(videos.accountId, caller.accountId), eq(videos.directoryId, current.id)))
          .orderBy(asc(videos.id))
          .limit(10);
        const children = await tx
          .select({ id: videoDirectories.id })
          .from(videoDirectories)
          .where(and(eq(videoDirectories.accountId, caller.accountId), eq(videoDirectories.parentId, current.id)))
          .orderBy(asc(videoDirectories.id))
          .limit(10);
        if (held.length > 0 || children.length > 0) {
          const named = [
            ...(children.length > 0 ? [`directories ${children.map((row) => row.id).join(", ")}`] : []),
            ...(held.length > 0 ? [`videos ${held.map((row) => row.id).join(", ")}`] : []),
          ].join(" and ");
          throw conflict(`Directory ${current.id} holds ${named}; move or delete them first.`);
        }
        await tx.delete(videoDirectories).where(mine);
      });
      return { status: 204, body: undefined };
    },
  });
}
