/**
 * Streaming quality sets: the platform's sets (a catalog every account reads) and the account's default
 * set of each kind.
 */
import { QUALITY_SET_KINDS, streamingQualitySetsRoutes, type QualitySetKind, type QualitySets } from "@cloudplane/contract";
import { and, asc, eq, schema, type Database } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { addFieldError, fieldErrors, problemCount, validationFailed } from "../errors.js";
import { served } from "../served.js";
import type { RequestExtension, RouteDeps } from "../types.js";

const { streamingQualitySets, streamingDefaultQualitySets } = schema;

type Reader = Database | Parameters<Parameters<Database["transaction"]>[0]>[0];

/** The platform's sets, each kind's default for the account marked. */
async function qualitySetsOf(db: Reader, accountId: number): Promise<QualitySets> {
  const [sets, chosen] = await Promise.all([
    db.select().from(streamingQualitySets).orderBy(asc(streamingQualitySets.id)),
    db.select().from(streamingDefaultQualitySets).where(eq(streamingDefaultQualitySets.accountId, accountId)),
  ]);
  const shown = (kind: QualitySetKind) => {
    const ofKind = sets.filter((set) => set.kind === kind);
    const defaultId = chosen.find((row) => row.kind === kind)?.qualitySetId ?? ofKind.find((set) => set.platformDefault)?.id;
    return ofKind.map((set) => ({ id: set.id, name: set.name, default: set.id === defaultId, qualities: set.qualities }));
  };
  return { live: shown("live"), vod: shown("vod") };
}

export function streamingQualitySetsHandlers({ db }: RouteDeps) {
  return tsr.routerWithMiddleware(served("streaming", streamingQualitySetsRoutes))<RequestExtension>({
    listQualitySets: async (_request, { request: { caller } }) => ({ status: 200, body: await qualitySetsOf(db, caller.accountId) }),

    setDefaultQualitySets: async ({ body }, { request: { caller } }) => {
      const shown = await db.transaction(async (tx) => {
        const errors = fieldErrors();
        const picks = QUALITY_SET_KINDS.flatMap((kind) => (body[kind] ? [{ kind, id: body[kind].id }] : []));
        for (const { kind, id } of picks) {
          const [set] = await tx
            .select({ id: streamingQualitySets.id })
            .from(streamingQualitySets)
            .where(and(eq(streamingQualitySets.id, id), eq(streamingQualitySets.kind, kind)));
          if (!set) addFieldError(errors, `${kind}.id`, `Must be a ${kind} quality set of the platform.`);
        }
        if (problemCount(errors) > 0) throw validationFailed(errors);
        for (const { kind, id } of picks)
          await tx
            .insert(streamingDefaultQualitySets)
            .values({ accountId: caller.accountId, kind, qualitySetId: id })
            .onConflictDoUpdate({ target: [streamingDefaultQualitySets.accountId, streamingDefaultQualitySets.kind], set: { qualitySetId: id } });
        return qualitySetsOf(tx, caller.accountId);
      });
      return { status: 200, body: shown };
    },
  });
}
