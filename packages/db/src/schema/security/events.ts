/**
 * Security events: the attacks the protection saw on the account's addresses (DDoS alerts and remote
 * black-hole alerts), with the attack's figures. The demo data's are made by a generator (demo-activity.ts).
 */
import { sql } from "drizzle-orm";
import { check, doublePrecision, index, integer, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { timestamptz } from "../columns.js";
import { accountId } from "../iam/account.js";

export const SECURITY_ALERT_TYPES = ["ddos_alert", "rtbh_alert"] as const;

/** The breakdowns of an attack, as the event's GET shows them: each a list of objects. */
export interface SecurityEventDetails {
  attack_packet_sizes: Record<string, unknown>[];
  attack_top_destination_ports: Record<string, unknown>[];
  attack_top_protocols: Record<string, unknown>[];
  attack_top_source_countries: Record<string, unknown>[];
  attack_top_source_ips: Record<string, unknown>[];
  attack_top_source_ports: Record<string, unknown>[];
  attack_traffic: Record<string, unknown>[];
}

export const securityEvents = pgTable(
  "security_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: accountId(),
    alertType: text("alert_type", { enum: SECURITY_ALERT_TYPES }).notNull(),
    notificationType: text("notification_type").notNull(),
    attackStartTime: timestamptz("attack_start_time").notNull(),
    attackPowerBps: doublePrecision("attack_power_bps").notNull(),
    attackPowerPps: doublePrecision("attack_power_pps").notNull(),
    ipsInvolved: integer("ips_involved").notNull(),
    targetedIpAddresses: text("targeted_ip_addresses").notNull(),
    details: jsonb("details").$type<SecurityEventDetails>().notNull(),
  },
  (t) => [
    index("security_events_account_id_attack_start_time_idx").on(t.accountId, t.attackStartTime),
    check("security_events_alert_type_check", sql`${t.alertType} in ('ddos_alert', 'rtbh_alert')`),
  ],
);
