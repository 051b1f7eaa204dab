/**
 * CDN resources with their options and secondary host names, and the account's certificates they serve
 * HTTPS with and verify their origins with. The account-level CDN settings are columns of `accounts` (iam/account.ts).
 */
import { relations, sql } from "drizzle-orm";
import { boolean, check, foreignKey, index, integer, jsonb, pgTable, primaryKey, text, unique, uniqueIndex } from "drizzle-orm/pg-core";
import { identityId, sqlList, timestamptz } from "../columns.js";
import { accountId, accounts } from "../iam/account.js";
import { originGroups } from "./origin-groups.js";
import { shieldingPops } from "./shielding-pops.js";

export const ORIGIN_PROTOCOLS = ["HTTP", "HTTPS", "MATCH"] as const;
export const CERTIFICATE_KINDS = ["ssl", "ca"] as const;
/** A certificate of the account: `ssl` serves HTTPS (sslData, proxy_ssl_data), `ca` verifies origins (proxy_ssl_ca). */
export const certificates = pgTable(
  "certificates",
  {
    id: identityId(),
    accountId: accountId(),
    name: text("name").notNull(),
    kind: text("kind", { enum: CERTIFICATE_KINDS }).notNull(),
    created: timestamptz("created").notNull().defaultNow(),
    // What an uploaded PEM says (certificates.ts of the handlers reads it), or an issued Let's Encrypt
    // certificate's; null while an automated certificate is not issued yet.
    /** The certificate chain as uploaded (public); null for an automated certificate. */
    chainPem: text("chain_pem"),
    issuer: text("issuer"),
    subjectCn: text("subject_cn"),
    subjectAlt: text("subject_alt"),
    notBefore: timestamptz("not_before"),
    notAfter: timestamptz("not_after"),
    validateRootCa: boolean("validate_root_ca").notNull().default(false),
    /** A Let's Encrypt certificate the service issues (its private key is then never held here). */
    automated: boolean("automated").notNull().default(false),
    /** The automated certificate's latest issuing attempt: when it started, its number, and the resource (and cname) it was for. */
    leStarted: timestamptz("le_started"),
    leAttempts: integer("le_attempts").notNull().default(0),
    leResourceId: integer("le_resource_id"),
    leCname: text("le_cname"),
    updated: timestamptz("updated").notNull().defaultNow(),
  },
  (t) => [
    unique("certificates_account_id_id_unique").on(t.accountId, t.id),
    uniqueIndex("certificates_account_id_kind_name_unique").on(t.accountId, t.kind, t.name),
    // The listings (of one kind, by id): a page read in order however many certificates of the other kind there are.
    index("certificates_account_id_kind_id_idx").on(t.accountId, t.kind, t.id),
    // The listings' expiry filter (`validity_not_after_lte`), counted from the index alone.
    index("certificates_account_id_kind_not_after_idx").on(t.accountId, t.kind, t.notAfter),
    check("certificates_kind_check", sql`${t.kind} in (${sql.raw(sqlList(CERTIFICATE_KINDS))})`),
  ],
);
export const cdnResources = pgTable(
  "cdn_resources",
  {
    id: identityId(),
    accountId: accountId(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    /** The delivery host name, lower case; unique on the platform. */
    cname: text("cname").notNull(),
    active: boolean("active").notNull().default(true),
    enabled: boolean("enabled").notNull().default(true),
    status: text("status").notNull().default("active"),
    deleted: boolean("deleted").notNull().default(false),
    originGroupId: integer("origin_group_id").notNull(),
    originProtocol: text("origin_protocol", { enum: ORIGIN_PROTOCOLS }).notNull().default("HTTP"),
    sslEnabled: boolean("ssl_enabled").notNull().default(false),
    sslDataId: integer("ssl_data_id"),
    proxySslEnabled: boolean("proxy_ssl_enabled").notNull().default(false),
    proxySslCaId: integer("proxy_ssl_ca_id"),
    proxySslDataId: integer("proxy_ssl_data_id"),
    /** null: shielding is off. `shielded`, `shield_enabled` and `shield_dc` are derived from it. */
    shieldingPopId: integer("shielding_pop_id").references(() => shieldingPops.id),
    shieldRoutingMap: integer("shield_routing_map"),
    presetApplied: boolean("preset_applied").notNull().default(false),
    vpEnabled: boolean("vp_enabled").notNull().default(false),
    fullCustomEnabled: boolean("full_custom_enabled").notNull().default(false),
    canPurgeByUrls: boolean("can_purge_by_urls").notNull().default(true),
    suspendDate: timestamptz("suspend_date"),
    suspended: boolean("suspended").notNull().default(false),
    primaryResourceId: integer("primary_resource_id"),
    isPrimary: boolean("is_primary"),
    waapDomainId: integer("waap_domain_id"),
    waapApiDomainEnabled: boolean("waap_api_domain_enabled").notNull().default(false),
    rules: jsonb("rules").$type<Record<string, unknown>[]>().notNull().default([]),
    /** Options as the API writes them (contract: cdnResourceOptionsWrite), keyed by option name. */
    options: jsonb("options").$type<Record<string, Record<string, unknown>>>().notNull().default({}),
    created: timestamptz("created").notNull().defaultNow(),
    updated: timestamptz("updated").notNull().defaultNow(),
  },
  (t) => [
    unique("cdn_resources_account_id_id_unique").on(t.accountId, t.id),
    unique("cdn_resources_cname_unique").on(t.cname),
    index("cdn_resources_account_id_origin_group_id_idx").on(t.accountId, t.originGroupId),
    // The listing's filters that narrow an account's resources most, each with the listing's order (id) after it.
    index("cdn_resources_account_id_status_id_idx").on(t.accountId, t.status, t.id),
    index("cdn_resources_account_id_ssl_data_id_idx").on(t.accountId, t.sslDataId),
    // Whether a certificate is in use (its listings show it for each) and the checks of its foreign keys on delete.
    index("cdn_resources_account_id_proxy_ssl_data_id_idx").on(t.accountId, t.proxySslDataId),
    index("cdn_resources_account_id_proxy_ssl_ca_id_idx").on(t.accountId, t.proxySslCaId),
    index("cdn_resources_account_id_created_idx").on(t.accountId, t.created),
    check("cdn_resources_origin_protocol_check", sql`${t.originProtocol} in (${sql.raw(sqlList(ORIGIN_PROTOCOLS))})`),
    // Composite keys keep every reference inside the resource's own account.
    foreignKey({
      name: "cdn_resources_origin_group_fk",
      columns: [t.accountId, t.originGroupId],
      foreignColumns: [originGroups.accountId, originGroups.id],
    }),
    foreignKey({
      name: "cdn_resources_ssl_data_fk",
      columns: [t.accountId, t.sslDataId],
      foreignColumns: [certificates.accountId, certificates.id],
    }),
    foreignKey({
      name: "cdn_resources_proxy_ssl_ca_fk",
      columns: [t.accountId, t.proxySslCaId],
      foreignColumns: [certificates.accountId, certificates.id],
    }),
    foreignKey({
      name: "cdn_resources_proxy_ssl_data_fk",
      columns: [t.accountId, t.proxySslDataId],
      foreignColumns: [certificates.accountId, certificates.id],
    }),
    foreignKey({
      name: "cdn_resources_primary_resource_fk",
      columns: [t.accountId, t.primaryResourceId],
      foreignColumns: [t.accountId, t.id],
    }),
  ],
);

/**
 * The secondary host names of a resource, in the order given. A host name may serve only one
 * resource of an account (case-insensitively), which the unique index enforces.
 */
export const cdnResourceHostnames = pgTable(
  "cdn_resource_hostnames",
  {
    accountId: accountId(),
    resourceId: integer("resource_id").notNull(),
    position: integer("position").notNull(),
    hostname: text("hostname").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.resourceId, t.position] }),
    uniqueIndex("cdn_resource_hostnames_account_id_hostname_unique").on(t.accountId, sql`lower(${t.hostname})`),
    foreignKey({
      name: "cdn_resource_hostnames_resource_fk",
      columns: [t.accountId, t.resourceId],
      foreignColumns: [cdnResources.accountId, cdnResources.id],
    }).onDelete("cascade"),
  ],
);
export const cdnResourcesRelations = relations(cdnResources, ({ one, many }) => ({
  account: one(accounts, { fields: [cdnResources.accountId], references: [accounts.id] }),
  originGroup: one(originGroups, { fields: [cdnResources.originGroupId], references: [originGroups.id] }),
  shieldingPop: one(shieldingPops, { fields: [cdnResources.shieldingPopId], references: [shieldingPops.id] }),
  secondaryHostnames: many(cdnResourceHostnames),
}));

export const cdnResourceHostnamesRelations = relations(cdnResourceHostnames, ({ one }) => ({
  resource: one(cdnResources, { fields: [cdnResourceHostnames.resourceId], references: [cdnResources.id] }),
}));
