/**
 * What the logs uploader's targets, policies and configs share: the check status, the linked pages of
 * their listings, id lists in queries, a name, and their routes' path parameters, rules and examples.
 */
import { z } from "zod";
import { idParam, integer, isoTimestamp, listOf, PAGE_MAX, paging, stringEnum } from "../../common.js";
import type { CaseWorld } from "../../route-case.js";

// ---------------------------------------------------------------------------------------------
// Shared parts: the check status, pages, id lists in queries
// ---------------------------------------------------------------------------------------------

export const LOGS_UPLOADER_CHECK_STATUSES = ["in_progress", "successful", "failed"] as const;

/** The `code` of each check status: 0 not checked since the last change, 200 passed, 400 failed. */
export const LOGS_UPLOADER_CHECK_CODES = { in_progress: 0, successful: 200, failed: 400 } as const;

const logsUploaderValidationSchema = z
  .object({
    status: stringEnum(LOGS_UPLOADER_CHECK_STATUSES).describe(
      "in_progress: not checked since it was made or last changed; successful: the last check passed; failed: it did not (see details).",
    ),
    code: integer().describe("0 while in_progress, 200 when successful, 400 when failed."),
    updated: isoTimestamp.describe("When the status last changed."),
    details: z.string().describe('What the last check found: empty while in_progress, the reason when failed.'),
  })
  .strict()
  .describe(
    "The result of the last check (`POST …/validate`). The service cannot reach storages from here: a check " +
      "looks at what can be known without contacting the storage (see the validate routes), never at the storage itself.",
  );
export interface LogsUploaderValidationSchema extends LogsUploaderValidationSchemaType {}
type LogsUploaderValidationSchemaType = typeof logsUploaderValidationSchema;
export const logsUploaderValidation: LogsUploaderValidationSchema = logsUploaderValidationSchema;

export type LogsUploaderValidation = z.infer<typeof logsUploaderValidation>;

/** The most items a listing answers at once, and the number it answers when `limit` is not given. */
export const LOGS_UPLOADER_PAGE = { max: PAGE_MAX, default: 100 } as const;

/**
 * A page of a listing, as the platform pages its logs uploader lists: the total, the links to the pages around,
 * the items (the CDN lists' envelope, pageOf in common.ts, has no links).
 */
export function linkedPageOf<T extends z.ZodTypeAny>(item: T, what: string) {
  return z
    .object({
      count: integer().describe(`The number of ${what} that match the filters, before limit and offset.`),
      next: z.string().nullable().describe("The URL of the next page (this request with `offset` moved on), or null on the last page."),
      previous: z.string().nullable().describe("The URL of the previous page, or null on the first page."),
      results: z.array(item).describe(`The ${what} of this page, in ascending id order.`),
    })
    .strict()
    .describe(`A page of ${what}.`);
}

/**
 * A list of ids in a query string: the parameter repeated (`config_ids=1&config_ids=3`), given as a
 * comma-separated list (`config_ids=1,3`), or both. Only plain decimal digits are read as ids.
 */
export function idListQuery(description: string) {
  const list = listOf(integer({ min: 1 }).describe("An id."), { max: 100, noun: "ids", description });
  const schema = z.preprocess((value: unknown): unknown => {
    const texts: unknown[] | undefined = typeof value === "string" ? [value] : Array.isArray(value) ? (value as unknown[]) : undefined;
    if (!texts) return value;
    return texts
      .flatMap((text): unknown[] => (typeof text === "string" ? text.split(",") : [text]))
      // Any number is read as one (then checked as an id), so that one out of range is told so.
      .map((text): unknown => (typeof text === "string" && text.trim() !== "" && !Number.isNaN(Number(text)) ? Number(text) : text));
  }, list);
  return schema as unknown as z.ZodType<number[], z.ZodTypeDef, number[]>;
}

export const pagingQuery = {
  search: z
    .string()
    .max(255)
    .optional()
    .describe("Objects whose name contains this text, case-insensitively, or whose id is this number."),
  ...paging("objects", LOGS_UPLOADER_PAGE.default, LOGS_UPLOADER_PAGE.max),
};

export const name = z.string().min(1).max(255);

// ---------------------------------------------------------------------------------------------
// Routes
// ---------------------------------------------------------------------------------------------

export const idParams = (what: string) => z.object({ id: idParam(`The ${what} id.`) });

/** The body of a check: none (or `{}`); any field is refused. */

export const LIST_RULES =
  `Paged by \`limit\` (default ${LOGS_UPLOADER_PAGE.default}, at most ${LOGS_UPLOADER_PAGE.max}) and \`offset\`, in ascending id order; ` +
  "`count` is the number of all the matching objects, `next` and `previous` the URLs of the pages around. `search` matches " +
  "the name (a substring, case-insensitively) or, when it is a number, the id too. Id lists in the query may repeat the " +
  "parameter or separate ids with commas (at most 100 ids).";

export const CHANGE_RESETS_CHECK = "A change answers the object with its status back at in_progress (code 0): the last check no longer holds.";

// The examples' objects: the demo data's, of account 1.
export const checked: LogsUploaderValidation = { status: "successful", code: 200, updated: "2026-03-02T09:00:00.000Z", details: "" };
export const unchecked: LogsUploaderValidation = { status: "in_progress", code: 0, updated: "2026-03-02T09:00:00.000Z", details: "" };

export const page = <T>(results: T[]) => ({ count: results.length, next: null, previous: null, results });

// The cases' objects that configs name too: the account's first target and policy.
export const targetOf = (w: CaseWorld) => w.first("cdn.listLogsUploaderTargets");
export const policyOf = (w: CaseWorld) => w.first("cdn.listLogsUploaderPolicies");
