/**
 * Cloud inference API keys: the keys callers of a project's deployments authenticate with; only the
 * SHA-256 hash of a key's secret is kept (the secret is answered once, when the key is made).
 */
import { foreignKey, integer, pgTable, text, unique } from "drizzle-orm/pg-core";
import { identityId, timestamptz } from "../columns.js";
import { accountId } from "../iam/account.js";
import { cloudProjects } from "./projects.js";

export const inferenceApiKeys = pgTable(
  "inference_api_keys",
  {
    id: identityId(),
    accountId: accountId(),
    projectId: integer("project_id").notNull(),
    name: text("name").notNull(),
    description: text("description"),
    expiresAt: timestamptz("expires_at"),
    secretHash: text("secret_hash").notNull(),
    created: timestamptz("created").notNull().defaultNow(),
  },
  (t) => [
    unique("inference_api_keys_project_id_name_unique").on(t.projectId, t.name),
    foreignKey({ name: "inference_api_keys_project_fk", columns: [t.accountId, t.projectId], foreignColumns: [cloudProjects.accountId, cloudProjects.id] }),
  ],
);
