/**
 * Cloud inference registry credentials: what a project's deployments log in to a private container
 * registry with; the password is kept encrypted and never shown back.
 */
import { foreignKey, integer, pgTable, text, unique } from "drizzle-orm/pg-core";
import { identityId, timestamptz } from "../columns.js";
import { accountId } from "../iam/account.js";
import { cloudProjects } from "./projects.js";

export const inferenceRegistryCredentials = pgTable(
  "inference_registry_credentials",
  {
    id: identityId(),
    accountId: accountId(),
    projectId: integer("project_id").notNull(),
    name: text("name").notNull(),
    registryUrl: text("registry_url").notNull(),
    username: text("username").notNull(),
    /** AES-GCM with the secrets key (crypto.ts). */
    passwordEncrypted: text("password_encrypted").notNull(),
    created: timestamptz("created").notNull().defaultNow(),
  },
  (t) => [
    unique("inference_registry_credentials_project_id_name_unique").on(t.projectId, t.name),
    foreignKey({ name: "inference_registry_credentials_project_fk", columns: [t.accountId, t.projectId], foreignColumns: [cloudProjects.accountId, cloudProjects.id] }),
  ],
);
