/**
 * Cloud secrets: the TLS certificates a project keeps in a region for its load balancers (listed and read
 * at v1, uploaded at v2), made and deleted by tasks; their schemas and their routes.
 */
import { z } from "zod";
import { errorResponses, idParam, isoTimestamp, integer, pageOf, paging, strictObject, stringEnum, uuid, withBody } from "../common.js";
import { DEMO_SSL_CERTIFICATES, MAX_PEM_LENGTH } from "../cdn/certificates.js";
import type { ClientMetadata } from "../client-names.js";
import { route } from "../route.js";
import { uniqueName, type CaseWorld } from "../route-case.js";
import { taskIdList } from "./gpu-images.js";
import { DEMO_REGION_ID, isoInstant, read, write } from "./shared.js";

export const CLOUD_SECRET_TYPES = ["certificate", "opaque", "passphrase", "private", "public", "symmetric"] as const;

const cloudSecretSchema = z
  .object({
    id: uuid.describe("The secret id."),
    name: z.string().describe("The secret's name."),
    secret_type: stringEnum(CLOUD_SECRET_TYPES).describe('What the secret holds: "certificate" for an uploaded TLS certificate.'),
    status: z.string().describe('"ACTIVE" when it can be used.'),
    algorithm: z.string().nullable().describe("Informational metadata; null for an uploaded certificate."),
    bit_length: integer().nullable().describe("Informational metadata; null for an uploaded certificate."),
    mode: z.string().nullable().describe("Informational metadata; null for an uploaded certificate."),
    content_types: z.record(z.string()).nullable().describe('The content types the payload has: {"default": "text/plain"} for a certificate.'),
    created: isoTimestamp.nullable().describe("When the secret was uploaded."),
    expiration: isoTimestamp.nullable().describe("When the secret expires, as the upload said; null: it does not."),
  })
  .strict()
  .describe("A secret of a project in a region. Its payload (certificate, chain and private key) is never answered.");
export interface CloudSecretSchema extends CloudSecretSchemaType {}
type CloudSecretSchemaType = typeof cloudSecretSchema;
export const cloudSecret: CloudSecretSchema = cloudSecretSchema;
export type CloudSecret = z.infer<typeof cloudSecret>;

const cloudSecretListSchema = pageOf(cloudSecret, "secrets");
export interface CloudSecretListSchema extends CloudSecretListSchemaType {}
type CloudSecretListSchemaType = typeof cloudSecretListSchema;
export const cloudSecretList: CloudSecretListSchema = cloudSecretListSchema;
export type CloudSecretList = z.infer<typeof cloudSecretList>;

const pem = (what: string) => z.string().max(MAX_PEM_LENGTH, `At most ${MAX_PEM_LENGTH} characters.`).describe(`${what}, in PEM format; at most ${MAX_PEM_LENGTH} characters.`);

const uploadTlsCertificateBodySchema = strictObject(
  {
    name: z.string().min(1, "Must not be empty.").max(255, "At most 255 characters.").describe("The secret's name, 1 to 255 characters; names need not be unique."),
    payload: strictObject({
      certificate: pem("The certificate (one `-----BEGIN CERTIFICATE-----` block), valid now").min(1, "Must not be empty."),
      certificate_chain: pem('Its intermediate and root certificates, or "" when there are none'),
      private_key: pem("The certificate's unencrypted private key (PKCS#8, PKCS#1 or SEC1). A secret: kept encrypted, never answered").min(1, "Must not be empty."),
    }).describe("The certificate, its chain and its private key."),
    expiration: isoInstant("When the secret expires (ISO 8601; without a zone, UTC); must be in the future. Null or left out: never.")
      .nullable()
      .optional(),
  },
  { readOnly: ["id", "status", "secret_type", "created", "content_types", "algorithm", "bit_length", "mode"] },
).describe("The TLS certificate to keep: its name, its PEM payload and when it expires.");
export interface UploadTlsCertificateBodySchema extends UploadTlsCertificateBodySchemaType {}
type UploadTlsCertificateBodySchemaType = typeof uploadTlsCertificateBodySchema;
export const uploadTlsCertificateBody: UploadTlsCertificateBodySchema = uploadTlsCertificateBodySchema;
export type UploadTlsCertificateBody = z.input<typeof uploadTlsCertificateBody>;

const secretsPathParams = z.object({ project_id: idParam("The project id."), region_id: idParam("The region id.") });
const secretPathParams = secretsPathParams.extend({ secret_id: uuid.describe("The secret id, a UUID.") });

// The examples' objects: the demo data's, of account 1 (its TLS certificate in project 1, region 1).
const demoSecretId = "01822af6-09f2-4b2f-b85e-f5812ccb0b28";
const demoSecret: CloudSecret = {
  id: demoSecretId,
  name: "www-acme-example-tls",
  secret_type: "certificate",
  status: "ACTIVE",
  algorithm: null,
  bit_length: null,
  mode: null,
  content_types: { default: "text/plain" },
  created: "2026-05-05T09:01:00.000Z",
  expiration: "2027-05-05T09:01:00.000Z",
};

// The cases' secrets: those of the account's default project in the demo data's region.
const projectOf = (w: CaseWorld) => w.first("cloud.listProjects", { where: (project) => project.is_default === true });
const secretsPath = (w: CaseWorld) => `/cloud/v1/secrets/${projectOf(w).id}/${DEMO_REGION_ID}`;
const demoPair = (w: CaseWorld) => (w.account === 1 ? DEMO_SSL_CERTIFICATES.acme : DEMO_SSL_CERTIFICATES.globex);

const where = "The project must be the account's and the region must exist (404 otherwise).";

export const cloudSecretsRoutes = {
  listCloudSecrets: route({
    method: "GET",
    path: "/cloud/v1/secrets/:project_id/:region_id",
    pathParams: secretsPathParams,
    query: z.object(paging("secrets", 1000)),
    responses: { 200: cloudSecretList, ...errorResponses() },
    summary: "List secrets",
    description: `The secrets of a project in a region, ordered by name then id and paged by \`limit\` (default and at most 1000) and \`offset\`; \`count\` is the number of all of them. ${where}`,
    // The collection's path ends in the region, which the naming rule reads as an item.
    metadata: { ...read, client: { resource: "secrets", method: "list" } } satisfies ClientMetadata,
  }, {
    example: { pathParams: { project_id: 1, region_id: 1 }, query: { limit: 10, offset: 0 }, response: { count: 1, results: [demoSecret] } },
    case: { path: (w) => `${secretsPath(w)}?limit=10`, ownsObjects: true },
  }),
  getCloudSecret: route({
    method: "GET",
    path: "/cloud/v1/secrets/:project_id/:region_id/:secret_id",
    pathParams: secretPathParams,
    responses: { 200: cloudSecret, ...errorResponses() },
    summary: "Get a secret",
    description: `One secret of a project in a region, without its payload. ${where} A secret of another project or region answers 404.`,
    metadata: read,
  }, {
    example: { pathParams: { project_id: 1, region_id: 1, secret_id: demoSecretId }, response: demoSecret },
    case: { path: (w) => `${secretsPath(w)}/${w.first("cloud.listCloudSecrets", { params: { project_id: projectOf(w).id, region_id: DEMO_REGION_ID } }).id}`, ownsObjects: true },
  }),
  uploadTlsCertificate: route({
    method: "POST",
    path: "/cloud/v2/secrets/:project_id/:region_id",
    pathParams: secretsPathParams,
    body: uploadTlsCertificateBody,
    responses: { 200: taskIdList, ...errorResponses(withBody) },
    summary: "Upload a TLS certificate as a secret",
    description:
      "Keeps a TLS certificate, its chain and its private key as a secret of the project in the region, and answers the " +
      "id of its task (task_type create_secret), as the platform does. The certificate must be a PEM certificate valid " +
      "now, and the private key its own (400 `errors.payload.certificate` / `errors.payload.private_key` otherwise). The " +
      "secret is there when the answer arrives, and its id is the task's (also in the task's created_resources.secrets); " +
      "the task reports RUNNING for its first seconds, then FINISHED. The private key is encrypted at rest and never " +
      `answered. ${where}`,
    metadata: { ...write, client: { resource: "secrets", method: "uploadTlsCertificate" } } satisfies ClientMetadata,
  }, {
    example: {
      pathParams: { project_id: 1, region_id: 1 },
      body: {
        name: "shop-acme-example-tls",
        payload: { certificate: DEMO_SSL_CERTIFICATES.acme.pem, certificate_chain: "", private_key: DEMO_SSL_CERTIFICATES.acme.key },
        expiration: "2030-01-01T00:00:00Z",
      },
      response: { tasks: ["4c7d2e1f-8a9b-4c3d-9e5f-1a2b3c4d5e6f"] },
    },
    case: {
      path: (w) => `/cloud/v2/secrets/${projectOf(w).id}/${DEMO_REGION_ID}`,
      ownsObjects: true,
      body: (w) => ({ name: uniqueName("route-case-secret"), payload: { certificate: demoPair(w).pem, certificate_chain: "", private_key: demoPair(w).key } }),
    },
  }),
  deleteCloudSecret: route({
    method: "DELETE",
    path: "/cloud/v1/secrets/:project_id/:region_id/:secret_id",
    pathParams: secretPathParams,
    responses: { 200: taskIdList, ...errorResponses() },
    summary: "Delete a secret",
    description:
      "Deletes a secret of a project in a region and answers the id of its task (task_type delete_secret), as the " +
      `platform does; the secret is gone when the answer arrives, and the task reports RUNNING for its first seconds, then FINISHED. ${where}`,
    metadata: write,
  }, {
    example: { pathParams: { project_id: 1, region_id: 1, secret_id: demoSecretId }, response: { tasks: ["9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b"] } },
    case: {
      // An upload's task id is the new secret's id.
      path: (w, made) => `/cloud/v1/secrets/${projectOf(w).id}/${DEMO_REGION_ID}/${(made?.tasks as string[] | undefined)?.[0] ?? `00000000-0000-4000-8000-00000000002${w.account}`}`,
      ownsObjects: true,
      makes: "cloud.uploadTlsCertificate",
    },
  }),
} as const;
