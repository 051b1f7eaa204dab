/**
 * BGP announces of the account's protected networks (the addresses of its live profiles, each as its /32
 * or /128): announced as their profiles' `options.bgp` says until a toggle sets them, the toggle kept.
 */
import { securityBgpAnnouncesRoutes, type ClientAnnounce } from "@cloudplane/contract";
import { and, type Database, eq, isNotNull, isNull, schema, sql, type SQL } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { ApiError, invalid } from "../errors.js";
import type { Caller } from "../auth.js";
import type { RequestExtension, RouteDeps } from "../types.js";
import { rowsOf } from "../rows.js";
import { served } from "../served.js";

const { securityAnnounceVersions, securityBgpAnnounces, securityProfiles } = schema;


/** `client_id` may name only the caller's own account. */
function ownClient(clientId: number | undefined, caller: Caller): void {
  if (clientId !== undefined && clientId !== caller.accountId)
    throw new ApiError("permission_denied", "client_id names another account; a token sees only its own account.");
}

/**
 * The account's protected networks (of one site, when given), each announced or not, in code-point order.
 * The networks and their profiles' bgp option come in that order from the profiles' (account_id, network,
 * bgp) index alone, so a network several profiles share arrives as neighbours and one pass makes the answer.
 * They are read as two texts the database joins in the index's order (the networks space-separated, the
 * options one letter each), not as a row each: at 90,000 networks the driver's object per row cost three
 * times the query.
 */
async function announces(db: Pick<Database, "execute" | "select">, accountId: number, site?: string): Promise<ClientAnnounce> {
  const conditions: SQL[] = [eq(securityProfiles.accountId, accountId), isNull(securityProfiles.deleted), isNotNull(securityProfiles.network)];
  if (site !== undefined) conditions.push(eq(securityProfiles.site, site));
  const [profiles, toggles] = await Promise.all([
    db.execute(
      sql`select string_agg(network, ' ') as networks, string_agg(case when bgp then 't' else 'f' end, '') as bgp
          from (select ${securityProfiles.network} as network, ${securityProfiles.bgp} as bgp from ${securityProfiles}
                where ${and(...conditions)} order by ${securityProfiles.network} collate "C") as ordered`,
    ),
    // The toggles in the same order, so that one walk alongside the networks finds each network's.
    db
      .select({ network: securityBgpAnnounces.network, enabled: securityBgpAnnounces.enabled })
      .from(securityBgpAnnounces)
      .where(eq(securityBgpAnnounces.accountId, accountId))
      .orderBy(sql`${securityBgpAnnounces.network} collate "C"`),
  ]);
  const entry: ClientAnnounce = { client_id: accountId, announced: [], not_announced: [] };
  // Both aggregates are null for an account without networks.
  const [joined] = rowsOf<{ networks: string | null; bgp: string | null }>(profiles);
  const networks = joined?.networks?.split(" ") ?? [];
  const bgp = joined?.bgp ?? "";
  let toggle = 0;
  for (let at = 0; at < networks.length; ) {
    const network = networks[at]!;
    // A network is announced by default when any profile of its address has bgp on; a toggle decides over it.
    let announced = false;
    for (; at < networks.length && networks[at] === network; at++) announced ||= bgp[at] === "t";
    // Networks are ASCII, so JavaScript's order of strings is the code-point order both lists are in.
    while (toggle < toggles.length && toggles[toggle]!.network < network) toggle++;
    if (toggle < toggles.length && toggles[toggle]!.network === network) announced = toggles[toggle]!.enabled;
    (announced ? entry.announced : entry.not_announced).push(network);
  }
  return entry;
}

/**
 * How much the announces kept by one handler hold at most, over all accounts and sites: in networks, each
 * entry counting `KEPT_ENTRY` more (so sites without networks, which a client can name without end, fill it too).
 */
const KEPT_NETWORKS = 1_000_000;
const KEPT_ENTRY = 100;

/** An account's announces version as the database holds it (undefined when it has none). */
async function versionOf(db: Pick<Database, "select">, accountId: number): Promise<string | undefined> {
  const [current] = await db
    .select({ version: securityAnnounceVersions.version })
    .from(securityAnnounceVersions)
    .where(eq(securityAnnounceVersions.accountId, accountId));
  return current?.version;
}

/**
 * The announces a handler computed, kept per account and site with the version the database gave the
 * account's announces (`security_announce_versions`, a new one with every write that changes them) when
 * they were read: answered again while the version is the same, so an account of 100,000 networks is read
 * and built once per change, not per request. The version is read before the announces (or in the same
 * transaction), so what is kept under a version is never older than it; a server sharing the database sees
 * the others' writes at once. The least recently used go first once more than `KEPT_NETWORKS` are kept.
 */
function keptAnnounces(db: Pick<Database, "execute" | "select">) {
  const kept = new Map<string, { version: string; entry: ClientAnnounce; weight: number }>();
  let held = 0;
  const keyOf = (accountId: number, site: string | undefined) => (site === undefined ? `${accountId}` : `${accountId}/${site}`);
  const keep = (accountId: number, site: string | undefined, version: string, entry: ClientAnnounce) => {
    const key = keyOf(accountId, site);
    // An older entry of the key (or one a request alongside kept meanwhile): this entry takes its place.
    const replaced = kept.get(key);
    if (replaced) {
      kept.delete(key);
      held -= replaced.weight;
    }
    const weight = KEPT_ENTRY + entry.announced.length + entry.not_announced.length;
    kept.set(key, { version, entry, weight });
    held += weight;
    for (const [oldest, least] of kept) {
      if (held <= KEPT_NETWORKS) break;
      kept.delete(oldest);
      held -= least.weight;
    }
  };
  return {
    keep,
    async read(accountId: number, site: string | undefined): Promise<ClientAnnounce> {
      const version = await versionOf(db, accountId);
      const key = keyOf(accountId, site);
      const found = kept.get(key);
      if (found && found.version === version) {
        // Asked again: the most recently used now.
        kept.delete(key);
        kept.set(key, found);
        return found.entry;
      }
      const entry = await announces(db, accountId, site);
      // An account without a version (none since the versions were emptied) is not kept: nothing would tell a change.
      if (version !== undefined) keep(accountId, site, version, entry);
      return entry;
    },
  };
}

export function securityBgpAnnouncesRouter({ db }: RouteDeps) {
  const kept = keptAnnounces(db);
  return tsr.routerWithMiddleware(served("security", securityBgpAnnouncesRoutes))<RequestExtension>({
    listBgpAnnounces: async ({ query }, { request: { caller } }) => {
      ownClient(query.client_id, caller);
      // A copy: the lists below are replaced in it, never changed in the kept entry.
      const entry = { ...(await kept.read(caller.accountId, query.site)) };
      // The account's addresses are of origin IAAS: another origin has none of them.
      if (query.origin !== undefined && !query.origin.includes("IAAS")) {
        entry.announced = [];
        entry.not_announced = [];
      }
      if (query.announced === true) entry.not_announced = [];
      if (query.announced === false) entry.announced = [];
      return { status: 200, body: [entry].slice(query.offset, query.offset + query.limit) };
    },

    toggleBgpAnnounce: async ({ query, body }, { request: { caller } }) => {
      ownClient(query.client_id, caller);
      const { accountId } = caller;
      const { entry, version } = await db.transaction(async (tx) => {
        const [found] = await tx
          .select({ network: sql<string>`${securityProfiles.network}` }) // not null: the condition below
          .from(securityProfiles)
          .where(
            and(
              eq(securityProfiles.accountId, accountId),
              isNull(securityProfiles.deleted),
              isNotNull(securityProfiles.network),
              // The network given in any spelling: compared as networks, not as text.
              sql`${securityProfiles.network}::inet = ${body.announce}::inet`,
            ),
          )
          .limit(1)
          .for("share");
        if (!found)
          throw invalid("announce", "Must be a network the account protects: the /32 or /128 of a live profile's address (GET lists them).");
        await tx
          .insert(securityBgpAnnounces)
          .values({ accountId, network: found.network, enabled: body.enabled, updated: new Date() })
          .onConflictDoUpdate({ target: [securityBgpAnnounces.accountId, securityBgpAnnounces.network], set: { enabled: body.enabled, updated: new Date() } });
        // The toggle has given the account a new version: the answer, read in the same transaction, is kept under it.
        return { entry: await announces(tx, accountId), version: await versionOf(tx, accountId) };
      });
      if (version !== undefined) kept.keep(accountId, undefined, version, entry);
      return { status: 200, body: entry };
    },
  });
}
