/**
 * The OpenAPI 3.1 document of the API, generated from the contract alone: @ts-rest/open-api walks the
 * routes, and the contract's zod walk (its SchemaConverter) writes the schemas, which keeps the strict bodies strict.
 */
import * as contractModule from "@cloudplane/contract";
import {
  AREAS,
  ERROR_STATUS,
  IDEMPOTENCY,
  IDEMPOTENCY_DESCRIPTION,
  RAW_BODY,
  SchemaConverter,
  bodyTypeOf,
  contract,
  isBytes,
  namedSchemas,
  unwrapped,
  type RouteAccess,
  type SchemaObject,
} from "@cloudplane/contract";
import contractPackage from "@cloudplane/contract/package.json" with { type: "json" };
import type { AppRoute } from "@ts-rest/core";
import { generateOpenApi } from "@ts-rest/open-api";
import { z } from "zod";
import { AREA_NAMES, AREA_TITLES } from "./areas.js";
import { ERROR_EXAMPLES, errorCodesOf } from "./error-examples.js";
import { WHERE_A_KEY_COMES_FROM, authorizationNotes, guideMarkdown } from "./guide.js";
import type { OperationDocs } from "./operations.js";
import { alsoServedAt, ROUTES, rolesThatMayCall, type DocumentedRoute } from "./routes.js";
import { curlSnippet, pathParamNames, typescriptSnippet } from "./snippets.js";

/** The document's own types: enough to walk it in the tests. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description: string };
  servers: Array<{ url: string; description: string; variables?: Record<string, { default: string }> }>;
  tags: Array<{ name: string; "x-displayName": string; description: string }>;
  security: Array<Record<string, string[]>>;
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, SchemaObject>;
    securitySchemes: Record<string, { type: string; in: string; name: string; description: string; "x-scalar-secret-token"?: string }>;
    headers: Record<string, Header>;
  };
}

export interface Operation {
  operationId: string;
  tags: string[];
  summary: string;
  description: string;
  parameters: Parameter[];
  requestBody?: { required: true; content: Record<string, MediaType> };
  responses: Record<string, { description: string; headers: Record<string, Header | { $ref: string }>; content?: Record<string, MediaType> }>;
  "x-access": RouteAccess;
  "x-codeSamples": Array<{ lang: string; label: string; source: string }>;
  /** On an alias: Scalar leaves it out of the sidebar and the search. */
  "x-scalar-ignore"?: true;
}

export interface Parameter {
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  description?: string;
  schema: SchemaObject;
  example?: unknown;
}

export interface MediaType {
  schema: SchemaObject;
  example?: unknown;
  examples?: Record<string, { summary: string; value: unknown }>;
}

interface Header {
  description: string;
  schema: SchemaObject;
  example?: unknown;
}

/** The status texts of the statuses the API answers with. */
const STATUS_TEXT: Record<number, string> = { 200: "OK", 201: "Created", 204: "No Content: done, nothing to answer." };

/** The OpenAPI document of the whole API. */
export function buildOpenApiDocument(): OpenApiDocument {
  const converter = new SchemaConverter(namedSchemas(contractModule), [[contractModule.hostname, "hostname"]]);
  const routes = new Map(ROUTES.map((entry) => [entry.route, entry]));

  const generated = generateOpenApi(
    contract,
    { info: { title: "", version: "" } },
    {
      setOperationId: true,
      operationMapper: (_operation, route) => buildOperation(routes.get(route)!, converter) as never,
    },
  );

  const document: OpenApiDocument = {
    openapi: "3.1.0",
    info: {
      title: "cloudplane API",
      version: contractPackage.version,
      description: guideMarkdown({ links: true }),
    },
    servers: [
      {
        url: "{base_url}",
        // The variable's description is said here: the OpenAPI 3.1 schema that validators check against
        // (openapi-schemas 2.1) misspells the variable's `description` and rejects it.
        description: "A deployment of the API: base_url is the deployment's base URL, e.g. the local app's (`pnpm start`).",
        variables: { base_url: { default: "http://127.0.0.1:8787" } },
      },
    ],
    tags: AREA_NAMES.map((area) => ({ name: area, "x-displayName": AREA_TITLES[area], description: AREAS[area] })),
    security: [{ apikey: [] }],
    paths: generated.paths,
    components: {
      schemas: sortedByKey(converter.components),
      securitySchemes: {
        apikey: {
          type: "apiKey",
          in: "header",
          name: "Authorization",
          description: `The header's value is the word apikey, one space, then the API token: \`apikey <API token>\`. ${WHERE_A_KEY_COMES_FROM} ${authorizationNotes()}`,
          // What the reference's Authentication field holds at first: the scheme word, the token to paste after
          // it (Scalar sends the value as it is). The local app serves its demo key here when it has the demo data.
          "x-scalar-secret-token": "apikey ",
        },
      },
      headers: {
        "x-request-id": {
          description:
            "The request's id, also in the error envelope's request_id. A client-sent x-request-id of at most 128 characters of [A-Za-z0-9._-] is echoed, otherwise a new one is made.",
          schema: { type: "string" },
          example: contractModule.examples.validationErrorExample.request_id,
        },
        "Retry-After": {
          description: "Seconds to wait before trying again.",
          schema: { type: "integer", minimum: 0 },
          example: 1,
        },
      },
    },
  };
  return document;
}

/** A POST's `Idempotency-Key` header, which makes it safe to retry. */
function idempotencyParameter(route: AppRoute): Parameter[] {
  if (route.method !== "POST") return [];
  return [
    {
      name: IDEMPOTENCY.header,
      in: "header",
      required: false,
      description: IDEMPOTENCY_DESCRIPTION,
      schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x21-\\x7e]+$" },
      example: "3f1c9a52-1d6e-4b7a-9a51-0c2f6b8e4d17",
    },
  ];
}

function buildOperation(entry: DocumentedRoute, converter: SchemaConverter): Operation {
  const { area, name, route, access, docs } = entry;
  const also = alsoServedAt(entry);
  const operation: Operation = {
    operationId: name,
    tags: [area],
    summary: route.summary!,
    description: `${route.description!}\n\n**Roles that may call it** (a ${access} route): ${rolesThatMayCall(access)}.${also ? `\n\n${also}` : ""}`,
    parameters: [...pathParameters(route, docs, converter), ...queryParameters(route, docs, converter), ...idempotencyParameter(route)],
    responses: {},
    "x-access": access,
    "x-codeSamples": [
      { lang: "TypeScript", label: "@cloudplane/client", source: typescriptSnippet(docs) },
      { lang: "Shell", label: "curl", source: curlSnippet(route, docs) },
    ],
    // An alias stays in the document (clients and tools may call its path) but out of the reference's
    // sidebar and search: its primary's description names it.
    ...(entry.aliasOf ? { "x-scalar-ignore": true as const } : {}),
  };
  if ("body" in route && bodyTypeOf(route) === RAW_BODY) {
    // Raw bytes: the schema says so (its checks are in its description). The example's bytes are shown as
    // the string they are when each is ASCII (sent as UTF-8, the string is those bytes); otherwise there is none.
    const description = (route.body as z.ZodTypeAny).description;
    const schema: SchemaObject = { type: "string", format: "binary", ...(description ? { description } : {}) };
    const example = isBytes(docs.body) && docs.body.every((byte) => byte < 0x80) ? { example: String.fromCharCode(...docs.body) } : {};
    operation.requestBody = { required: true, content: { [RAW_BODY]: { schema, ...example } } };
  } else if ("body" in route) {
    const schema = converter.convert(route.body as z.ZodTypeAny);
    // The body's description is the schema's: Scalar would show a second copy of it.
    operation.requestBody = { required: true, content: { "application/json": { schema, ...exampleOf(docs.body) } } };
  }
  for (const [status, response] of Object.entries(route.responses as Record<string, z.ZodTypeAny>)) {
    operation.responses[status] = Number(status) < 400 ? successResponse(Number(status), response, docs, converter) : errorResponse(Number(status), response, converter);
  }
  return operation;
}

function pathParameters(route: AppRoute, docs: OperationDocs, converter: SchemaConverter): Parameter[] {
  const shape = (route.pathParams as z.AnyZodObject | undefined)?.shape as z.ZodRawShape | undefined;
  return pathParamNames(route).map((name) => {
    const field = shape?.[name];
    if (!field) throw new Error(`${route.path}: path parameter ${name} has no schema`);
    return parameter(name, "path", field, docs.pathParams?.[name], converter);
  });
}

function queryParameters(route: AppRoute, docs: OperationDocs, converter: SchemaConverter): Parameter[] {
  const shape = (route.query as z.AnyZodObject | null | undefined)?.shape as z.ZodRawShape | undefined;
  return Object.entries(shape ?? {}).map(([name, field]) => parameter(name, "query", field, docs.query?.[name], converter));
}

function parameter(name: string, location: "path" | "query", field: z.ZodTypeAny, example: unknown, converter: SchemaConverter): Parameter {
  const { description, ...schema } = converter.convert(field);
  return {
    name,
    in: location,
    required: location === "path" || !field.isOptional(),
    ...(description ? { description } : {}),
    schema,
    ...(example === undefined ? {} : { example }),
  };
}

/**
 * A success response. A union with a string described by a media type ("text/csv, …") is that media
 * type beside JSON: the cost report answers CSV when asked to, the CDN servers' addresses plain text.
 */
function successResponse(status: number, response: z.ZodTypeAny, docs: OperationDocs, converter: SchemaConverter): Operation["responses"][string] {
  const headers: Operation["responses"][string]["headers"] = { "x-request-id": { $ref: "#/components/headers/x-request-id" } };
  // No body (ts-rest marks it with a symbol, not a schema): a 204 has headers alone.
  if (typeof response === "symbol") return { description: STATUS_TEXT[status] ?? String(status), headers };
  const content: Record<string, MediaType> = {};
  const inner = unwrapped(response);
  const options = inner instanceof z.ZodUnion ? (inner.options as z.ZodTypeAny[]) : [response];
  const json = options.filter((option) => mediaTypeOf(option) === undefined);
  if (json.length !== 1) throw new Error(`A ${status} response needs exactly one JSON form`);
  content["application/json"] = { schema: converter.convert(json[0]!), ...exampleOf(docs.response) };
  for (const option of options) {
    const mediaType = mediaTypeOf(option);
    if (mediaType === "text/csv")
      content[mediaType] = { schema: converter.convert(option), ...(docs.response === undefined ? {} : { example: csvExample(docs.response) }) };
    else if (mediaType === "text/plain")
      content[mediaType] = { schema: converter.convert(option), ...(docs.response === undefined ? {} : { example: plainListExample(docs.response) }) };
    else if (mediaType !== undefined) throw new Error(`No example for ${mediaType}`);
  }
  for (const [name, header] of Object.entries(docs.responseHeaders ?? {}))
    headers[name] = { description: header.description, schema: { type: header.type }, example: header.example };
  const described = json[0]!.description ?? inner.description;
  return { description: described ?? STATUS_TEXT[status] ?? String(status), headers, content };
}

/** The media type a string response is described with, e.g. "text/csv, with response_format csv_totals.". */
function mediaTypeOf(schema: z.ZodTypeAny): string | undefined {
  if (!(unwrapped(schema) instanceof z.ZodString)) return undefined;
  return /^([a-z]+\/[a-z0-9.+-]+)\b/.exec(schema.description ?? "")?.[1];
}

/** `{ example }`, or nothing for a route whose example lacks this part: the document builds without it. */
function exampleOf(value: unknown): { example?: unknown } {
  return value === undefined ? {} : { example: value };
}

/** The plain-text form of an example of lists (the CDN servers' addresses): every item of its lists, one a line. */
function plainListExample(lists: unknown): string {
  const items = Object.values(lists as Record<string, unknown>).flatMap((value) => (Array.isArray(value) ? value.map(String) : []));
  return `${items.join("\n")}\n`;
}

/** The CSV form of a report example: a header row of the result fields, then one row a result. */
function csvExample(report: unknown): string {
  const { results } = report as { results: Array<Record<string, string | number | null>> };
  const columns = Object.keys(results[0] ?? {});
  const cell = (value: string | number | null | undefined) => (value === null || value === undefined ? "" : String(value));
  return [columns.join(","), ...results.map((result) => columns.map((column) => cell(result[column])).join(","))].join("\r\n") + "\r\n";
}

function errorResponse(status: number, response: z.ZodTypeAny, converter: SchemaConverter): Operation["responses"][string] {
  const codes = errorCodesOf(status);
  if (codes.length === 0) throw new Error(`No error code answers with ${status}`);
  const { description, ...schema } = converter.convert(response);
  const headers: Operation["responses"][string]["headers"] = { "x-request-id": { $ref: "#/components/headers/x-request-id" } };
  if (status === ERROR_STATUS.rate_limited || status === ERROR_STATUS.unavailable) headers["Retry-After"] = { $ref: "#/components/headers/Retry-After" };
  const examples = Object.fromEntries(codes.map((code) => [code, { summary: code, value: ERROR_EXAMPLES[code] }]));
  return {
    description: description ?? String(status),
    headers,
    content: { "application/json": { schema, examples } },
  };
}

function sortedByKey<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}
