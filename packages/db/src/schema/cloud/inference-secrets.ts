/**
 * Cloud inference secrets: credentials a project's deployments use to reach other services (an AWS IAM
 * key pair for an SQS scaling trigger); the secret half is kept encrypted and never shown back.
 */
import { foreignKey, integer, pgTable, text, unique } from "drizzle-orm/pg-core";
import { identityId, timestamptz } from "../columns.js";
import { accountId } from "../iam/account.js";
import { cloudProjects } from "./projects.js";

export const inferenceSecrets = pgTable(
  "inference_secrets",
  {
    id: identityId(),
    accountId: accountId(),
    projectId: integer("project_id").notNull(),
    name: text("name").notNull(),
    type: text("type").notNull(),
    awsAccessKeyId: text("aws_access_key_id").notNull(),
    /** AES-GCM with the secrets key (crypto.ts). */
    awsSecretAccessKeyEncrypted: text("aws_secret_access_key_encrypted").notNull(),
    created: timestamptz("created").notNull().defaultNow(),
  },
  (t) => [
    unique("inference_secrets_project_id_name_unique").on(t.projectId, t.name),
    foreignKey({ name: "inference_secrets_project_fk", columns: [t.accountId, t.projectId], foreignColumns: [cloudProjects.accountId, cloudProjects.id] }),
  ],
);
