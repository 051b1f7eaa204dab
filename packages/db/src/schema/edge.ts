/**
 * Edge apps area: the platform's plans, binaries (the account's, or the platform's behind public
 * templates), templates and their parameters, apps, and secrets with their encrypted slots.
 */
import { EDGE_API_TYPES, EDGE_TEMPLATE_PARAM_TYPES } from "@cloudplane/contract";
import { relations, sql } from "drizzle-orm";
import { boolean, check, customType, foreignKey, index, integer, jsonb, pgTable, primaryKey, smallint, text, unique } from "drizzle-orm/pg-core";
import { identityId, sqlList, timestamptz } from "./columns.js";
import { accountId, accounts } from "./iam/account.js";

export const EDGE_APP_LOG_TARGETS = ["kafka", "none"] as const;

/** The platform's edge app plans: shared by every account. */
export const edgePlans = pgTable("edge_plans", {
  id: identityId(),
  name: text("name").notNull(),
  maxDurationMs: integer("max_duration_ms").notNull(),
  memoryLimitMb: integer("memory_limit_mb").notNull(),
  maxSubrequests: integer("max_subrequests").notNull(),
});

/** Raw bytes (PostgreSQL's bytea), read and written as a Uint8Array. */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => "bytea" });

/** A compiled WebAssembly binary. `account_id` null: a platform binary, run by apps made from public templates. */
export const edgeBinaries = pgTable(
  "edge_binaries",
  {
    id: identityId(),
    accountId: integer("account_id").references(() => accounts.id),
    apiType: text("api_type", { enum: EDGE_API_TYPES }).notNull(),
    checksum: text("checksum").notNull(),
    /** 0 pending, 1 compiled, 2 and 3 compilation failed, 4 over the size limit, 5 unsupported source language. */
    status: smallint("status").notNull().default(1),
    /** The source language: 0 unknown, 1 Rust, 2 JavaScript, 3 Go. */
    source: smallint("source").notNull().default(0),
    /** When the last app stopped running the binary; null while an app runs it (or none ever did). */
    unrefSince: timestamptz("unref_since"),
    /**
     * The module's bytes, for a binary uploaded through the API; null for one that came another way (the
     * demo data). Stored, never returned: reads of binaries select their other columns.
     */
    content: bytea("content"),
    created: timestamptz("created").notNull().defaultNow(),
  },
  (t) => [
    index("edge_binaries_account_id_id_idx").on(t.accountId, t.id),
    check("edge_binaries_api_type_check", sql`${t.apiType} in (${sql.raw(sqlList(EDGE_API_TYPES))})`),
    check("edge_binaries_status_check", sql`${t.status} between 0 and 5`),
    check("edge_binaries_source_check", sql`${t.source} between 0 and 3`),
  ],
);

/** A template. `account_id` null: a public template; otherwise `owned` is true for that account. */
export const edgeTemplates = pgTable(
  "edge_templates",
  {
    id: identityId(),
    accountId: integer("account_id").references(() => accounts.id),
    binaryId: integer("binary_id")
      .notNull()
      .references(() => edgeBinaries.id),
    name: text("name").notNull(),
    shortDescr: text("short_descr").notNull().default(""),
    longDescr: text("long_descr").notNull().default(""),
    apiType: text("api_type", { enum: EDGE_API_TYPES }).notNull(),
    created: timestamptz("created").notNull().defaultNow(),
  },
  (t) => [
    index("edge_templates_account_id_id_idx").on(t.accountId, t.id),
    // Public templates (account_id null) are exempt: null never equals null.
    unique("edge_templates_account_id_name_unique").on(t.accountId, t.name),
    index("edge_templates_binary_id_idx").on(t.binaryId),
    check("edge_templates_api_type_check", sql`${t.apiType} in (${sql.raw(sqlList(EDGE_API_TYPES))})`),
  ],
);

/** The parameters of a template, in the order the API lists them. */
export const edgeTemplateParams = pgTable(
  "edge_template_params",
  {
    templateId: integer("template_id")
      .notNull()
      .references(() => edgeTemplates.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    name: text("name").notNull(),
    dataType: text("data_type").notNull().default("string"),
    mandatory: boolean("mandatory").notNull().default(false),
    descr: text("descr").notNull().default(""),
    /** A JSON-encoded string of further details, such as the values of an `enum` parameter; null when none. */
    metadata: text("metadata"),
  },
  (t) => [
    primaryKey({ columns: [t.templateId, t.position] }),
    unique("edge_template_params_template_id_name_unique").on(t.templateId, t.name),
    check("edge_template_params_data_type_check", sql`${t.dataType} in (${sql.raw(sqlList(EDGE_TEMPLATE_PARAM_TYPES))})`),
  ],
);

export const edgeApps = pgTable(
  "edge_apps",
  {
    id: identityId(),
    accountId: accountId(),
    name: text("name").notNull(),
    /** 0 draft, 1 enabled, 2 disabled, 3 hourly and 4 daily call limit exceeded, 5 suspended. */
    status: smallint("status").notNull().default(0),
    binaryId: integer("binary_id").references(() => edgeBinaries.id),
    templateId: integer("template_id").references(() => edgeTemplates.id),
    planId: integer("plan_id")
      .notNull()
      .references(() => edgePlans.id),
    apiType: text("api_type", { enum: EDGE_API_TYPES }).notNull(),
    comment: text("comment").notNull().default(""),
    url: text("url").notNull(),
    networks: text("networks").array().notNull().default(sql`'{}'::text[]`),
    upgradeableTo: integer("upgradeable_to").references(() => edgeBinaries.id),
    // Write-only fields: stored, never returned by the API.
    env: jsonb("env").$type<Record<string, string>>().notNull().default({}),
    rspHeaders: jsonb("rsp_headers").$type<Record<string, string>>().notNull().default({}),
    log: text("log", { enum: EDGE_APP_LOG_TARGETS }).notNull().default("none"),
    debugUntil: timestamptz("debug_until"),
    created: timestamptz("created").notNull().defaultNow(),
    updated: timestamptz("updated").notNull().defaultNow(),
  },
  (t) => [
    unique("edge_apps_account_id_id_unique").on(t.accountId, t.id),
    unique("edge_apps_account_id_name_unique").on(t.accountId, t.name),
    // The listing filters by one field at a time and orders by id (or by that field).
    index("edge_apps_account_id_name_id_idx").on(t.accountId, sql`${t.name} collate "C"`, t.id),
    index("edge_apps_account_id_status_id_idx").on(t.accountId, t.status, t.id),
    index("edge_apps_account_id_api_type_id_idx").on(t.accountId, t.apiType, t.id),
    index("edge_apps_account_id_template_id_id_idx").on(t.accountId, t.templateId, t.id),
    index("edge_apps_account_id_binary_id_id_idx").on(t.accountId, t.binaryId, t.id),
    index("edge_apps_account_id_plan_id_id_idx").on(t.accountId, t.planId, t.id),
    check("edge_apps_status_check", sql`${t.status} between 0 and 5`),
    check("edge_apps_api_type_check", sql`${t.apiType} in (${sql.raw(sqlList(EDGE_API_TYPES))})`),
    check("edge_apps_log_check", sql`${t.log} in (${sql.raw(sqlList(EDGE_APP_LOG_TARGETS))})`),
  ],
);

export const edgeSecrets = pgTable(
  "edge_secrets",
  {
    id: identityId(),
    accountId: accountId(),
    name: text("name").notNull(),
    comment: text("comment").notNull().default(""),
    created: timestamptz("created").notNull().defaultNow(),
    updated: timestamptz("updated").notNull().defaultNow(),
  },
  (t) => [
    unique("edge_secrets_account_id_id_unique").on(t.accountId, t.id),
    unique("edge_secrets_account_id_name_unique").on(t.accountId, t.name),
  ],
);

/** The slots of a secret: each value is AES-GCM ciphertext (crypto.ts), with the hex SHA-256 of the plaintext. */
export const edgeSecretSlots = pgTable(
  "edge_secret_slots",
  {
    accountId: accountId(),
    secretId: integer("secret_id").notNull(),
    slot: integer("slot").notNull(),
    valueEncrypted: text("value_encrypted").notNull(),
    checksum: text("checksum").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.secretId, t.slot] }),
    foreignKey({
      name: "edge_secret_slots_secret_fk",
      columns: [t.accountId, t.secretId],
      foreignColumns: [edgeSecrets.accountId, edgeSecrets.id],
    }).onDelete("cascade"),
    check("edge_secret_slots_slot_check", sql`${t.slot} >= 0`),
    check("edge_secret_slots_value_check", sql`${t.valueEncrypted} like 'v1.%'`),
    check("edge_secret_slots_checksum_check", sql`${t.checksum} ~ '^[0-9a-f]{64}$'`),
  ],
);

/** The secrets given to an app, by the environment name they appear under; `app_count` counts these. */
export const edgeAppSecrets = pgTable(
  "edge_app_secrets",
  {
    accountId: accountId(),
    appId: integer("app_id").notNull(),
    name: text("name").notNull(),
    secretId: integer("secret_id").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.appId, t.name] }),
    index("edge_app_secrets_account_id_secret_id_idx").on(t.accountId, t.secretId),
    foreignKey({
      name: "edge_app_secrets_app_fk",
      columns: [t.accountId, t.appId],
      foreignColumns: [edgeApps.accountId, edgeApps.id],
    }).onDelete("cascade"),
    foreignKey({
      name: "edge_app_secrets_secret_fk",
      columns: [t.accountId, t.secretId],
      foreignColumns: [edgeSecrets.accountId, edgeSecrets.id],
    }),
  ],
);

export const edgeTemplatesRelations = relations(edgeTemplates, ({ one, many }) => ({
  binary: one(edgeBinaries, { fields: [edgeTemplates.binaryId], references: [edgeBinaries.id] }),
  params: many(edgeTemplateParams),
}));

export const edgeTemplateParamsRelations = relations(edgeTemplateParams, ({ one }) => ({
  template: one(edgeTemplates, { fields: [edgeTemplateParams.templateId], references: [edgeTemplates.id] }),
}));

export const edgeAppsRelations = relations(edgeApps, ({ one, many }) => ({
  account: one(accounts, { fields: [edgeApps.accountId], references: [accounts.id] }),
  binary: one(edgeBinaries, { fields: [edgeApps.binaryId], references: [edgeBinaries.id] }),
  template: one(edgeTemplates, { fields: [edgeApps.templateId], references: [edgeTemplates.id] }),
  plan: one(edgePlans, { fields: [edgeApps.planId], references: [edgePlans.id] }),
  secrets: many(edgeAppSecrets),
}));

export const edgeSecretsRelations = relations(edgeSecrets, ({ one, many }) => ({
  account: one(accounts, { fields: [edgeSecrets.accountId], references: [accounts.id] }),
  slots: many(edgeSecretSlots),
  apps: many(edgeAppSecrets),
}));

export const edgeSecretSlotsRelations = relations(edgeSecretSlots, ({ one }) => ({
  secret: one(edgeSecrets, { fields: [edgeSecretSlots.secretId], references: [edgeSecrets.id] }),
}));

export const edgeAppSecretsRelations = relations(edgeAppSecrets, ({ one }) => ({
  app: one(edgeApps, { fields: [edgeAppSecrets.appId], references: [edgeApps.id] }),
  secret: one(edgeSecrets, { fields: [edgeAppSecrets.secretId], references: [edgeSecrets.id] }),
}));
