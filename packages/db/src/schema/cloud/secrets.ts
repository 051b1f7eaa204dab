/**
 * Cloud secrets: the TLS certificates (and other secrets) a project keeps in a region for its load
 * balancers, their payload encrypted at rest.
 */
import { foreignKey, index, integer, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { timestamptz } from "../columns.js";
import { accountId } from "../iam/account.js";
import { cloudProjects, cloudRegions } from "./projects.js";

/** A secret of a project in a region. The payload is never read back through the API. */
export const cloudSecrets = pgTable(
  "cloud_secrets",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: accountId(),
    projectId: integer("project_id").notNull(),
    regionId: integer("region_id")
      .notNull()
      .references(() => cloudRegions.id),
    name: text("name").notNull(),
    /** certificate, opaque, passphrase, private, public or symmetric. */
    secretType: text("secret_type").notNull(),
    status: text("status").notNull().default("ACTIVE"),
    algorithm: text("algorithm"),
    bitLength: integer("bit_length"),
    mode: text("mode"),
    /** The payload's parts by content type name ("default": …), for the answer's content_types. */
    contentTypes: jsonb("content_types").$type<Record<string, string>>(),
    /** The payload (JSON of its parts), AES-GCM encrypted with the deployment's secrets key. */
    payloadEncrypted: text("payload_encrypted").notNull(),
    created: timestamptz("created").notNull().defaultNow(),
    expiration: timestamptz("expiration"),
  },
  (t) => [
    index("cloud_secrets_account_id_project_id_region_id_idx").on(t.accountId, t.projectId, t.regionId, t.name),
    foreignKey({
      name: "cloud_secrets_project_fk",
      columns: [t.accountId, t.projectId],
      foreignColumns: [cloudProjects.accountId, cloudProjects.id],
    }),
  ],
);
