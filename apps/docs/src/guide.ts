/**
 * The guide, as Markdown: authentication, roles, errors, pagination, rate limits and versioning, then
 * every operation with its client and curl snippets. The facts come from the contract (and, for the
 * rate limit, from the handlers' defaults); the reference's introduction is the same text.
 */
import {
  AREAS,
  ERROR_STATUS,
  IDEMPOTENCY,
  IDEMPOTENCY_DESCRIPTION,
  INT32_MAX,
  INT32_MIN,
  MAX_REPORTED_PROBLEMS,
  ROLE_IDS,
  contract,
  errorEnvelope,
  errorResponses,
  examples,
  roleMayCall,
  roleName,
  type ErrorCode,
} from "@cloudplane/contract";
import type { z } from "zod";
import { AREA_NAMES, AREA_TITLES } from "./areas.js";
import { aliasesOf, alsoServedAt, methodAndPath, PRIMARY_ROUTES, ROUTES, rolesThatMayCall, type DocumentedRoute } from "./routes.js";
import { CLIENT_INSTALL, CLIENT_SETUP, ENV, clientCall, curlSnippet } from "./snippets.js";

/** The handlers' default per-token request rate (`rateLimit` of createHandler; a deployment may configure it). */
export const RATE_LIMIT = { requestsPerSecond: 50, burst: 100 } as const;

/** The error statuses with what each means, as the contract describes them on every route. */
const ERROR_RESPONSES = errorResponses([405, 408, 409, 413, 415, 422, 431]) as Record<number, z.ZodTypeAny>;

function codeList(codes: readonly string[]): string {
  return codes.map((code) => `\`${code}\``).join(", ");
}

function table(header: string[], rows: string[][]): string {
  const cell = (text: string) => text.replaceAll("|", "\\|").replaceAll("\n", " ");
  return [header, header.map(() => "---"), ...rows].map((row) => `| ${row.map(cell).join(" | ")} |`).join("\n");
}

function overview(links: boolean): string {
  const lines = [
    "The cloudplane API manages the resources of one customer account over HTTPS. Request and response bodies " +
      "are JSON (`Content-Type: application/json`); fields that have no value are `null`. The first path segment " +
      "of every route names its area:",
    "",
    ...AREA_NAMES.map((area) => {
      const count = PRIMARY_ROUTES.filter((entry) => entry.area === area).length;
      const aliased = PRIMARY_ROUTES.filter((entry) => entry.area === area && aliasesOf(entry).length > 0).length;
      const served = aliased === 0 ? "" : `, ${aliased} of them also served at another path`;
      return `- **${AREA_TITLES[area]}** (\`/${area}\`, ${count} operation${count === 1 ? "" : "s"}${served}): ${AREAS[area]}`;
    }),
  ];
  lines.push(
    "",
    "To test code that calls the API against the API itself, in the test process, see " +
      "[Testing your code against the platform](testing.html) (`@cloudplane/testing`).",
  );
  if (links)
    lines.push(
      "",
      `Beside this reference: the [guide](guide.html) with a TypeScript client (\`${CLIENT_INSTALL}\`) and a curl snippet for every operation, ` +
        "the [changelog](changelog.html), and the OpenAPI document itself, [openapi.json](openapi.json).",
    );
  return lines.join("\n");
}

/** Where an API token comes from: said in the guide and beside the reference's Test Request. */
export const WHERE_A_KEY_COMES_FROM =
  "The local app (`pnpm start`) prints one when it starts, as `Admin API key`: the key of the demo account's administrator. " +
  "On another deployment, use a token issued for your user of the account.";

/**
 * What the contract says about the Authorization header, past its first sentence (the header's form,
 * which the guide and the security scheme say in their own words first).
 */
export function authorizationNotes(): string {
  const header = (contract.cdn.getOriginGroup.headers as z.AnyZodObject).shape as Record<string, z.ZodTypeAny>;
  return header.authorization!.description!.replace(/^`apikey <API token>`\.\s*/, "");
}

function authentication(): string {
  return [
    "## Authentication",
    "",
    "Every operation needs the `Authorization` header: the word `apikey`, one space, then an API token. " + WHERE_A_KEY_COMES_FROM,
    "",
    "```sh",
    `curl "$${ENV.baseUrl}/cdn/clients/me/features" -H "Authorization: apikey $${ENV.apiToken}"`,
    "```",
    "",
    authorizationNotes(),
    "",
    "A token belongs to one account and to the user it was issued for. The service keeps only a SHA-256 hash of it: the token's value is never returned, logged or shown in an error. " +
      "A token works while it is not deleted and its `exp_date` has not passed.",
    "",
    "A token sees only its own account: another account's object answers 404, exactly as one that does not exist, " +
      "and a path that names another account (`/iam/clients/{clientId}/tokens`) answers 403.",
    "",
    table(
      ["Status", "Code", "When"],
      [401].map((status) => [String(status), codeList(codesOf(status)), ERROR_RESPONSES[status]!.description!]),
    ),
  ].join("\n");
}

function roles(): string {
  const roleIds = Object.values(ROLE_IDS).sort((a, b) => a - b);
  const mayCall = (role: number) =>
    roleMayCall(role, "write")
      ? "every operation"
      : roleMayCall(role, "read")
        ? "the read operations only"
        : roleMayCall(role, "purge")
          ? "purging and prefetching a CDN resource's cache only"
          : "no operation of this API (403)";
  return [
    "## Roles",
    "",
    "The token's user has a role, a group id. The role decides which operations the token may call; any other " +
      "answers 403 `permission_denied`.",
    "",
    table(
      ["Id", "Role", "May call"],
      roleIds.map((role) => [String(role), roleName(role), mayCall(role)]),
    ),
    "",
    `The read operations are the GET routes and the reads asked for with a POST, such as the cost report ` +
      `(${rolesThatMayCall("read")} may call them); purging and prefetching a CDN resource's cache is for ` +
      `${rolesThatMayCall("purge")}; every other operation writes (${rolesThatMayCall("write")}).`,
    "",
    table(
      ["Access", "Operations"],
      (["read", "purge", "write"] as const).map((access) => [
        access,
        PRIMARY_ROUTES.filter((entry) => entry.access === access)
          .map(({ route }) => route.summary!)
          .join("; "),
      ]),
    ),
    "",
    "The token listing (`GET /iam/clients/{clientId}/tokens`) shows Administrators every token of the account, and " +
      "Engineers and Users only the tokens issued for themselves. Creating API tokens, and inviting, changing and " +
      "deleting users, is for Administrators alone (Engineers: 403).",
  ].join("\n");
}

/** Where this API's answers differ from the platform's on purpose, so that a user of the platform's own clients knows. */
function platformDifferences(): string {
  return [
    "## Differences from the platform's API",
    "",
    "The operations take the platform's paths, parameters and bodies and answer its models. Where this API " +
      "deliberately answers otherwise, it is listed here:",
    "",
    `- Role ${ROLE_IDS.purgeAndPrefetchApiAndWeb} is named "${roleName(ROLE_IDS.purgeAndPrefetchApiAndWeb)}" in answers ` +
      '(`groups[].name`, `client_user.role.name`, `client_and_roles[].user_roles`); the platform writes "Purge and ' +
      'Prefetch only (API+Web)". Requests that name a role accept either spelling. A client that checks role names ' +
      "against the platform's list (such as the platform's Python SDK, when asked to validate a user strictly) " +
      "rejects this one name.",
    "- A field that has no value is null, not left out: an API token's `last_usage` before its first use, the " +
      "`exp_date` of a token that never expires, a user's `phone` when none was given. The platform's SDKs type a " +
      "few of these as always present (`last_usage`), so a strict check of such a model fails on the null.",
    "- A security profile template's field without a default value has `default` null, in the templates' list and in " +
      "each profile's `fields`, rather than a made-up text; a field with a default gives it as text (`\"1000\"`, " +
      "`\"[]\"`). The platform's Python SDK types a profile field's `default` as always text, so its strict check of " +
      "a profile whose fields include one without a default fails on the null.",
    "- The CDN statistics answer as the platform nests them: the groups of `group_by` under the first group's name " +
      "(`resource`, then a resource's id, …), each with its `metrics`; a series' points (`[time, value]`) under " +
      "`metrics`. The platform's Python SDK types these answers as flat models that also list the documentation's " +
      "placeholders (`1 (example)`, `cis (example)`) and a series' metrics at the top level; those fields are absent.",
    "- A CDN logs uploader target's `storage_type` is one of `s3_vendor` (the platform's own object storage), " +
      "`s3_amazon` and `s3_other`, in requests and answers. The platform's SDKs name its own storage `s3_gcore` and list " +
      "further kinds (FTP, SFTP, HTTP, Azure Blob and others) that this API does not serve, so a strict check of a " +
      "target answered here fails on `s3_vendor`.",
    "- The CDN audit log keeps no object states: an action's `state_before_request` and `state_after_request` are null.",
  ].join("\n");
}

function codesOf(status: number): ErrorCode[] {
  return (Object.entries(ERROR_STATUS) as Array<[ErrorCode, number]>).filter(([, code]) => code === status).map(([code]) => code);
}

function errors(): string {
  const fields = errorEnvelope.shape as Record<string, z.ZodTypeAny>;
  const statuses = [...new Set(Object.values(ERROR_STATUS))].sort((a, b) => a - b);
  return [
    "## Errors",
    "",
    "Every response that is not a success carries the same JSON envelope, on every operation:",
    "",
    "```json",
    JSON.stringify(examples.validationErrorExample, null, 2),
    "```",
    "",
    table(
      ["Field", "What it holds"],
      Object.entries(fields).map(([name, field]) => [`\`${name}\`${field.isOptional() ? " (optional)" : ""}`, field.description!]),
    ),
    "",
    // The schema's description starts by naming itself, which the section's heading already does.
    errorEnvelope.description!.replace(/^The error envelope\.\s*/, ""),
    "",
    table(
      ["Status", "Code", "When"],
      statuses.map((status) => [String(status), codeList(codesOf(status)), ERROR_RESPONSES[status]!.description!]),
    ),
    "",
    "Request bodies are strict: an unknown field or a read-only one is a `validation_error` that names the field, " +
      "so a typo never passes silently. Each operation in the reference lists the statuses it can answer with.",
    "",
    "Every value has its limits, given in the reference: integers the range of what stores them (most are 32-bit: " +
      `${INT32_MIN} to ${INT32_MAX}, ids from 1), and every list and map its most entries (such as 100 secrets of an ` +
      "edge app). A value out of range, or a list or map over its maximum, is a `validation_error` that names the field; " +
      `\`errors\` lists at most ${MAX_REPORTED_PROBLEMS} problems, and the message says how many there were when there were more.`,
    "",
    "A request the HTTP server cannot take in is answered in the envelope too, and its connection " +
      "is closed: one it cannot read (a malformed request line, a method HTTP does not have, a NUL byte in the path, a broken " +
      "chunked body) is `bad_request`, a request line and headers over 16 KiB `request_header_fields_too_large`, and a client " +
      "too slow to send its headers (10 s) or its whole request (30 s) `request_timeout`. (Where a platform's own front " +
      "receives requests first, as on Workers or behind API Gateway, that front answers such requests its own way.)",
    "",
    "When a server stops, it answers the requests it has taken in with `Connection: close` and takes no more. A request that " +
      "gets no answer at all (its connection refused, or closed before the request was sent) was never taken in: it is " +
      "safe to send it again.",
  ].join("\n");
}

function methodsAndBrowsers(): string {
  return [
    "## Methods, and calls from web pages",
    "",
    "Every GET operation answers HEAD too, with the same status and headers and no body. A path called with a method " +
      "it does not have answers 405 `method_not_allowed`, and its `Allow` header lists the methods the path has; a path " +
      "the API does not have answers 404 `not_found`.",
    "",
    "A web page on another origin may call the API from the browser (CORS) where the deployment allows that origin: " +
      "each deployment lists the origins it allows, or allows any. The browser's preflight (`OPTIONS`) is answered " +
      "without a token; an allowed page may send `Authorization`, `Content-Type` and `X-Request-Id`, and read " +
      "`X-Request-Id`, `X-Total-Count`, `Retry-After` and `Allow`. The token always goes in the `Authorization` header, " +
      "never in a cookie. A deployment allows no other origin unless it is told to; the local app (`pnpm start`) allows " +
      "its own pages, so that these docs can send test requests to it.",
  ].join("\n");
}

function pagination(): string {
  const paged = PRIMARY_ROUTES.filter(({ route }) => {
    const shape = (route.query as z.AnyZodObject | null | undefined)?.shape as Record<string, unknown> | undefined;
    return shape !== undefined && ("limit" in shape || "page" in shape);
  });
  const whole = PRIMARY_ROUTES.filter((entry) => entry.name.startsWith("list") && !paged.includes(entry));
  return [
    "## Pagination",
    "",
    "The listings page in the platform's own ways, one per area:",
    "",
    ...paged.flatMap(({ route }) => {
      const shape = (route.query as z.AnyZodObject).shape as Record<string, z.ZodTypeAny>;
      return [
        `### ${route.summary}: \`${methodAndPath(route)}\``,
        "",
        route.description!,
        "",
        table(
          ["Query parameter", "Meaning"],
          Object.entries(shape).map(([name, field]) => [`\`${name}\``, field.description ?? ""]),
        ),
        "",
      ];
    }),
    `${whole.map(({ route }) => `\`${methodAndPath(route)}\``).join(" and ")} answer with the whole list at once.`,
  ].join("\n");
}

function rateLimits(): string {
  return [
    "## Rate limits",
    "",
    `Each API token may make ${RATE_LIMIT.requestsPerSecond} requests a second, in bursts of up to ${RATE_LIMIT.burst} ` +
      "(the defaults; a deployment may configure them). Beyond that, and when the service cannot serve for a moment, " +
      "it answers with a `Retry-After` header: wait that many seconds, then send the request again.",
    "",
    table(
      ["Status", "Code", "When"],
      [429, 503].map((status) => [String(status), codeList(codesOf(status)), ERROR_RESPONSES[status]!.description!]),
    ),
    "",
    `A request body may be at most 1 MiB: ${ERROR_RESPONSES[413]!.description!}`,
    "",
    "## Retrying a create: idempotency keys",
    "",
    "A POST whose answer never arrived (a dropped connection, a timeout) may have been done. Send it with an " +
      `\`${IDEMPOTENCY.header}\` header and it is safe to send again: ${IDEMPOTENCY_DESCRIPTION}`,
    "",
    `Keys are kept for ${IDEMPOTENCY.keptHours} hours; a first request that never finished (its server stopped while ` +
      `serving it) frees its key after ${IDEMPOTENCY.abandonedMinutes} minutes. GET, PUT, PATCH and DELETE are idempotent ` +
      "by themselves and ignore the header.",
  ].join("\n");
}

function versioning(): string {
  const versionsOf = (area: string) => [
    ...new Set(ROUTES.filter((entry) => entry.area === area).flatMap(({ route }) => route.path.split("/").filter((segment) => /^v\d+$/.test(segment)))),
  ].sort();
  return [
    "## Versioning",
    "",
    "The version of an operation is part of its path, where the platform has one; there is no version header " +
      "and no negotiation.",
    "",
    table(
      ["Area", "Version segments in the paths"],
      AREA_NAMES.map((area) => [AREA_TITLES[area], versionsOf(area).join(", ") || "none"]),
    ),
    "",
    "The packages built from the contract (`@cloudplane/contract`, `@cloudplane/client`, …) share one version " +
      "number and follow semantic versioning; the OpenAPI document carries it as `info.version`, and the changelog " +
      "says what each version changed.",
  ].join("\n");
}

/** The guide's prose: the reference's introduction, and the first part of the guide page. */
export function guideMarkdown(options: { links: boolean }): string {
  return [overview(options.links), authentication(), roles(), errors(), methodsAndBrowsers(), pagination(), rateLimits(), versioning(), platformDifferences()].join("\n\n");
}

/** The operation's place in the reference page, as Scalar addresses it. */
export function referenceLink({ area, route }: DocumentedRoute): string {
  return `./#tag/${area}/${route.method}${route.path.replace(/:(\w+)/g, "{$1}")}`;
}

/** Every operation with its client call and its curl command, by area. */
export function operationsMarkdown(): string {
  const sections = [
    "## Operations",
    "",
    `The snippets read the API's base URL and a token from the environment (\`${ENV.baseUrl}\`, \`${ENV.apiToken}\`). ` +
      "The ids they name (CDN resource 1, origin group 1, bucket media-assets…) are those of the demo data's objects, account 1 " +
      "of the local app (`pnpm start`); on a real account, use the ids of your own objects, as its list and create operations " +
      "answer them. " +
      `The TypeScript snippets use the client (\`${CLIENT_INSTALL}\`, which has no dependencies), made once:`,
    "",
    "```sh",
    CLIENT_INSTALL,
    "```",
    "",
    "```ts",
    CLIENT_SETUP,
    "```",
  ];
  for (const area of AREA_NAMES) {
    sections.push("", `### ${AREA_TITLES[area]}`, "", AREAS[area]);
    for (const entry of PRIMARY_ROUTES.filter((item) => item.area === area)) {
      const { route, docs } = entry;
      const also = alsoServedAt(entry);
      sections.push(
        "",
        `#### ${route.summary}`,
        "",
        `\`${methodAndPath(route)}\` (${entry.access}; operationId \`${entry.name}\`): [in the reference](${referenceLink(entry)})`,
        ...(also ? ["", also] : []),
        "",
        "```ts",
        clientCall(docs),
        "```",
        "",
        "```sh",
        curlSnippet(route, docs),
        "```",
      );
    }
  }
  return sections.join("\n");
}
