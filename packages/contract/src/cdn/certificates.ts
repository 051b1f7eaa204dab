/**
 * SSL certificates (`/cdn/sslData`): the certificates CDN resources serve HTTPS with, uploaded (with their
 * private key) or issued by Let's Encrypt for the account. The certificate, its bodies, the listing, the
 * issuing status, and their routes.
 */
import { initContract } from "@ts-rest/core";
import { z } from "zod";
import type { ClientMetadata } from "../client-names.js";
import { booleanQuery, emptyInput, errorResponses, idParam, integer, isoTimestamp, listOf, paging, strictObject, withBody } from "../common.js";
import { route } from "../route.js";
import { missingId, uniqueName } from "../route-case.js";
import { linkedPageOf } from "./logs-uploader/shared.js";
import { CDN_PAGE_MAX, read, write } from "./shared.js";
import { ACME_CERTIFICATE_PEM, ACME_PRIVATE_KEY_PEM, GLOBEX_CERTIFICATE_PEM, GLOBEX_PRIVATE_KEY_PEM } from "./demo-certificates.js";
import type { CaseWorld } from "../route-case.js";

const c = initContract();

/** The body of an action that takes no input: none, or `{}` (any field is refused). */

/** The most bytes of PEM text a certificate chain or a private key may have. */
export const MAX_PEM_LENGTH = 65_536;

/** How long a Let's Encrypt issuing attempt takes here, in seconds, and how long an issued certificate is valid, in days. */
export const LE_ATTEMPT_SECONDS = 60;
export const LE_VALIDITY_DAYS = 90;

const sslDetailSchema = z
  .object({
    id: integer(),
    name: z.string().describe("The certificate's name, unique among the account's SSL certificates."),
    deleted: z.boolean().describe("Always false: a deleted certificate is gone (the platform's deprecated flag)."),
    cert_issuer: z.string().nullable().describe("The issuer's common name (or organization); null for a Let's Encrypt certificate not issued yet."),
    cert_subject_cn: z.string().nullable().describe("The subject's common name; null for a Let's Encrypt certificate not issued yet."),
    cert_subject_alt: z.string().nullable().describe("The subject alternative names (DNS names and IPv4 addresses), comma-separated; null when not issued yet."),
    validity_not_before: isoTimestamp.nullable().describe("When the certificate becomes valid; null for a Let's Encrypt certificate not issued yet."),
    validity_not_after: isoTimestamp.nullable().describe("When the certificate expires; null for a Let's Encrypt certificate not issued yet."),
    hasRelatedResources: z.boolean().describe("Whether a CDN resource of the account uses the certificate (sslData or proxy_ssl_data)."),
    automated: z.boolean().describe("true: issued by Let's Encrypt for the account; false: uploaded."),
    sslCertificateChain: z.string().nullable().describe("The certificate chain as uploaded (public certificates only); null for a Let's Encrypt certificate."),
  })
  .strict()
  .describe("An SSL certificate of the account. Its private key is never returned.");
export interface SslDetailSchema extends SslDetailSchemaType {}
type SslDetailSchemaType = typeof sslDetailSchema;
export const sslDetail: SslDetailSchema = sslDetailSchema;

export type SslDetail = z.infer<typeof sslDetail>;

const certificateName = z.string().min(1).max(255).describe("The certificate's name, 1 to 255 characters, unique among the account's SSL certificates (409 otherwise).");
const pemText = (what: string) => z.string().min(1).max(MAX_PEM_LENGTH).describe(`${what}, in PEM format; at most ${MAX_PEM_LENGTH} characters.`);

const uploadedCertificateFields = {
  name: certificateName,
  sslCertificate: pemText("The certificate followed by its chain (intermediates), each a `-----BEGIN CERTIFICATE-----` block"),
  sslPrivateKey: pemText("The certificate's private key, unencrypted: PKCS#8, PKCS#1 (RSA) or SEC1 (EC); RSA or EC on P-256, P-384 or P-521. A secret: kept encrypted, never returned"),
  validate_root_ca: z
    .boolean()
    .optional()
    .describe(
      "true: the chain must be complete and in order (each certificate issued by the next) and the certificate must not be " +
        "self-signed. Default false. The chain is checked by its names; no trust store is consulted here.",
    ),
};

const READ_ONLY = ["id", "deleted", "cert_issuer", "cert_subject_cn", "cert_subject_alt", "validity_not_before", "validity_not_after", "hasRelatedResources", "sslCertificateChain"];

const createCertificateBodySchema = z
  .union([
    strictObject(uploadedCertificateFields, { readOnly: READ_ONLY, rejected: { automated: "An uploaded certificate takes no `automated`; to have one issued, send only `name` and `automated: true`." } }),
    strictObject(
      {
        name: certificateName,
        automated: z.literal(true, { errorMap: () => ({ message: "Must be true: the certificate is issued by Let's Encrypt." }) }).describe("true: have Let's Encrypt issue the certificate."),
      },
      { readOnly: READ_ONLY },
    ),
  ])
  .describe(
    "Either an uploaded certificate (`name`, `sslCertificate`, `sslPrivateKey`, optional `validate_root_ca`) or a Let's Encrypt " +
      "one (`name` and `automated: true`).",
  );
export interface CreateCertificateBodySchema extends CreateCertificateBodySchemaType {}
type CreateCertificateBodySchemaType = typeof createCertificateBodySchema;
export const createCertificateBody: CreateCertificateBodySchema = createCertificateBodySchema;

export type CreateCertificateBody = z.input<typeof createCertificateBody>;

const replaceCertificateBodySchema = strictObject(uploadedCertificateFields, { readOnly: [...READ_ONLY, "automated"] }).describe(
  "The certificate to serve from now on: `name`, `sslCertificate` and `sslPrivateKey`, optional `validate_root_ca`.",
);
export interface ReplaceCertificateBodySchema extends ReplaceCertificateBodySchemaType {}
type ReplaceCertificateBodySchemaType = typeof replaceCertificateBodySchema;
export const replaceCertificateBody: ReplaceCertificateBodySchema = replaceCertificateBodySchema;

export type ReplaceCertificateBody = z.input<typeof replaceCertificateBody>;

/** The query of both certificate listings (SSL and CA). */
export function certificateListQuery(what: string) {
  return z.object({
    automated: booleanQuery(`${what} issued by Let's Encrypt (true) or uploaded (false).`).optional(),
    resource_id: idParam(`${what} that this CDN resource of the account uses.`).optional(),
    validity_not_after_lte: isoTimestamp.optional().describe(`${what} that expire at or before this time (ISO 8601, UTC); not-yet-issued ones are left out.`),
    ...paging("certificates", CDN_PAGE_MAX),
  });
}

const listCertificatesQuerySchema = certificateListQuery("Certificates");
export interface ListCertificatesQuerySchema extends ListCertificatesQuerySchemaType {}
type ListCertificatesQuerySchemaType = typeof listCertificatesQuerySchema;
export const listCertificatesQuery: ListCertificatesQuerySchema = listCertificatesQuerySchema;

export type ListCertificatesQuery = z.input<typeof listCertificatesQuery>;

const sslDetailListSchema = linkedPageOf(sslDetail, "SSL certificates");
export interface SslDetailListSchema extends SslDetailListSchemaType {}
type SslDetailListSchemaType = typeof sslDetailListSchema;
export const sslDetailList: SslDetailListSchema = sslDetailListSchema;

export type SslDetailList = z.infer<typeof sslDetailList>;

const issuingAttempt = {
  id: integer().describe("The attempt's number, from 1."),
  status: z.enum(["Done", "Failed"]).describe("Done: the certificate was issued; Failed: it was not."),
  created: isoTimestamp.describe("When the attempt started."),
  error: z.string().nullable().describe("What went wrong, in a word (NoResource); null for Done."),
  details: z.string().nullable().describe("What went wrong and what to do, in a sentence; null for Done."),
  retry_after: isoTimestamp.nullable().describe("Always null here: Let's Encrypt's rate limits are not met in this API."),
};

const sslRequestStatusSchema = z
  .object({
    id: integer().describe("The issuing process's id: the certificate's."),
    resource: integer().nullable().describe("The CDN resource the latest attempt issued for: the account's first resource that served HTTPS with the certificate then; null when none did."),
    active: z.boolean().describe("true while the latest attempt is under way."),
    attempts_count: integer().describe("How many attempts were made: the creation, each renew and each forced retry made one."),
    started: isoTimestamp.describe("When the latest attempt started."),
    finished: isoTimestamp.nullable().describe("When the latest attempt finished; null while it is under way."),
    next_attempt_time: isoTimestamp.nullable().describe("Always null: attempts are made on the creation, a renew or a forced retry, never on their own."),
    latest_status: z.object(issuingAttempt).strict().nullable().describe("The latest attempt, once finished; null while it is under way."),
    statuses: z.array(z.object(issuingAttempt).strict()).describe("The finished attempts that are kept: the latest, once finished."),
  })
  .strict()
  .describe(
    `The Let's Encrypt issuing of an automated certificate. An attempt takes ${LE_ATTEMPT_SECONDS} seconds; it issues the certificate (Done) ` +
      "when a CDN resource of the account serves HTTPS with the certificate (its `sslData`) as the attempt starts, and fails with " +
      "NoResource otherwise.",
  );
export interface SslRequestStatusSchema extends SslRequestStatusSchemaType {}
type SslRequestStatusSchemaType = typeof sslRequestStatusSchema;
export const sslRequestStatus: SslRequestStatusSchema = sslRequestStatusSchema;

export type SslRequestStatus = z.infer<typeof sslRequestStatus>;

/** The issuing status's fields but its id: what `exclude` may leave out. */
const EXCLUDABLE = ["resource", "active", "attempts_count", "started", "finished", "next_attempt_time", "latest_status", "statuses"] as const satisfies readonly Exclude<
  keyof SslRequestStatus,
  "id"
>[];
type Excludable = (typeof EXCLUDABLE)[number];

/** The fields `exclude` may name: the parameter repeated or comma-separated (a preprocess, typed as the list it gives). */
const excludedFields = z.preprocess(
  (value) => (typeof value === "string" ? value.split(",") : value),
  listOf(z.enum(EXCLUDABLE), {
    max: EXCLUDABLE.length,
    noun: "fields",
    description: `Fields left out of the answer: the parameter repeated or comma-separated, any of ${EXCLUDABLE.join(", ")}.`,
  }),
) as unknown as z.ZodType<Excludable[], z.ZodTypeDef, Excludable[]>;

const statusQuerySchema = z.object({ exclude: excludedFields.optional() });
export interface CertificateStatusQuerySchema extends CertificateStatusQuerySchemaType {}
type CertificateStatusQuerySchemaType = typeof statusQuerySchema;
export const certificateStatusQuery: CertificateStatusQuerySchema = statusQuerySchema;

/** The answer of the status route: the issuing status, less the fields `exclude` names. */
const sslRequestStatusAnswer = sslRequestStatusSchema.partial().required({ id: true }).describe(sslRequestStatusSchema.description!);

// ---------------------------------------------------------------------------------------------
// Routes
// ---------------------------------------------------------------------------------------------

const sslDataParams = z.object({ ssl_data_id: idParam("The SSL certificate id.") });

/** `/cdn/sslData` is the account's SSL certificates. */
const client = (method?: string) => ({ resource: "certificates", ...(method ? { method } : {}) });

/** The cases' automated certificate: the account's first. */
const automatedOf = (w: CaseWorld) => w.first("cdn.listCertificates", { query: "automated=true" });

const PEM_RULES =
  "The certificate must be valid now (not expired, not before its start), and the private key must be the certificate's " +
  "(400 `errors.sslPrivateKey` otherwise); a text that is not a PEM certificate is 400 `errors.sslCertificate`. The subject, " +
  "issuer, alternative names and validity are read from the first certificate of the chain.";

// The examples' objects: the demo data's, of account 1.
const acmeCertificate: SslDetail = {
  id: 1,
  name: "wildcard.acme.example",
  deleted: false,
  cert_issuer: "Demo Issuing CA R1",
  cert_subject_cn: "*.acme.example",
  cert_subject_alt: "*.acme.example,acme.example",
  validity_not_before: "2026-11-26T20:39:57.000Z",
  validity_not_after: "2027-12-31T20:39:57.000Z",
  hasRelatedResources: true,
  automated: false,
  sslCertificateChain: ACME_CERTIFICATE_PEM,
};
const leCertificate: SslDetail = {
  id: 5,
  name: "le-video.acme.example",
  deleted: false,
  cert_issuer: null,
  cert_subject_cn: null,
  cert_subject_alt: null,
  validity_not_before: null,
  validity_not_after: null,
  hasRelatedResources: false,
  automated: true,
  sslCertificateChain: null,
};

/** The demo SSL certificates of the other account, for docs that show both. */
export const DEMO_SSL_CERTIFICATES = { acme: { pem: ACME_CERTIFICATE_PEM, key: ACME_PRIVATE_KEY_PEM }, globex: { pem: GLOBEX_CERTIFICATE_PEM, key: GLOBEX_PRIVATE_KEY_PEM } };

/**
 * The routes of SSL certificates. The issuing routes come before the item's own, so that the examples, run in
 * this order, find the Let's Encrypt certificate before the replace example turns one into an uploaded one.
 */
export const cdnCertificatesRoutes = {
  listCertificates: route({
    method: "GET",
    path: "/cdn/sslData",
    query: listCertificatesQuery,
    responses: { 200: sslDetailList, ...errorResponses() },
    summary: "List SSL certificates",
    description:
      "The account's SSL certificates that match every filter given: `automated`, `resource_id` (those the resource serves " +
      "HTTPS or connects to its origin with) and `validity_not_after_lte`. Paged by `limit` (default and at most " +
      `${CDN_PAGE_MAX}) and \`offset\`, in ascending id order; \`count\` is the number of all matches, \`next\` and \`previous\` ` +
      "the URLs of the pages around. Private keys are never returned.",
    metadata: { ...read, client: client() } satisfies ClientMetadata,
  }, {
    example: { query: { automated: false, limit: 10 }, response: { count: 1, next: null, previous: null, results: [acmeCertificate] } },
    case: { path: () => "/cdn/sslData?automated=false", ownsObjects: false },
  }),
  createCertificate: route({
    method: "POST",
    path: "/cdn/sslData",
    body: createCertificateBody,
    responses: { 201: sslDetail, ...errorResponses([...withBody, 409]) },
    summary: "Add an SSL certificate",
    description:
      "Uploads a certificate with its chain and private key, or (`automated: true`) has Let's Encrypt issue one: an issuing " +
      `attempt starts at once and takes ${LE_ATTEMPT_SECONDS} seconds; it issues the certificate for the account's first CDN ` +
      "resource that serves HTTPS with it (`sslData`), and fails when none does, so attach it to a resource and retry " +
      `(force-retry). ${PEM_RULES} The private key is encrypted at rest and never returned. A name the account's SSL ` +
      "certificates already have is 409. Answers 201 with the certificate.",
    metadata: { ...write, client: client() } satisfies ClientMetadata,
  }, {
    example: {
      body: { name: "le-downloads.acme.example", automated: true },
      response: { ...leCertificate, id: 9, name: "le-downloads.acme.example" },
    },
    case: {
      path: () => "/cdn/sslData",
      ownsObjects: false,
      body: (w) => ({ name: uniqueName("route-case-certificate"), ...(w.account === 1 ? { sslCertificate: ACME_CERTIFICATE_PEM, sslPrivateKey: ACME_PRIVATE_KEY_PEM } : { sslCertificate: GLOBEX_CERTIFICATE_PEM, sslPrivateKey: GLOBEX_PRIVATE_KEY_PEM }) }),
    },
  }),
  getCertificateStatus: route({
    method: "GET",
    path: "/cdn/sslData/:ssl_data_id/status",
    pathParams: sslDataParams,
    query: certificateStatusQuery,
    responses: { 200: sslRequestStatusAnswer, ...errorResponses() },
    summary: "Get a Let's Encrypt certificate's issuing status",
    description:
      `The latest Let's Encrypt issuing attempt of an automated certificate: under way for ${LE_ATTEMPT_SECONDS} seconds after it ` +
      "started, then Done (issued for the CDN resource that served HTTPS with the certificate as it started) or Failed " +
      "(NoResource: no resource did). `exclude` leaves fields out. An uploaded certificate has no issuing: 404.",
    metadata: { ...read, client: client("getStatus") } satisfies ClientMetadata,
  }, {
    example: {
      pathParams: { ssl_data_id: 5 },
      response: {
        id: 5,
        resource: null,
        active: false,
        attempts_count: 1,
        started: "2026-01-14T10:00:00.000Z",
        finished: "2026-01-14T10:01:00.000Z",
        next_attempt_time: null,
        latest_status: {
          id: 1,
          status: "Failed",
          created: "2026-01-14T10:00:00.000Z",
          error: "NoResource",
          details: "No CDN resource of the account served HTTPS with the certificate (sslData): attach it to a resource, then force a retry.",
          retry_after: null,
        },
        statuses: [
          {
            id: 1,
            status: "Failed",
            created: "2026-01-14T10:00:00.000Z",
            error: "NoResource",
            details: "No CDN resource of the account served HTTPS with the certificate (sslData): attach it to a resource, then force a retry.",
            retry_after: null,
          },
        ],
      },
    },
    case: { path: (w) => `/cdn/sslData/${automatedOf(w).id}/status`, ownsObjects: true },
  }),
  renewCertificate: route({
    method: "POST",
    path: "/cdn/sslData/:ssl_data_id/renew",
    pathParams: sslDataParams,
    body: emptyInput(),
    responses: { 204: c.noBody(), ...errorResponses([...withBody, 409]) },
    summary: "Renew a Let's Encrypt certificate",
    description:
      "Starts a new issuing attempt of an automated certificate (see its status). While an attempt is under way, the renew is " +
      "that attempt: 204, nothing changes. An uploaded certificate cannot be renewed here (409): replace it. Answers 204 with no body.",
    metadata: { ...write, client: client("renew") } satisfies ClientMetadata,
  }, {
    example: { pathParams: { ssl_data_id: 5 }, body: {} },
    case: { path: (w) => `/cdn/sslData/${automatedOf(w).id}/renew`, ownsObjects: true },
  }),
  forceRetryCertificate: route({
    method: "POST",
    path: "/cdn/sslData/:ssl_data_id/force-retry",
    pathParams: sslDataParams,
    body: emptyInput(),
    responses: { 204: c.noBody(), ...errorResponses([...withBody, 409]) },
    summary: "Retry a failed Let's Encrypt issuing",
    description:
      "Starts a new issuing attempt of an automated certificate whose latest attempt failed. While an attempt is under way, " +
      "the retry is that attempt: 204, nothing changes. 409 when the latest attempt issued the certificate (renew it instead) " +
      "or the certificate was uploaded. Answers 204 with no body.",
    metadata: { ...write, client: client("forceRetry") } satisfies ClientMetadata,
  }, {
    example: { pathParams: { ssl_data_id: 5 }, body: {} },
    case: { path: (w) => `/cdn/sslData/${automatedOf(w).id}/force-retry`, ownsObjects: true },
  }),
  getCertificate: route({
    method: "GET",
    path: "/cdn/sslData/:ssl_data_id",
    pathParams: sslDataParams,
    responses: { 200: sslDetail, ...errorResponses() },
    summary: "Get an SSL certificate",
    description: "One SSL certificate of the account, without its private key.",
    metadata: { ...read, client: client() } satisfies ClientMetadata,
  }, {
    example: { pathParams: { ssl_data_id: 1 }, response: acmeCertificate },
    case: { path: (w) => `/cdn/sslData/${w.first("cdn.listCertificates", { query: "automated=false" }).id}`, ownsObjects: true },
  }),
  replaceCertificate: route({
    method: "PUT",
    path: "/cdn/sslData/:ssl_data_id",
    pathParams: sslDataParams,
    body: replaceCertificateBody,
    responses: { 200: sslDetail, ...errorResponses([...withBody, 409]) },
    summary: "Replace an SSL certificate",
    description:
      `Replaces the certificate, its chain and its private key (and its name); the CDN resources that use it serve the new one at once. ${PEM_RULES} ` +
      "A Let's Encrypt certificate replaced so becomes an uploaded one. A name another SSL certificate of the account has is 409.",
    metadata: { ...write, client: client() } satisfies ClientMetadata,
  }, {
    example: {
      pathParams: { ssl_data_id: 1 },
      body: { name: "wildcard.acme.example", sslCertificate: ACME_CERTIFICATE_PEM, sslPrivateKey: ACME_PRIVATE_KEY_PEM },
      response: acmeCertificate,
    },
    case: {
      path: (w, made) => `/cdn/sslData/${made?.id ?? missingId(w.account)}`,
      ownsObjects: true,
      makes: "cdn.createCertificate",
      body: (w) => ({ name: uniqueName("route-case-replaced"), ...(w.account === 1 ? { sslCertificate: ACME_CERTIFICATE_PEM, sslPrivateKey: ACME_PRIVATE_KEY_PEM } : { sslCertificate: GLOBEX_CERTIFICATE_PEM, sslPrivateKey: GLOBEX_PRIVATE_KEY_PEM }) }),
    },
  }),
  deleteCertificate: route({
    method: "DELETE",
    path: "/cdn/sslData/:ssl_data_id",
    pathParams: sslDataParams,
    responses: { 204: c.noBody(), ...errorResponses([409]) },
    summary: "Delete an SSL certificate",
    description:
      "Deletes the certificate and its private key. 409 while a CDN resource of the account uses it (`sslData` or " +
      "`proxy_ssl_data`; switch the resources to another certificate first); nothing is changed then. Answers 204 with no body.",
    metadata: { ...write, client: client() } satisfies ClientMetadata,
  }, {
    // The certificate the create example made: the demo's Let's Encrypt one is the status examples'.
    example: { pathParams: { ssl_data_id: 9 } },
    case: { path: (w, made) => `/cdn/sslData/${made?.id ?? missingId(w.account)}`, ownsObjects: true, makes: "cdn.createCertificate" },
  }),
} as const;
