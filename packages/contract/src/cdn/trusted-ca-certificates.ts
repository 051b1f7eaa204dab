/**
 * Trusted CA certificates (`/cdn/sslCertificates`): the CA certificates a CDN resource verifies its origin's
 * certificate with (`proxy_ssl_ca`). The certificate, its bodies, the listing, and their routes.
 */
import { initContract } from "@ts-rest/core";
import { z } from "zod";
import type { ClientMetadata } from "../client-names.js";
import { errorResponses, idParam, integer, isoTimestamp, strictObject, withBody } from "../common.js";
import { route } from "../route.js";
import { missingId, uniqueName } from "../route-case.js";
import { certificateListQuery, MAX_PEM_LENGTH } from "./certificates.js";
import { ACME_ORIGIN_CA_PEM, DEMO_ISSUING_CA_PEM, GLOBEX_ORIGIN_CA_PEM } from "./demo-certificates.js";
import { linkedPageOf } from "./logs-uploader/shared.js";
import { CDN_PAGE_MAX, read, write } from "./shared.js";

const c = initContract();

const caCertificateSchema = z
  .object({
    id: integer(),
    name: z.string().describe("The CA certificate's name, unique among the account's CA certificates."),
    deleted: z.boolean().describe("Always false: a deleted certificate is gone (the platform's deprecated flag)."),
    cert_issuer: z.string().describe("The issuer's common name (or organization)."),
    cert_subject_cn: z.string().describe("The subject's common name."),
    cert_subject_alt: z.string().describe("The subject alternative names, comma-separated; empty when it has none."),
    validity_not_before: isoTimestamp.describe("When the certificate becomes valid."),
    validity_not_after: isoTimestamp.describe("When the certificate expires."),
    hasRelatedResources: z.boolean().describe("Whether a CDN resource of the account verifies its origin with it (proxy_ssl_ca)."),
    sslCertificateChain: z.string().describe("The certificate(s) as uploaded, in PEM format."),
  })
  .strict()
  .describe("A trusted CA certificate of the account: what a CDN resource verifies its origin's certificate with.");
export interface CaCertificateSchema extends CaCertificateSchemaType {}
type CaCertificateSchemaType = typeof caCertificateSchema;
export const caCertificate: CaCertificateSchema = caCertificateSchema;

export type CaCertificate = z.infer<typeof caCertificate>;

const caName = z.string().min(1).max(255).describe("The CA certificate's name, 1 to 255 characters, unique among the account's CA certificates (409 otherwise).");
const READ_ONLY = ["id", "deleted", "cert_issuer", "cert_subject_cn", "cert_subject_alt", "validity_not_before", "validity_not_after", "hasRelatedResources", "sslCertificateChain"];

const createCaCertificateBodySchema = strictObject(
  {
    name: caName,
    sslCertificate: z
      .string()
      .min(1)
      .max(MAX_PEM_LENGTH)
      .describe(`The CA certificate (or several, one \`-----BEGIN CERTIFICATE-----\` block each) in PEM format; at most ${MAX_PEM_LENGTH} characters.`),
  },
  { readOnly: READ_ONLY, rejected: { sslPrivateKey: "A CA certificate takes no private key." } },
).describe("A new trusted CA certificate: `name` and `sslCertificate`.");
export interface CreateCaCertificateBodySchema extends CreateCaCertificateBodySchemaType {}
type CreateCaCertificateBodySchemaType = typeof createCaCertificateBodySchema;
export const createCaCertificateBody: CreateCaCertificateBodySchema = createCaCertificateBodySchema;

export type CreateCaCertificateBody = z.input<typeof createCaCertificateBody>;

const replaceCaCertificateBodySchema = strictObject(
  { name: caName },
  { readOnly: READ_ONLY, rejected: { sslCertificate: "A CA certificate's content cannot be changed: add a new one and move the resources to it." } },
).describe("The CA certificate's new name; its content cannot be changed.");
export interface ReplaceCaCertificateBodySchema extends ReplaceCaCertificateBodySchemaType {}
type ReplaceCaCertificateBodySchemaType = typeof replaceCaCertificateBodySchema;
export const replaceCaCertificateBody: ReplaceCaCertificateBodySchema = replaceCaCertificateBodySchema;

export type ReplaceCaCertificateBody = z.input<typeof replaceCaCertificateBody>;

const listCaCertificatesQuerySchema = certificateListQuery("CA certificates");
export interface ListCaCertificatesQuerySchema extends ListCaCertificatesQuerySchemaType {}
type ListCaCertificatesQuerySchemaType = typeof listCaCertificatesQuerySchema;
export const listCaCertificatesQuery: ListCaCertificatesQuerySchema = listCaCertificatesQuerySchema;

const caCertificateListSchema = linkedPageOf(caCertificate, "CA certificates");
export interface CaCertificateListSchema extends CaCertificateListSchemaType {}
type CaCertificateListSchemaType = typeof caCertificateListSchema;
export const caCertificateList: CaCertificateListSchema = caCertificateListSchema;

export type CaCertificateList = z.infer<typeof caCertificateList>;

// ---------------------------------------------------------------------------------------------
// Routes
// ---------------------------------------------------------------------------------------------

const caParams = z.object({ id: idParam("The CA certificate id.") });

/** `/cdn/sslCertificates` is the account's trusted CA certificates. */
const client = { resource: "trustedCaCertificates" };

// The examples' objects: the demo data's, of account 1.
const acmeOriginCa: CaCertificate = {
  id: 3,
  name: "Acme origin CA",
  deleted: false,
  cert_issuer: "Acme Origin CA",
  cert_subject_cn: "Acme Origin CA",
  cert_subject_alt: "",
  validity_not_before: "2026-11-26T20:39:57.000Z",
  validity_not_after: "2036-11-23T20:39:57.000Z",
  hasRelatedResources: true,
  sslCertificateChain: ACME_ORIGIN_CA_PEM,
};
const legacyCa: CaCertificate = {
  id: 7,
  name: "Acme legacy CA",
  deleted: false,
  cert_issuer: "Demo Issuing CA R1",
  cert_subject_cn: "Demo Issuing CA R1",
  cert_subject_alt: "",
  validity_not_before: "2026-11-26T20:39:57.000Z",
  validity_not_after: "2036-11-23T20:39:57.000Z",
  hasRelatedResources: false,
  sslCertificateChain: DEMO_ISSUING_CA_PEM,
};

const PEM_RULES =
  "The text must hold PEM certificates only (400 `errors.sslCertificate` otherwise); the names and validity shown are the first's.";

/** The routes of trusted CA certificates. */
export const cdnTrustedCaCertificatesRoutes = {
  listCaCertificates: route({
    method: "GET",
    path: "/cdn/sslCertificates",
    query: listCaCertificatesQuery,
    responses: { 200: caCertificateList, ...errorResponses() },
    summary: "List trusted CA certificates",
    description:
      "The account's trusted CA certificates that match every filter given: `resource_id` (the one the resource verifies its " +
      "origin with), `validity_not_after_lte`, and `automated` (CA certificates are always uploaded: `automated=true` finds none). " +
      `Paged by \`limit\` (default and at most ${CDN_PAGE_MAX}) and \`offset\`, in ascending id order, with \`count\`, \`next\` and \`previous\`.`,
    metadata: { ...read, client } satisfies ClientMetadata,
  }, {
    example: { query: { limit: 10 }, response: { count: 2, next: null, previous: null, results: [acmeOriginCa, legacyCa] } },
    case: { path: () => "/cdn/sslCertificates", ownsObjects: false },
  }),
  createCaCertificate: route({
    method: "POST",
    path: "/cdn/sslCertificates",
    body: createCaCertificateBody,
    responses: { 201: caCertificate, ...errorResponses([...withBody, 409]) },
    summary: "Add a trusted CA certificate",
    description: `Adds a CA certificate that CDN resources may verify their origins with (\`proxy_ssl_ca\`). ${PEM_RULES} A name the account's CA certificates already have is 409. Answers 201 with the certificate.`,
    metadata: { ...write, client } satisfies ClientMetadata,
  }, {
    example: {
      body: { name: "Acme staging CA", sslCertificate: DEMO_ISSUING_CA_PEM },
      response: { ...legacyCa, id: 10, name: "Acme staging CA" },
    },
    case: {
      path: () => "/cdn/sslCertificates",
      ownsObjects: false,
      body: (w) => ({ name: uniqueName("route-case-ca"), sslCertificate: w.account === 1 ? ACME_ORIGIN_CA_PEM : GLOBEX_ORIGIN_CA_PEM }),
    },
  }),
  getCaCertificate: route({
    method: "GET",
    path: "/cdn/sslCertificates/:id",
    pathParams: caParams,
    responses: { 200: caCertificate, ...errorResponses() },
    summary: "Get a trusted CA certificate",
    description: "One trusted CA certificate of the account.",
    metadata: { ...read, client } satisfies ClientMetadata,
  }, {
    example: { pathParams: { id: 3 }, response: acmeOriginCa },
    case: { path: (w) => `/cdn/sslCertificates/${w.first("cdn.listCaCertificates").id}`, ownsObjects: true },
  }),
  replaceCaCertificate: route({
    method: "PUT",
    path: "/cdn/sslCertificates/:id",
    pathParams: caParams,
    body: replaceCaCertificateBody,
    responses: { 200: caCertificate, ...errorResponses([...withBody, 409]) },
    summary: "Rename a trusted CA certificate",
    description: "Changes the CA certificate's name, the only writable field (its content cannot change). A name another CA certificate of the account has is 409.",
    metadata: { ...write, client } satisfies ClientMetadata,
  }, {
    example: { pathParams: { id: 7 }, body: { name: "Acme retired CA" }, response: { ...legacyCa, name: "Acme retired CA" } },
    case: {
      path: (w, made) => `/cdn/sslCertificates/${made?.id ?? missingId(w.account)}`,
      ownsObjects: true,
      makes: "cdn.createCaCertificate",
      body: () => ({ name: uniqueName("route-case-ca-renamed") }),
    },
  }),
  deleteCaCertificate: route({
    method: "DELETE",
    path: "/cdn/sslCertificates/:id",
    pathParams: caParams,
    responses: { 204: c.noBody(), ...errorResponses([409]) },
    summary: "Delete a trusted CA certificate",
    description:
      "Deletes the CA certificate. 409 while a CDN resource of the account verifies its origin with it (`proxy_ssl_ca`); " +
      "nothing is changed then. Answers 204 with no body.",
    metadata: { ...write, client } satisfies ClientMetadata,
  }, {
    example: { pathParams: { id: 7 } },
    case: { path: (w, made) => `/cdn/sslCertificates/${made?.id ?? missingId(w.account)}`, ownsObjects: true, makes: "cdn.createCaCertificate" },
  }),
} as const;
