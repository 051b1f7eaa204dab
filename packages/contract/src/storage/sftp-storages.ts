/**
 * SFTP storages at the platform's current paths (`/storage/v4/sftp_storages`): the account's SFTP file
 * stores (listing, details, creation, change, deletion), their password and the SSH keys they let in;
 * their schemas and routes. The same storages as the older `/storage/provisioning` routes show.
 */
import { initContract } from "@ts-rest/core";
import { z } from "zod";
import { errorResponses, integer, isHostname, listOf, pageOf, strictObject, stringEnum, withBody, idParam } from "../common.js";
import { route } from "../route.js";
import { missingId, uniqueName } from "../route-case.js";
import { SFTP_STORAGE_LOCATIONS } from "./locations.js";
import { storageV4Fields, storageV4ListQuery, storageV4Name } from "./object-storages.js";
import { read, write } from "./shared.js";
import { storageExpiry } from "./storages.js";

const c = initContract();

const sftpStorageIdParams = z.object({ sftp_storage_id: idParam("The SFTP storage id; it must belong to the account.") });

/** The most SSH keys an SFTP storage lets in. */
export const SFTP_SSH_KEYS_MAX = 100;

const sftpStorageSchema = z
  .object({
    ...storageV4Fields,
    expires: z.string().describe("When the storage expires, UTC (ISO 8601); an empty string: never. This API records it and does not delete the storage when it passes."),
    server_alias: z.string().describe("A custom host name clients may reach the storage at, lower case; an empty string: none."),
    has_password: z.boolean().describe("Whether the storage takes a password (besides its SSH keys)."),
    is_http_disabled: z.boolean().describe("Whether plain HTTP access is off (HTTPS only)."),
    has_custom_config_file: z.boolean().describe("Whether the storage uses a custom server configuration file."),
    ssh_key_ids: z.array(integer()).describe("The SSH keys the storage lets in, by id, ascending."),
    password: z
      .string()
      .nullable()
      .describe(
        "The password `password_mode: auto` has just generated, shown in that answer only; null in every other answer (a password is never shown again, and one the caller set is not echoed).",
      ),
  })
  .strict()
  .describe("An SFTP storage. Its password is a secret, kept encrypted and never shown after it is generated.");
export interface SftpStorageSchema extends SftpStorageSchemaType {}
type SftpStorageSchemaType = typeof sftpStorageSchema;
export const sftpStorage: SftpStorageSchema = sftpStorageSchema;

export type SftpStorage = z.infer<typeof sftpStorage>;

const sftpStorageListSchema = pageOf(sftpStorage, "SFTP storages");
export interface SftpStorageListSchema extends SftpStorageListSchemaType {}
type SftpStorageListSchemaType = typeof sftpStorageListSchema;
export const sftpStorageList: SftpStorageListSchema = sftpStorageListSchema;

const expiresField = () =>
  z
    .string()
    .max(200, "At most 200 characters.")
    .superRefine((value, ctx) => {
      if (value === "") return;
      const expiry = storageExpiry(value, new Date());
      if ("error" in expiry) ctx.addIssue({ code: z.ZodIssueCode.custom, message: expiry.error });
    });
const EXPIRES =
  "When the storage expires: a duration from now such as `30 days` or `2 years 6 months` (years, months, weeks, days, hours, " +
  "minutes, seconds; years and months by the calendar, in UTC), or a time with its offset such as `2027-01-01T00:00:00Z`; " +
  "after now and at most 100 years ahead.";

const aliasField = () =>
  z
    .string()
    .max(253, "At most 253 characters.")
    .refine((value) => value === "" || isHostname(value), { message: "Must be a host name such as files.example.com; empty removes the alias." });
const ALIAS = "A custom host name clients may reach the storage at, such as `files.example.com`; kept in lower case, unique on the platform (409 when any storage has it).";

const sshKeyIds = () =>
  listOf(idParam("An SSH key id of the account."), { max: SFTP_SSH_KEYS_MAX, noun: "SSH keys", description: "The SSH keys of the account the storage lets in, by id (each must exist: 400 naming it otherwise)." });

const createSftpStorageBodySchema = strictObject(
  {
    name: storageV4Name.describe("The storage name: 1 to 255 letters, digits, hyphens and underscores, unique among the account's storages (409 otherwise)."),
    location_name: stringEnum(SFTP_STORAGE_LOCATIONS).describe("The location to make the storage in: one whose type is `sftp`."),
    password_mode: stringEnum(["auto", "set", "none"]).describe(
      "`auto`: a password is generated and shown in the answer this once; `set`: the password is `sftp_password`; `none`: no password, SSH keys only.",
    ),
    sftp_password: z
      .string()
      .min(8, "At least 8 characters.")
      .max(63, "At most 63 characters.")
      .regex(/^[\x21-\x7e]+$/, "Must be visible ASCII characters without spaces.")
      .optional()
      .describe("The password, 8 to 63 visible ASCII characters: with `password_mode: set` only (and then required). Kept encrypted, never shown."),
    expires: expiresField().optional().describe(`${EXPIRES} Left out or empty: never.`),
    server_alias: aliasField().optional().describe(`${ALIAS} Left out or empty: none.`),
    is_http_disabled: z.boolean().optional().describe("Turn plain HTTP access off (HTTPS only). Default false."),
    has_custom_config_file: z.boolean().optional().describe("Use a custom server configuration file. Default false."),
    ssh_key_ids: sshKeyIds().optional(),
  },
  { readOnly: ["id", "full_name", "address", "created_at", "provisioning_status", "has_password", "password"] },
)
  .superRefine((body, ctx) => {
    if (body.password_mode === "set" && body.sftp_password === undefined)
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["sftp_password"], message: "Required with password_mode set." });
    if (body.password_mode !== "set" && body.sftp_password !== undefined)
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["sftp_password"], message: "Only with password_mode set." });
  })
  .describe("The new SFTP storage.");
export interface CreateSftpStorageBodySchema extends CreateSftpStorageBodySchemaType {}
type CreateSftpStorageBodySchemaType = typeof createSftpStorageBodySchema;
export const createSftpStorageBody: CreateSftpStorageBodySchema = createSftpStorageBodySchema;

export type CreateSftpStorageBody = z.input<typeof createSftpStorageBody>;

const updateSftpStorageBodySchema = strictObject(
  {
    expires: expiresField().optional().describe(`${EXPIRES} An empty string removes the expiry.`),
    server_alias: aliasField().optional().describe(`${ALIAS} An empty string removes the alias.`),
    is_http_disabled: z.boolean().optional().describe("Turn plain HTTP access off (true) or on (false)."),
    has_custom_config_file: z.boolean().optional().describe("Use a custom server configuration file, or stop using one."),
    password_mode: stringEnum(["auto", "none"])
      .optional()
      .describe("`auto`: a new password is generated and shown in the answer this once; `none`: the password is removed. Left out: unchanged."),
    ssh_key_ids: sshKeyIds()
      .optional()
      .describe(`The SSH keys of the account the storage lets in from now on, by id; they replace the ones it had (an empty list removes all; 400 naming a key the account does not have). At most ${SFTP_SSH_KEYS_MAX} SSH keys.`),
  },
  {
    readOnly: ["id", "full_name", "address", "created_at", "provisioning_status", "has_password", "password"],
    rejected: {
      name: "Set when the storage is made; it cannot be changed.",
      location_name: "Set when the storage is made; it cannot be changed.",
      sftp_password: "A password cannot be set on a change: password_mode auto generates one.",
    },
  },
).describe("The storage's fields to change; fields left out keep their values.");
export interface UpdateSftpStorageBodySchema extends UpdateSftpStorageBodySchemaType {}
type UpdateSftpStorageBodySchemaType = typeof updateSftpStorageBodySchema;
export const updateSftpStorageBody: UpdateSftpStorageBodySchema = updateSftpStorageBodySchema;

export type UpdateSftpStorageBody = z.input<typeof updateSftpStorageBody>;

/** The SFTP storage createSftpStorage's example makes. */
const acmeFiles: SftpStorage = {
  // The demo data has storages 1 to 3, and createObjectStorage's example makes the fourth.
  id: 5,
  name: "acme-files",
  full_name: "1-acme-files",
  location_name: "fra",
  address: "fra.storage.cloudplane.example",
  created_at: "2026-11-26T20:00:00.000Z",
  provisioning_status: "active",
  expires: "",
  server_alias: "",
  has_password: false,
  is_http_disabled: true,
  has_custom_config_file: false,
  // Without SSH keys, so that the SSH key examples' delete finds its key free (a key in use cannot be deleted).
  ssh_key_ids: [],
  password: null,
};

const PRIMARY = "The platform's current path; the older `/storage/provisioning` routes serve the same storages in their own shape.";

/** The SFTP storage the cases make first; the demo data has none (its storages are S3 ones). */
const sftpCaseBody = () => ({ name: uniqueName("route-case-sftp"), location_name: "ams", password_mode: "none" });

export const storageSftpStoragesRoutes = {
  listSftpStorages: route(
    {
      method: "GET",
      path: "/storage/v4/sftp_storages",
      query: storageV4ListQuery("SFTP storages"),
      responses: { 200: sftpStorageList, ...errorResponses() },
      summary: "List SFTP storages",
      description:
        "The account's SFTP storages that match every filter given, a page of `limit` (default 100) from `offset`, sorted by " +
        "`order_by` (default id); never their passwords. SFTP storages are deleted for good at once, so `show_deleted` adds none. " +
        `\`count\` is the number of matches before paging. ${PRIMARY}`,
      metadata: read,
    },
    {
      example: { query: { limit: 100, offset: 0, name: acmeFiles.name }, response: { count: 1, results: [acmeFiles] } },
      case: { path: () => "/storage/v4/sftp_storages", ownsObjects: false },
    },
  ),
  createSftpStorage: route(
    {
      method: "POST",
      path: "/storage/v4/sftp_storages",
      body: createSftpStorageBody,
      responses: { 201: sftpStorage, ...errorResponses([409, ...withBody]) },
      summary: "Create an SFTP storage",
      description:
        "A new, empty SFTP storage of the account in an `sftp` location, `active` at once. With `password_mode: auto` the answer " +
        "shows the generated password this once (`password`); with `set` the password given is kept; either is kept encrypted and " +
        "never shown again or logged. `ssh_key_ids` names keys of the account (400 naming a key it does not have). A name the " +
        `account's storages have, or a server alias any storage has, is 409. ${PRIMARY}`,
      metadata: write,
    },
    {
      example: {
        body: { name: acmeFiles.name, location_name: "fra", password_mode: "none", is_http_disabled: true },
        response: acmeFiles,
      },
      case: { path: () => "/storage/v4/sftp_storages", ownsObjects: false, body: sftpCaseBody },
    },
  ),
  getSftpStorage: route(
    {
      method: "GET",
      path: "/storage/v4/sftp_storages/:sftp_storage_id",
      pathParams: sftpStorageIdParams,
      responses: { 200: sftpStorage, ...errorResponses() },
      summary: "Get an SFTP storage",
      description: `One SFTP storage of the account, never its password. An object storage and another account's storage are 404. ${PRIMARY}`,
      metadata: read,
    },
    {
      example: { pathParams: { sftp_storage_id: acmeFiles.id }, response: acmeFiles },
      case: {
        path: (w, made) => `/storage/v4/sftp_storages/${made?.id ?? missingId(w.account)}`,
        ownsObjects: true,
        makes: "storage.createSftpStorage",
      },
    },
  ),
  updateSftpStorage: route(
    {
      method: "PATCH",
      path: "/storage/v4/sftp_storages/:sftp_storage_id",
      pathParams: sftpStorageIdParams,
      body: updateSftpStorageBody,
      responses: { 200: sftpStorage, ...errorResponses([409, ...withBody]) },
      summary: "Change an SFTP storage",
      description:
        "Changes the fields given in one write; fields left out keep their values. An empty `expires` or `server_alias` removes it; " +
        "`ssh_key_ids` replaces the keys (400 naming a key the account does not have); `password_mode: auto` generates a new " +
        "password, shown in this answer only, and `none` removes it. The name and location are fixed at creation. A server alias " +
        `another storage has is 409. ${PRIMARY}`,
      metadata: write,
    },
    {
      example: {
        pathParams: { sftp_storage_id: acmeFiles.id },
        body: { expires: "", server_alias: "", ssh_key_ids: [] },
        response: acmeFiles,
      },
      case: {
        path: (w, made) => `/storage/v4/sftp_storages/${made?.id ?? missingId(w.account)}`,
        ownsObjects: true,
        makes: "storage.createSftpStorage",
        body: () => ({ expires: "30 days", is_http_disabled: true }),
      },
    },
  ),
  deleteSftpStorage: route(
    {
      method: "DELETE",
      path: "/storage/v4/sftp_storages/:sftp_storage_id",
      pathParams: sftpStorageIdParams,
      responses: { 204: c.noBody(), ...errorResponses() },
      summary: "Delete an SFTP storage",
      description:
        "Deletes the SFTP storage for good with its files; the SSH keys it let in stay the account's. Answers 204 with no body. " +
        "(Only object storages have a grace period and a restore.)",
      metadata: write,
    },
    {
      example: { pathParams: { sftp_storage_id: acmeFiles.id } },
      case: {
        path: (w, made) => `/storage/v4/sftp_storages/${made?.id ?? missingId(w.account)}`,
        ownsObjects: true,
        makes: "storage.createSftpStorage",
      },
    },
  ),
} as const;
