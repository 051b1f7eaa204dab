/**
 * Security events: the attacks the protection saw on the account's addresses (DDoS alerts, and remote
 * black-hole alerts when the service dropped an address's traffic upstream), listed with the platform's
 * filters, ordering and paging at /security/notifier/v1/event_logs, and each with its breakdowns.
 */
import type { ClientMetadata } from "../client-names.js";
import { z } from "zod";
import { errorResponses, integer, pageOf, paging, stringEnum, uuid } from "../common.js";
import { route } from "../route.js";
import type { CaseWorld } from "../route-case.js";

export const SECURITY_EVENT_ALERT_TYPES = ["ddos_alert", "rtbh_alert"] as const;

export const SECURITY_EVENT_ORDERINGS = [
  "attack_start_time",
  "-attack_start_time",
  "attack_power_bps",
  "-attack_power_bps",
  "attack_power_pps",
  "-attack_power_pps",
  "number_of_ip_involved_in_attack",
  "-number_of_ip_involved_in_attack",
  "alert_type",
  "-alert_type",
] as const;

const eventFields = {
  id: uuid.describe("The event's id."),
  alert_type: stringEnum(SECURITY_EVENT_ALERT_TYPES).describe("ddos_alert: an attack was filtered; rtbh_alert: the address's traffic was black-holed upstream."),
  attack_power_bps: z.number().describe("The attack's peak, bits per second."),
  attack_power_pps: z.number().describe("The attack's peak, packets per second."),
  attack_start_time: z.string().datetime({ offset: false }).describe("When the attack started (UTC)."),
  client_id: integer().describe("The account's id."),
  notification_type: z.string().describe('What the account was told: "attack_started" or "blackhole_started".'),
  number_of_ip_involved_in_attack: integer().describe("The number of source addresses the attack came from."),
  targeted_ip_addresses: z.string().describe("The attacked address: one the account protects."),
};

const securityEventSchema = z.object(eventFields).strict().describe("An attack the protection saw on one of the account's addresses.");
export interface SecurityEventSchema extends SecurityEventSchemaType {}
type SecurityEventSchemaType = typeof securityEventSchema;
export const securityEvent: SecurityEventSchema = securityEventSchema;

export type SecurityEvent = z.infer<typeof securityEvent>;

const breakdown = (what: string) => z.array(z.record(z.unknown())).describe(what);

const securityEventDetailSchema = z
  .object({
    ...eventFields,
    attack_packet_sizes: breakdown("The share of the attack's packets by size range: `{size, percent}`."),
    attack_top_destination_ports: breakdown("The most attacked ports: `{port, percent}`."),
    attack_top_protocols: breakdown("The attack's protocols: `{protocol, percent}`."),
    attack_top_source_countries: breakdown("The countries most of the attack came from: `{country, percent}` (ISO 3166 codes)."),
    attack_top_source_ips: breakdown("The addresses most of the attack came from: `{ip, percent}`."),
    attack_top_source_ports: breakdown("The source ports most of the attack came from: `{port, percent}`."),
    attack_traffic: breakdown("The attack's traffic every five minutes from its start: `{time, bps, pps}`."),
  })
  .strict()
  .describe("An attack with its breakdowns: packet sizes, ports, protocols, sources and traffic.");
export interface SecurityEventDetailSchema extends SecurityEventDetailSchemaType {}
type SecurityEventDetailSchemaType = typeof securityEventDetailSchema;
export const securityEventDetail: SecurityEventDetailSchema = securityEventDetailSchema;

export type SecurityEventDetail = z.infer<typeof securityEventDetail>;

const dateBound = (what: string) =>
  z
    .string()
    .refine((value) => /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/.test(value) && !Number.isNaN(Date.parse(value.replace(" ", "T"))), {
      message: "Must be a date (2026-11-01) or an ISO 8601 date and time (2026-11-01T00:00:00Z); without an offset, UTC.",
    })
    .describe(what);

const listSecurityEventsQuerySchema = z.object({
  alert_type: stringEnum(SECURITY_EVENT_ALERT_TYPES).optional().describe("Only the events of this kind."),
  date_from: dateBound("Only the attacks that started at or after this time; a date alone is its midnight UTC.").optional(),
  date_to: dateBound("Only the attacks that started at or before this time; a date alone is the whole day (UTC).").optional(),
  targeted_ip_addresses: z.string().max(64).optional().describe("Only the attacks on addresses containing this text (e.g. a whole address, or 203.0.113.)."),
  ordering: stringEnum(SECURITY_EVENT_ORDERINGS)
    .default("-attack_start_time")
    .describe("Sort field; a leading - sorts descending. Default -attack_start_time (newest first); ties by id."),
  ...paging("events", 25),
});
export interface ListSecurityEventsQuerySchema extends ListSecurityEventsQuerySchemaType {}
type ListSecurityEventsQuerySchemaType = typeof listSecurityEventsQuerySchema;
export const listSecurityEventsQuery: ListSecurityEventsQuerySchema = listSecurityEventsQuerySchema;

export type ListSecurityEventsQuery = z.output<typeof listSecurityEventsQuery>;

const exampleEvent: SecurityEvent = {
  id: "94f9e8d3-a37d-d9d6-498f-979c411243a7",
  alert_type: "ddos_alert",
  attack_power_bps: 8_200_000_000,
  attack_power_pps: 2_446_301,
  attack_start_time: "2026-10-22T09:03:00.000Z",
  client_id: 1,
  notification_type: "attack_started",
  number_of_ip_involved_in_attack: 4089,
  targeted_ip_addresses: "203.0.113.10",
};

// The cases' object: the newest event of the account.
const eventOf = (w: CaseWorld) => w.first("security.listEvents");

export const securityEventsRoutes = {
  listEvents: route({
    method: "GET",
    path: "/security/notifier/v1/event_logs",
    query: listSecurityEventsQuery,
    responses: { 200: pageOf(securityEvent, "events"), ...errorResponses() },
    summary: "List security events",
    description:
      "The attacks the protection saw on the account's addresses, those of deleted profiles too, filtered by kind, start " +
      "time (`date_from` and `date_to`, both included) and attacked address; ordered by `ordering` (default newest " +
      "first); paged by `limit` (default 25, at most 1000) and `offset`, `count` counting every match.",
    metadata: { access: "read", client: { resource: "events" } } satisfies ClientMetadata,
  }, {
    example: {
      query: { alert_type: "ddos_alert", targeted_ip_addresses: "203.0.113.10", ordering: "-attack_power_bps", limit: 1 },
      response: { count: 8, results: [exampleEvent] },
    },
    case: { path: () => "/security/notifier/v1/event_logs?limit=5", ownsObjects: false },
  }),
  getEvent: route({
    method: "GET",
    path: "/security/notifier/v1/event_logs/:event_log_id",
    pathParams: z.object({ event_log_id: uuid.describe("The event's id; another account's is 404.") }),
    responses: { 200: securityEventDetail, ...errorResponses() },
    summary: "Get a security event",
    description: "One attack on the account's addresses, with its breakdowns by packet size, port, protocol, source and time.",
    metadata: { access: "read", client: { resource: "events" } } satisfies ClientMetadata,
  }, {
    example: {
      pathParams: { event_log_id: exampleEvent.id },
      response: {
        ...exampleEvent,
        attack_packet_sizes: [{ size: "64-127", percent: 69 }, { size: "128-511", percent: 22 }, { size: "512-1500", percent: 9 }],
        attack_top_destination_ports: [{ port: 443, percent: 74 }, { port: 8080, percent: 26 }],
        attack_top_protocols: [{ protocol: "UDP", percent: 68 }, { protocol: "TCP", percent: 32 }],
        attack_top_source_countries: [{ country: "VN", percent: 50 }, { country: "KR", percent: 22 }],
        attack_top_source_ips: [{ ip: "192.0.2.194", percent: 7 }, { ip: "192.0.2.122", percent: 3 }],
        attack_top_source_ports: [{ port: 11211, percent: 73 }, { port: 389, percent: 27 }],
        attack_traffic: [
          { time: "2026-10-22T09:03:00Z", bps: 6_560_000_000, pps: 1_957_041 },
          { time: "2026-10-22T09:08:00Z", bps: 3_280_000_000, pps: 978_520 },
          { time: "2026-10-22T09:13:00Z", bps: 5_740_000_000, pps: 1_712_411 },
          { time: "2026-10-22T09:18:00Z", bps: 8_200_000_000, pps: 2_446_301 },
          { time: "2026-10-22T09:23:00Z", bps: 4_920_000_000, pps: 1_467_780 },
          { time: "2026-10-22T09:28:00Z", bps: 7_380_000_000, pps: 2_201_671 },
        ],
      },
      newAccount: { status: 404, because: "Events are the attacks the service saw on an account's addresses; a new account has seen none." },
    },
    case: { path: (w) => `/security/notifier/v1/event_logs/${eventOf(w).id}`, ownsObjects: true },
  }),
} as const;
