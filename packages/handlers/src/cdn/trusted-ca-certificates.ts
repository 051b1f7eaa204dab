/**
 * Trusted CA certificates (`/cdn/sslCertificates`): the paged listing, create, get, rename and delete (409
 * while a CDN resource verifies its origin with one). They share certificates' table and helpers.
 */
import { cdnTrustedCaCertificatesRoutes, type CaCertificate } from "@cloudplane/contract";
import { and, eq, schema } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import type { RequestExtension, RouteDeps } from "../types.js";
import { served } from "../served.js";
import {
  assertNameFree,
  certificateWithUse,
  type CertificateWithUse,
  deleteCertificate,
  listCertificates,
  lockCertificate,
  pemColumns,
  readChain,
  withNameConflict,
} from "./certificates.js";

const { certificates } = schema;

/** A CA certificate as the API shows it. */
function caCertificateOf(row: CertificateWithUse): CaCertificate {
  return {
    id: row.id,
    name: row.name,
    deleted: false,
    cert_issuer: row.issuer ?? "",
    cert_subject_cn: row.subjectCn ?? "",
    cert_subject_alt: row.subjectAlt ?? "",
    validity_not_before: (row.notBefore ?? row.created).toISOString(),
    validity_not_after: (row.notAfter ?? row.created).toISOString(),
    hasRelatedResources: row.inUse,
    sslCertificateChain: row.chainPem ?? "",
  };
}

/** The routes of trusted CA certificates. */
export function cdnTrustedCaCertificates({ db }: RouteDeps) {
  return tsr.routerWithMiddleware(served("cdn", cdnTrustedCaCertificatesRoutes))<RequestExtension>({
    listCaCertificates: async ({ query }, { request }) => {
      const page = await listCertificates(db, "ca", request.caller.accountId, request.url, query);
      return { status: 200, body: { count: page.count, next: page.next, previous: page.previous, results: page.rows.map(caCertificateOf) } };
    },

    createCaCertificate: async ({ body }, { request: { caller } }) => {
      const now = new Date();
      const chain = readChain("sslCertificate", body.sslCertificate, now);
      const row = await withNameConflict("ca", body.name, () =>
        db.transaction(async (tx) => {
          await assertNameFree(tx, "ca", caller.accountId, body.name);
          const [inserted] = await tx
            .insert(certificates)
            .values({ accountId: caller.accountId, name: body.name, kind: "ca", created: now, updated: now, ...pemColumns(body.sslCertificate, chain[0]!) })
            .returning();
          return inserted!;
        }),
      );
      return { status: 201, body: caCertificateOf({ ...row, inUse: false }) };
    },

    getCaCertificate: async ({ params }, { request: { caller } }) => ({
      status: 200,
      body: caCertificateOf(await certificateWithUse(db, "ca", caller.accountId, params.id)),
    }),

    replaceCaCertificate: async ({ params, body }, { request: { caller } }) => {
      const row = await withNameConflict("ca", body.name, () =>
        db.transaction(async (tx) => {
          const current = await lockCertificate(tx, "ca", caller.accountId, params.id);
          await assertNameFree(tx, "ca", caller.accountId, body.name, current.id);
          await tx
            .update(certificates)
            .set({ name: body.name, updated: new Date() })
            .where(and(eq(certificates.accountId, caller.accountId), eq(certificates.id, current.id)));
          return certificateWithUse(tx, "ca", caller.accountId, current.id);
        }),
      );
      return { status: 200, body: caCertificateOf(row) };
    },

    deleteCaCertificate: async ({ params }, { request: { caller } }) => {
      await deleteCertificate(db, "ca", caller.accountId, params.id);
      return { status: 204, body: undefined };
    },
  });
}
