/**
 * SSL certificates (`/cdn/sslData`): the paged listing, upload or Let's Encrypt issuing, get, replace, delete
 * (409 while a CDN resource uses one), and an automated certificate's issuing: its status, renew and forced
 * retry. The private key is encrypted at rest and never answered. What both certificate kinds share (the PEM's
 * facts, the listing, the delete) is here too, for trusted-ca-certificates.ts.
 */
import {
  cdnCertificatesRoutes,
  LE_ATTEMPT_SECONDS,
  LE_VALIDITY_DAYS,
  type ListCertificatesQuery,
  type SslDetail,
  type SslRequestStatus,
} from "@cloudplane/contract";
import { and, asc, count, type Database, encryptSecret, eq, inArray, or, schema, sql, type SQL } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { isForeignKeyViolation, sqlState } from "../database-errors.js";
import { conflict, invalid, notFound } from "../errors.js";
import type { RequestExtension, RouteDeps } from "../types.js";
import { onPage } from "../page.js";
import { served } from "../served.js";
import { pageLinks } from "./logs-uploader/shared.js";
import { referringIds, type Transaction } from "./shared.js";
import { chainFacts, checkPrivateKey, PemProblem, type CertificateFacts } from "./x509.js";

const { cdnResources, certificateKeys, certificates } = schema;

export type CertificateRow = typeof certificates.$inferSelect;
type CertificateKind = CertificateRow["kind"];

const KIND_NAMES: Record<CertificateKind, string> = { ssl: "SSL certificate", ca: "CA certificate" };

const ATTEMPT_MS = LE_ATTEMPT_SECONDS * 1000;
const DAY_MS = 86_400_000;

/** The columns of a certificate that its PEM gives. */
export function pemColumns(chain: string, first: CertificateFacts) {
  return {
    chainPem: chain,
    issuer: first.issuer,
    subjectCn: first.subjectCn,
    subjectAlt: first.subjectAlt,
    notBefore: first.notBefore,
    notAfter: first.notAfter,
  };
}

/** The certificates of an uploaded chain; 400 on `field` for a text that is no PEM certificate, or one not valid now. */
export function readChain(field: string, pem: string, now: Date): CertificateFacts[] {
  let chain: CertificateFacts[];
  try {
    chain = chainFacts(pem);
  } catch (error) {
    if (error instanceof PemProblem) throw invalid(field, error.message);
    throw error;
  }
  const first = chain[0]!;
  if (first.notAfter.getTime() <= now.getTime()) throw invalid(field, `The certificate expired on ${first.notAfter.toISOString()}.`);
  if (first.notBefore.getTime() > now.getTime()) throw invalid(field, `The certificate is not valid before ${first.notBefore.toISOString()}.`);
  return chain;
}

/** Whether the chain is complete and in order by its names (each issued by the next), its certificate not self-signed. */
function chainProblem(chain: CertificateFacts[]): string | undefined {
  if (chain[0]!.subjectDer === chain[0]!.issuerDer) return "The certificate is self-signed: validate_root_ca needs one issued by a certificate authority.";
  for (let index = 0; index + 1 < chain.length; index++)
    if (chain[index]!.issuerDer !== chain[index + 1]!.subjectDer)
      return `Certificate ${index + 2} of the chain did not issue certificate ${index + 1}: give the chain in order, the certificate first.`;
  return undefined;
}

/**
 * Whether a resource of the account uses the certificate, in the way its kind is used: one probe of an
 * (account_id, reference) index of cdn_resources per reference column, whatever the number of resources.
 * Written out: drizzle leaves a column of the query's only table unqualified, which inside the subquery
 * would name the resource's (its account_id compared with itself, so no index served it).
 */
function certificateInUse(kind: CertificateKind) {
  const usedBy = (column: string) =>
    `exists (select 1 from cdn_resources r where r.account_id = certificates.account_id and r.${column} = certificates.id)`;
  const uses = kind === "ca" ? usedBy("proxy_ssl_ca_id") : `(${usedBy("ssl_data_id")} or ${usedBy("proxy_ssl_data_id")})`;
  return sql<boolean>`${sql.raw(uses)}`;
}

/** A certificate row with whether a resource uses it. */
export type CertificateWithUse = CertificateRow & { inUse: boolean };

/** The account's certificate of `kind` by id, with whether a resource uses it; 404 when it has none such. */
export async function certificateWithUse(db: Pick<Database, "select">, kind: CertificateKind, accountId: number, id: number): Promise<CertificateWithUse> {
  const [row] = await db
    .select({ certificate: certificates, inUse: certificateInUse(kind) })
    .from(certificates)
    .where(and(eq(certificates.accountId, accountId), eq(certificates.kind, kind), eq(certificates.id, id)));
  if (!row) throw notFound(`${KIND_NAMES[kind]} ${id}`);
  return { ...row.certificate, inUse: row.inUse };
}

/** Locks the account's certificate of `kind` for a write; 404 when it has none such. */
export async function lockCertificate(tx: Transaction, kind: CertificateKind, accountId: number, id: number): Promise<CertificateRow> {
  const [row] = await tx
    .select()
    .from(certificates)
    .where(and(eq(certificates.accountId, accountId), eq(certificates.kind, kind), eq(certificates.id, id)))
    .for("update");
  if (!row) throw notFound(`${KIND_NAMES[kind]} ${id}`);
  return row;
}

/** 409 when another certificate of the account's `kind` has the name. */
export async function assertNameFree(tx: Transaction, kind: CertificateKind, accountId: number, name: string, except?: number): Promise<void> {
  const [taken] = await tx
    .select({ id: certificates.id })
    .from(certificates)
    .where(and(eq(certificates.accountId, accountId), eq(certificates.kind, kind), eq(certificates.name, name)));
  if (taken && taken.id !== except) throw conflict(`The account already has a ${KIND_NAMES[kind]} named ${JSON.stringify(name)} (${taken.id}).`);
}

/** A write that raced another's name into place meets the unique index: the same 409. */
export async function withNameConflict<T>(kind: CertificateKind, name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (sqlState(error) === "23505") throw conflict(`The account already has a ${KIND_NAMES[kind]} named ${JSON.stringify(name)}.`);
    throw error;
  }
}

/** The account's certificates of `kind` that match the listing's filters: the page, the total and the links. */
export async function listCertificates(db: Database, kind: CertificateKind, accountId: number, url: string, query: Required<Pick<ListCertificatesQuery, "limit" | "offset">> & ListCertificatesQuery) {
  const conditions: (SQL | undefined)[] = [eq(certificates.accountId, accountId), eq(certificates.kind, kind)];
  if (query.automated !== undefined) conditions.push(eq(certificates.automated, query.automated));
  if (query.validity_not_after_lte !== undefined) conditions.push(sql`${certificates.notAfter} <= ${query.validity_not_after_lte}::timestamptz`);
  if (query.resource_id !== undefined) {
    const used =
      kind === "ca"
        ? sql`${cdnResources.proxySslCaId} = ${certificates.id}`
        : or(sql`${cdnResources.sslDataId} = ${certificates.id}`, sql`${cdnResources.proxySslDataId} = ${certificates.id}`);
    conditions.push(
      sql`exists (select 1 from ${cdnResources} where ${cdnResources.accountId} = ${certificates.accountId} and ${cdnResources.id} = ${query.resource_id} and ${used})`,
    );
  }
  const where = and(...conditions);
  const order = [asc(certificates.id)];
  const [rows, [total]] = await Promise.all([
    db.select().from(certificates).where(onPage(db, certificates.id, where, order, query.limit, query.offset)).orderBy(...order),
    db.select({ total: count() }).from(certificates).where(where),
  ]);
  // Which of the page's certificates are in use, asked of the page alone: in the page's own SELECT the planner
  // hashes every resource's reference once, as it would for all of the account's certificates.
  const used = rows.length
    ? await db
        .select({ id: certificates.id })
        .from(certificates)
        .where(and(eq(certificates.accountId, accountId), inArray(certificates.id, rows.map((row) => row.id)), certificateInUse(kind)))
    : [];
  const inUse = new Set(used.map((row) => row.id));
  const all = total?.total ?? 0;
  return { count: all, ...pageLinks(url, query, all), rows: rows.map((row) => ({ ...row, inUse: inUse.has(row.id) })) };
}

/** Deletes the account's certificate of `kind`; 409 while a resource uses it, naming the resources. */
export async function deleteCertificate(db: Database, kind: CertificateKind, accountId: number, id: number): Promise<void> {
  const uses =
    kind === "ca"
      ? eq(cdnResources.proxySslCaId, id)
      : or(eq(cdnResources.sslDataId, id), eq(cdnResources.proxySslDataId, id));
  const field = kind === "ca" ? "proxy_ssl_ca" : "sslData or proxy_ssl_data";
  try {
    await db.transaction(async (tx) => {
      await lockCertificate(tx, kind, accountId, id);
      const users = await referringIds(tx, cdnResources, and(eq(cdnResources.accountId, accountId), uses));
      if (users) throw conflict(`${KIND_NAMES[kind]} ${id} is used by CDN resources (${users}, ${field}): switch them to another certificate first.`);
      await tx.delete(certificates).where(and(eq(certificates.accountId, accountId), eq(certificates.id, id)));
    });
  } catch (error) {
    // A resource took the certificate between our check and the delete.
    if (isForeignKeyViolation(error)) throw conflict(`${KIND_NAMES[kind]} ${id} is used by a CDN resource: switch it to another certificate first.`);
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Let's Encrypt issuing
// ---------------------------------------------------------------------------------------------

const NO_RESOURCE =
  "No CDN resource of the account served HTTPS with the certificate (sslData): attach it to a resource, then force a retry.";

/** Where an automated certificate's latest attempt is at `now`. */
function attemptOf(row: CertificateRow, now: Date) {
  const started = row.leStarted ?? row.created;
  const finished = new Date(started.getTime() + ATTEMPT_MS);
  const done = finished.getTime() <= now.getTime();
  return { started, finished, done, issued: done && row.leResourceId !== null, failed: done && row.leResourceId === null };
}

/** An SSL certificate as the API shows it at `now`. */
export function sslDetailOf(row: CertificateWithUse, now: Date): SslDetail {
  const issued = !row.automated || attemptOf(row, now).issued;
  const iso = (date: Date | null) => (issued && date ? date.toISOString() : null);
  return {
    id: row.id,
    name: row.name,
    deleted: false,
    cert_issuer: issued ? row.issuer : null,
    cert_subject_cn: issued ? row.subjectCn : null,
    cert_subject_alt: issued ? row.subjectAlt : null,
    validity_not_before: iso(row.notBefore),
    validity_not_after: iso(row.notAfter),
    hasRelatedResources: row.inUse,
    automated: row.automated,
    sslCertificateChain: row.automated ? null : row.chainPem,
  };
}

/** The issuing status of an automated certificate at `now`. */
function issuingStatusOf(row: CertificateRow, now: Date): SslRequestStatus {
  const attempt = attemptOf(row, now);
  const finished = attempt.done
    ? {
        id: row.leAttempts,
        status: attempt.issued ? ("Done" as const) : ("Failed" as const),
        created: attempt.started.toISOString(),
        error: attempt.issued ? null : "NoResource",
        details: attempt.issued ? null : NO_RESOURCE,
        retry_after: null,
      }
    : null;
  return {
    id: row.id,
    resource: row.leResourceId,
    active: !attempt.done,
    attempts_count: row.leAttempts,
    started: attempt.started.toISOString(),
    finished: attempt.done ? attempt.finished.toISOString() : null,
    next_attempt_time: null,
    latest_status: finished,
    statuses: finished ? [finished] : [],
  };
}

/**
 * The columns of a new issuing attempt started at `now`: for the account's first resource (by id) that
 * serves HTTPS with the certificate, whose cname and secondary host names the certificate is issued for.
 */
async function attemptColumns(tx: Transaction, accountId: number, certificateId: number | undefined, attempts: number, now: Date) {
  const [resource] =
    certificateId === undefined
      ? []
      : await tx
          .select({
            id: cdnResources.id,
            cname: cdnResources.cname,
            hostnames: sql<string[]>`coalesce((select array_agg(h.hostname order by h.position) from cdn_resource_hostnames h where h.resource_id = ${cdnResources.id}), '{}')`,
          })
          .from(cdnResources)
          .where(and(eq(cdnResources.accountId, accountId), eq(cdnResources.sslDataId, certificateId), eq(cdnResources.deleted, false)))
          .orderBy(asc(cdnResources.id))
          .limit(1);
  const issuedAt = new Date(now.getTime() + ATTEMPT_MS);
  return {
    leStarted: now,
    leAttempts: attempts,
    leResourceId: resource?.id ?? null,
    leCname: resource?.cname ?? null,
    chainPem: null,
    issuer: resource ? "Let's Encrypt R11" : null,
    subjectCn: resource?.cname ?? null,
    subjectAlt: resource ? [resource.cname, ...resource.hostnames].join(",") : null,
    notBefore: resource ? issuedAt : null,
    notAfter: resource ? new Date(issuedAt.getTime() + LE_VALIDITY_DAYS * DAY_MS) : null,
    updated: now,
  };
}

/** Starts a new issuing attempt (renew or forced retry), unless one is under way; `allowed` refuses the others. */
async function restartIssuing(db: Database, accountId: number, id: number, allowed: (row: CertificateRow, now: Date) => void): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await lockCertificate(tx, "ssl", accountId, id);
    const now = new Date();
    if (!row.automated) throw conflict(`SSL certificate ${id} was uploaded: it has no Let's Encrypt issuing. Replace it to change it.`);
    // An attempt under way is the one asked for.
    if (!attemptOf(row, now).done) return;
    allowed(row, now);
    await tx
      .update(certificates)
      .set(await attemptColumns(tx, accountId, id, row.leAttempts + 1, now))
      .where(and(eq(certificates.accountId, accountId), eq(certificates.id, id)));
  });
}

// ---------------------------------------------------------------------------------------------
// Routes
// ---------------------------------------------------------------------------------------------

/** The routes of SSL certificates. */
export function cdnCertificates({ db, secretsKey }: RouteDeps) {
  /** An uploaded certificate's columns and its encrypted key; 400 for a chain or key that does not do. */
  async function uploaded(body: { sslCertificate: string; sslPrivateKey: string; validate_root_ca?: boolean | undefined }, now: Date) {
    const chain = readChain("sslCertificate", body.sslCertificate, now);
    if (body.validate_root_ca) {
      const problem = chainProblem(chain);
      if (problem) throw invalid("sslCertificate", problem);
    }
    try {
      await checkPrivateKey(body.sslPrivateKey, chain[0]!.spki);
    } catch (error) {
      if (error instanceof PemProblem) throw invalid("sslPrivateKey", error.message);
      throw error;
    }
    return {
      columns: { ...pemColumns(body.sslCertificate, chain[0]!), validateRootCa: body.validate_root_ca ?? false, automated: false },
      key: await encryptSecret(secretsKey, body.sslPrivateKey),
    };
  }

  return tsr.routerWithMiddleware(served("cdn", cdnCertificatesRoutes))<RequestExtension>({
    listCertificates: async ({ query }, { request }) => {
      const now = new Date();
      const page = await listCertificates(db, "ssl", request.caller.accountId, request.url, query);
      return { status: 200, body: { count: page.count, next: page.next, previous: page.previous, results: page.rows.map((row) => sslDetailOf(row, now)) } };
    },

    createCertificate: async ({ body }, { request: { caller } }) => {
      const now = new Date();
      // Read and encrypted before the transaction, so that it holds its locks only for the write.
      const upload = "automated" in body ? undefined : await uploaded(body, now);
      const row = await withNameConflict("ssl", body.name, () =>
        db.transaction(async (tx) => {
          await assertNameFree(tx, "ssl", caller.accountId, body.name);
          const [inserted] = await tx
            .insert(certificates)
            .values({
              accountId: caller.accountId,
              name: body.name,
              kind: "ssl",
              created: now,
              ...(upload ? upload.columns : { automated: true, ...(await attemptColumns(tx, caller.accountId, undefined, 1, now)) }),
            })
            .returning();
          if (upload) await tx.insert(certificateKeys).values({ accountId: caller.accountId, certificateId: inserted!.id, privateKeyEncrypted: upload.key });
          return inserted!;
        }),
      );
      return { status: 201, body: sslDetailOf({ ...row, inUse: false }, now) };
    },

    getCertificate: async ({ params }, { request: { caller } }) => ({
      status: 200,
      body: sslDetailOf(await certificateWithUse(db, "ssl", caller.accountId, params.ssl_data_id), new Date()),
    }),

    getCertificateStatus: async ({ params, query }, { request: { caller } }) => {
      const row = await certificateWithUse(db, "ssl", caller.accountId, params.ssl_data_id);
      if (!row.automated) throw notFound(`A Let's Encrypt issuing of SSL certificate ${row.id} (it was uploaded)`);
      const status: Partial<SslRequestStatus> & { id: number } = issuingStatusOf(row, new Date());
      for (const field of query.exclude ?? []) delete status[field as keyof SslRequestStatus];
      return { status: 200, body: status };
    },

    renewCertificate: async ({ params }, { request: { caller } }) => {
      await restartIssuing(db, caller.accountId, params.ssl_data_id, () => undefined);
      return { status: 204, body: undefined };
    },

    forceRetryCertificate: async ({ params }, { request: { caller } }) => {
      await restartIssuing(db, caller.accountId, params.ssl_data_id, (row, now) => {
        if (attemptOf(row, now).issued) throw conflict(`SSL certificate ${row.id} was issued by its latest attempt: renew it instead.`);
      });
      return { status: 204, body: undefined };
    },

    replaceCertificate: async ({ params, body }, { request: { caller } }) => {
      const now = new Date();
      const upload = await uploaded(body, now);
      const row = await withNameConflict("ssl", body.name, () =>
        db.transaction(async (tx) => {
          const current = await lockCertificate(tx, "ssl", caller.accountId, params.ssl_data_id);
          await assertNameFree(tx, "ssl", caller.accountId, body.name, current.id);
          const [updated] = await tx
            .update(certificates)
            .set({ name: body.name, ...upload.columns, leStarted: null, leAttempts: 0, leResourceId: null, leCname: null, updated: now })
            .where(and(eq(certificates.accountId, caller.accountId), eq(certificates.id, current.id)))
            .returning();
          await tx
            .insert(certificateKeys)
            .values({ accountId: caller.accountId, certificateId: current.id, privateKeyEncrypted: upload.key })
            .onConflictDoUpdate({ target: certificateKeys.certificateId, set: { privateKeyEncrypted: upload.key } });
          return certificateWithUse(tx, "ssl", caller.accountId, updated!.id);
        }),
      );
      return { status: 200, body: sslDetailOf(row, now) };
    },

    deleteCertificate: async ({ params }, { request: { caller } }) => {
      await deleteCertificate(db, "ssl", caller.accountId, params.ssl_data_id);
      return { status: 204, body: undefined };
    },
  });
}
