/**
 * The CDN audit log (the platform's activity log): every API request that writes to the CDN area, made
 * with one of the account's tokens, with who made it, what it sent (secrets removed) and what it answered.
 */
import { z } from "zod";
import { errorResponses, idParam, integer, integerParam, pageOf, paging } from "../common.js";
import type { ClientMetadata } from "../client-names.js";
import { route } from "../route.js";
import { CDN_PAGE_MAX, read } from "./shared.js";

/** A date, or a date and a time, in the filters: `2026-11-01`, `2026-11-01 12:00:00`, `2026-11-01T12:00:00Z`. */
const momentFilter = (description: string) =>
  z
    .string()
    .regex(
      /^\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/,
      "Must be a date (2026-11-01) or a date and time (2026-11-01 12:00:00 or 2026-11-01T12:00:00Z); without a zone, UTC.",
    )
    .describe(description);

const auditLogActionSchema = z
  .object({
    action_type: z.enum(["C", "U", "D"]).describe("What the request did: C created, U updated, D deleted."),
    state_before_request: z.null().describe("The object before the request: not kept by this service, always null."),
    state_after_request: z.null().describe("The object after the request: not kept by this service, always null."),
  })
  .strict();

const auditLogEntrySchema = z
  .object({
    id: integer({ column: "bigint" }).describe("The entry's id."),
    client_id: integer().describe("The account id."),
    user_id: integer().describe("The user the token was issued for."),
    token_id: integer().describe("The API token the request was made with."),
    requested_at: z.string().describe("When the request was made (ISO 8601, UTC, microseconds)."),
    method: z.string().describe("The request's HTTP method: POST, PUT, PATCH or DELETE."),
    path: z.string().describe("The request's path."),
    query_params: z.string().describe("The request's query string without the `?`; empty without one."),
    host: z.string().describe("The host the request was sent to."),
    remote_ip_address: z.string().nullable().describe("The client's address as the proxy in front of the API reported it (X-Forwarded-For, X-Real-IP); null when none did."),
    status_code: integer().describe("The status the request was answered with."),
    data: z.record(z.unknown()).nullable().describe("The request's JSON body, with every secret (secret keys, passwords, private keys, tokens) removed; null without a body."),
    actions: z.array(auditLogActionSchema).describe("What the request changed: one action for a write that succeeded, none for one that was refused."),
  })
  .strict()
  .describe("A write request to the CDN area.");
export interface CdnAuditLogEntrySchema extends CdnAuditLogEntrySchemaType {}
type CdnAuditLogEntrySchemaType = typeof auditLogEntrySchema;
export const cdnAuditLogEntry: CdnAuditLogEntrySchema = auditLogEntrySchema;
export type CdnAuditLogEntry = z.infer<typeof cdnAuditLogEntry>;

const auditLogPageSchema = pageOf(cdnAuditLogEntry, "entries");
export interface CdnAuditLogPageSchema extends CdnAuditLogPageSchemaType {}
type CdnAuditLogPageSchemaType = typeof auditLogPageSchema;
export const cdnAuditLogPage: CdnAuditLogPageSchema = auditLogPageSchema;

const listQuerySchema = z.object({
  client_id: integerParam({ min: 1, description: "The account id: the caller's own (another account's id matches nothing)." }).optional(),
  user_id: integerParam({ min: 1, description: "Only the requests of this user." }).optional(),
  token_id: integerParam({ min: 1, description: "Only the requests made with this API token." }).optional(),
  method: z.enum(["POST", "PUT", "PATCH", "DELETE"], { errorMap: () => ({ message: "Must be one of: POST, PUT, PATCH, DELETE (upper case)." }) }).optional().describe("Only requests of this method, in upper case."),
  path: z.string().max(2048, "Must be at most 2048 characters.").optional().describe("Only requests to exactly this path."),
  remote_ip_address: z.string().max(64, "Must be at most 64 characters.").optional().describe("Only requests from exactly this address."),
  status_code: integerParam({ min: 1, max: 599, description: "Only requests answered with a status that starts with these digits: 4 for every 4xx, 40 for 400 to 409, 404 for 404." }).optional(),
  min_requested_at: momentFilter("Only requests made at or after this (a date alone: its midnight, UTC).").optional(),
  max_requested_at: momentFilter("Only requests made at or before this (a date alone: the whole day, UTC).").optional(),
  ...paging("entries", 100, CDN_PAGE_MAX),
});
export interface CdnAuditLogQuerySchema extends CdnAuditLogQuerySchemaType {}
type CdnAuditLogQuerySchemaType = typeof listQuerySchema;
export const cdnAuditLogQuery: CdnAuditLogQuerySchema = listQuerySchema;
export type CdnAuditLogQuery = z.infer<typeof cdnAuditLogQuery>;

/** The examples' entry: the demo data's first. */
export const cdnAuditLogEntryExample: CdnAuditLogEntry = {
  id: 3,
  client_id: 1,
  user_id: 1,
  token_id: 1,
  requested_at: "2026-10-30T09:12:00.000000Z",
  method: "PATCH",
  path: "/cdn/resources/1",
  query_params: "",
  host: "api.cloudplane.example",
  remote_ip_address: "203.0.113.10",
  status_code: 200,
  data: { description: "The main site and its images, HTTPS only." },
  actions: [{ action_type: "U", state_before_request: null, state_after_request: null }],
};

export const cdnAuditLogRoutes = {
  listAuditLog: route({
    method: "GET",
    path: "/cdn/activity_log/requests",
    query: cdnAuditLogQuery,
    responses: { 200: cdnAuditLogPage, ...errorResponses() },
    summary: "List the CDN audit log",
    description:
      "The account's write requests (POST, PUT, PATCH, DELETE) to the CDN area made with its API tokens, newest first, " +
      "those refused included (a 4xx, once the token was accepted), filtered by the parameters given and paged by `limit` " +
      "(default 100) and `offset`. An entry is written in the request's own transaction when the write commits one, so a " +
      "write that is not in the log did not happen; reads are not logged. A read: Users may call it.",
    metadata: { ...read, client: { resource: "auditLogs", method: "list" } } satisfies ClientMetadata,
  }, {
    example: { query: { limit: 1, offset: 0 }, response: { count: 3, results: [cdnAuditLogEntryExample] } },
    case: { path: () => "/cdn/activity_log/requests?limit=10", ownsObjects: false },
  }),
  getAuditLogEntry: route({
    method: "GET",
    path: "/cdn/activity_log/requests/:id",
    pathParams: z.object({ id: idParam("The entry's id (the platform's `log_id`); another account's entry is 404.") }),
    responses: { 200: cdnAuditLogEntry, ...errorResponses() },
    summary: "Get a CDN audit log entry",
    description: "One entry of the account's CDN audit log. Another account's entry answers 404, as an unknown id does. A read: Users may call it.",
    metadata: { ...read, client: { resource: "auditLogs", method: "get" } } satisfies ClientMetadata,
  }, {
    example: {
      pathParams: { id: cdnAuditLogEntryExample.id },
      response: cdnAuditLogEntryExample,
      newAccount: { status: 404, because: "The entry is the demo account's; a new account reads its own entries by the ids its listing gives." },
    },
    case: { path: (w) => `/cdn/activity_log/requests/${w.first("cdn.listAuditLog").id}`, ownsObjects: true },
  }),
} as const;
