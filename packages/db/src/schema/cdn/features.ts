/**
 * The account's CDN features, paid and free.
 */
import { boolean, integer, pgTable, text, unique } from "drizzle-orm/pg-core";
import { identityId, timestamptz } from "../columns.js";
import { accountId } from "../iam/account.js";

/**
 * A CDN feature the account has. `id` is the account's feature entry (the API's paid_feature_id or
 * free_feature_id), `feature_id` the feature itself.
 */
export const cdnFeatures = pgTable(
  "cdn_features",
  {
    id: identityId(),
    accountId: accountId(),
    featureId: integer("feature_id").notNull(),
    name: text("name").notNull(),
    paid: boolean("paid").notNull(),
    created: timestamptz("created").notNull().defaultNow(),
  },
  (t) => [unique("cdn_features_account_id_feature_id_unique").on(t.accountId, t.featureId)],
);
