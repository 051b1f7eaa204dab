/**
 * The platform's shielding POPs, through which a CDN resource's requests to its origin can go.
 */
import { pgTable, text } from "drizzle-orm/pg-core";
import { identityId } from "../columns.js";

/** The platform's shielding POPs: shared by every account. */
export const shieldingPops = pgTable("shielding_pops", {
  id: identityId(),
  datacenter: text("datacenter").notNull(),
  city: text("city").notNull(),
  country: text("country").notNull(),
});
