/**
 * Security events: the attacks the protection saw on the account's addresses, filtered, ordered and paged
 * as the platform's event log is, and each with its breakdowns.
 */
import { securityEventsRoutes, type SecurityEvent } from "@cloudplane/contract";
import { and, asc, count, desc, eq, gte, ilike, lt, lte, schema, type SQL } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { notFound } from "../errors.js";
import { isoTime } from "../format.js";
import { likePattern } from "../like.js";
import type { RequestExtension, RouteDeps } from "../types.js";
import { served } from "../served.js";

// The table under a name of its own: `securityEvents` names this module's routes.
const { securityEvents: securityEventsTable } = schema;

type EventRow = typeof securityEventsTable.$inferSelect;

const ORDER_COLUMNS = {
  attack_start_time: securityEventsTable.attackStartTime,
  attack_power_bps: securityEventsTable.attackPowerBps,
  attack_power_pps: securityEventsTable.attackPowerPps,
  number_of_ip_involved_in_attack: securityEventsTable.ipsInvolved,
  alert_type: securityEventsTable.alertType,
} as const;

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** A bound as the query gives it: a date alone is its midnight UTC; a time without an offset is UTC. */
function bound(text: string): Date {
  const normal = text.replace(" ", "T");
  return new Date(DATE_ONLY.test(normal) || /(?:Z|[+-]\d{2}:?\d{2})$/.test(normal) ? normal : `${normal}Z`);
}

function toEvent(row: EventRow): SecurityEvent {
  return {
    id: row.id,
    alert_type: row.alertType,
    attack_power_bps: row.attackPowerBps,
    attack_power_pps: row.attackPowerPps,
    attack_start_time: isoTime(row.attackStartTime),
    client_id: row.accountId,
    notification_type: row.notificationType,
    number_of_ip_involved_in_attack: row.ipsInvolved,
    targeted_ip_addresses: row.targetedIpAddresses,
  };
}

export function securityEvents({ db }: RouteDeps) {
  return tsr.routerWithMiddleware(served("security", securityEventsRoutes))<RequestExtension>({
    listEvents: async ({ query }, { request: { caller } }) => {
      const conditions: SQL[] = [eq(securityEventsTable.accountId, caller.accountId)];
      if (query.alert_type !== undefined) conditions.push(eq(securityEventsTable.alertType, query.alert_type));
      if (query.date_from !== undefined) conditions.push(gte(securityEventsTable.attackStartTime, bound(query.date_from)));
      if (query.date_to !== undefined) {
        // A date alone is the whole day: before the next midnight.
        if (DATE_ONLY.test(query.date_to)) conditions.push(lt(securityEventsTable.attackStartTime, new Date(bound(query.date_to).getTime() + 86_400_000)));
        else conditions.push(lte(securityEventsTable.attackStartTime, bound(query.date_to)));
      }
      if (query.targeted_ip_addresses !== undefined && query.targeted_ip_addresses !== "")
        conditions.push(ilike(securityEventsTable.targetedIpAddresses, likePattern(query.targeted_ip_addresses)));
      const where = and(...conditions);
      const field = query.ordering.replace(/^-/, "") as keyof typeof ORDER_COLUMNS;
      const direction = query.ordering.startsWith("-") ? desc : asc;
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(securityEventsTable)
          .where(where)
          .orderBy(direction(ORDER_COLUMNS[field]), asc(securityEventsTable.id))
          .limit(query.limit)
          .offset(query.offset),
        db.select({ total: count() }).from(securityEventsTable).where(where),
      ]);
      return { status: 200, body: { count: total?.total ?? 0, results: rows.map(toEvent) } };
    },

    getEvent: async ({ params }, { request: { caller } }) => {
      const [row] = await db
        .select()
        .from(securityEventsTable)
        .where(and(eq(securityEventsTable.accountId, caller.accountId), eq(securityEventsTable.id, params.event_log_id.toLowerCase())));
      if (!row) throw notFound(`Security event ${params.event_log_id}`);
      return { status: 200, body: { ...toEvent(row), ...row.details } };
    },
  });
}
