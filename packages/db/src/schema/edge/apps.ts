/**
 * Edge apps: the platform's plans, the apps, and the secrets given to each app (with the secrets'
 * relations, which name those links).
 */
import { EDGE_API_TYPES } from "@cloudplane/contract";
import { relations, sql } from "drizzle-orm";
import { check, foreignKey, index, integer, jsonb, pgTable, primaryKey, smallint, text, unique } from "drizzle-orm/pg-core";
import { identityId, sqlList, timestamptz } from "../columns.js";
import { accountId, accounts } from "../iam/account.js";
import { edgeBinaries } from "./binaries.js";
import { edgeKvStores } from "./kv-stores.js";
import { edgeSecretSlots, edgeSecrets } from "./secrets.js";
import { edgeTemplates } from "./templates.js";

export const EDGE_APP_LOG_TARGETS = ["kafka", "none"] as const;

/** The platform's edge app plans: shared by every account. */
export const edgePlans = pgTable("edge_plans", {
  id: identityId(),
  name: text("name").notNull(),
  maxDurationMs: integer("max_duration_ms").notNull(),
  memoryLimitMb: integer("memory_limit_mb").notNull(),
  maxSubrequests: integer("max_subrequests").notNull(),
});

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
    // Settings the app's GET shows and its list leaves out.
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

/** The KV stores given to an app, by the name the app reads each under; a store's `app_count` counts these. */
export const edgeAppStores = pgTable(
  "edge_app_stores",
  {
    accountId: accountId(),
    appId: integer("app_id").notNull(),
    name: text("name").notNull(),
    storeId: integer("store_id").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.appId, t.name] }),
    index("edge_app_stores_account_id_store_id_idx").on(t.accountId, t.storeId),
    foreignKey({
      name: "edge_app_stores_app_fk",
      columns: [t.accountId, t.appId],
      foreignColumns: [edgeApps.accountId, edgeApps.id],
    }).onDelete("cascade"),
    foreignKey({
      name: "edge_app_stores_store_fk",
      columns: [t.accountId, t.storeId],
      foreignColumns: [edgeKvStores.accountId, edgeKvStores.id],
    }),
  ],
);

export const edgeAppsRelations = relations(edgeApps, ({ one, many }) => ({
  account: one(accounts, { fields: [edgeApps.accountId], references: [accounts.id] }),
  binary: one(edgeBinaries, { fields: [edgeApps.binaryId], references: [edgeBinaries.id] }),
  template: one(edgeTemplates, { fields: [edgeApps.templateId], references: [edgeTemplates.id] }),
  plan: one(edgePlans, { fields: [edgeApps.planId], references: [edgePlans.id] }),
  secrets: many(edgeAppSecrets),
}));

// The secrets' relations are here, not in secrets.ts: they name the apps' links to secrets (`apps`).
export const edgeSecretsRelations = relations(edgeSecrets, ({ one, many }) => ({
  account: one(accounts, { fields: [edgeSecrets.accountId], references: [accounts.id] }),
  slots: many(edgeSecretSlots),
  apps: many(edgeAppSecrets),
}));

export const edgeAppSecretsRelations = relations(edgeAppSecrets, ({ one }) => ({
  app: one(edgeApps, { fields: [edgeAppSecrets.appId], references: [edgeApps.id] }),
  secret: one(edgeSecrets, { fields: [edgeAppSecrets.secretId], references: [edgeSecrets.id] }),
}));
