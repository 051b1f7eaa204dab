/** The OpenAPI document validates, holds exactly the contract's operations, and describes and exemplifies all of them. */
import SwaggerParser from "@apidevtools/swagger-parser";
import { dereference, initialBaseURI, validate } from "@cfworker/json-schema";
import { AREAS, ERROR_STATUS, RAW_BODY, ROLE_IDS, bodyTypeOf, clientMethodOf, contract, errorEnvelope, type ErrorCode, type RouteId } from "@cloudplane/contract";
import type { AppRoute } from "@ts-rest/core";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import type { SchemaObject } from "@cloudplane/contract";
import { buildOpenApiDocument, type MediaType, type Operation } from "./openapi.js";
import { ROUTES, methodAndPath } from "./routes.js";

const document = buildOpenApiDocument();

const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({ key: `${method.toUpperCase()} ${path}`, operation })),
);

function routeOf(operation: Operation): AppRoute {
  const route = ROUTES.find((entry) => entry.area === operation.tags[0] && entry.name === operation.operationId)?.route;
  if (!route) throw new Error(`No route for ${operation.operationId}`);
  return route;
}

type JsonSchema = Parameters<typeof dereference>[0];

/**
 * The document's components by URI, as their `$ref`s name them (`#/components/schemas/…`), indexed once:
 * indexing them again for each of the thousands of checks was most of their time. The wrapper's own
 * entry is left out, so that each check's schema takes the root's place.
 */
const components = (() => {
  const lookup = dereference({ components: document.components });
  delete lookup[initialBaseURI.href];
  return lookup;
})();

/** Checks a value against one of the document's schemas, `$ref`s resolved within the document. */
function jsonSchemaErrors(schema: SchemaObject, value: unknown): string[] {
  const root = schema as unknown as JsonSchema;
  const result = validate(value, root, "2020-12", dereference(root, Object.create(components) as typeof components), false);
  return result.valid ? [] : result.errors.map((error) => `${error.instanceLocation}: ${error.error}`);
}

/** Every example of a media type: `example`, or each of `examples`. */
function examplesOf(media: MediaType): unknown[] {
  return media.example !== undefined ? [media.example] : Object.values(media.examples ?? {}).map((example) => example.value);
}

/** Field names that, with their type and the schema they are in, say all there is to know. */
const SELF_EXPLANATORY = new Set([
  "id",
  "name",
  "description",
  "comment",
  "enabled",
  "count",
  "created",
  "updated",
  "version",
  "currency",
  "region",
  "developer",
  "os_distro",
  "os_type",
  "os_version",
  "access_key_id",
  "bucket_name",
  "user_name",
  "user_email",
]);

/** A field that needs no description of its own: a self-explanatory name, an id, or a described component. */
function isObvious(name: string, schema: SchemaObject): boolean {
  return SELF_EXPLANATORY.has(name) || name.endsWith("_id") || schema.$ref !== undefined || schema.items?.$ref !== undefined;
}

/** The paths of the fields (`a.b[].c`) under `schema` that have no description and are not obvious. */
function undescribedFields(schema: SchemaObject, path = ""): string[] {
  const found: string[] = [];
  for (const [name, field] of Object.entries(schema.properties ?? {})) {
    const fieldPath = path ? `${path}.${name}` : name;
    if (!field.description?.trim() && !isObvious(name, field)) found.push(fieldPath);
    found.push(...undescribedFields(field, fieldPath));
  }
  if (schema.items) found.push(...undescribedFields(schema.items, `${path}[]`));
  if (typeof schema.additionalProperties === "object") found.push(...undescribedFields(schema.additionalProperties, `${path}{}`));
  for (const option of schema.anyOf ?? []) found.push(...undescribedFields(option, path));
  return found;
}

describe("the document", () => {
  it("validates as OpenAPI 3.1", async () => {
    // The parser dereferences in place; it gets a copy.
    const parsed = (await SwaggerParser.validate(structuredClone(document) as never)) as { openapi?: string };
    expect(parsed.openapi).toBe("3.1.0");
  });

  it("is the same every time it is built", () => {
    expect(JSON.stringify(buildOpenApiDocument())).toBe(JSON.stringify(document));
  });

  it("holds exactly the contract's operations, once each, with their route names as operationIds", () => {
    expect(operations.map(({ key }) => key).sort()).toEqual(ROUTES.map(({ route }) => methodAndPath(route)).sort());
    expect(new Set(operations.map(({ key }) => key)).size).toBe(ROUTES.length);
    const ids = operations.map(({ operation }) => `${operation.tags[0]}.${operation.operationId}`);
    expect(ids.sort()).toEqual(ROUTES.map(({ id }) => id).sort());
    expect(new Set(operations.map(({ operation }) => operation.operationId)).size).toBe(ROUTES.length);
    for (const { operation } of operations) expect(routeOf(operation).summary).toBe(operation.summary);
  });

  it("has a tag per area, with the area's description, and every operation in its area's tag", () => {
    expect(document.tags.map((tag) => tag.name)).toEqual(Object.keys(contract));
    for (const tag of document.tags) {
      expect(tag.description).toBe(AREAS[tag.name as keyof typeof AREAS]);
      expect(tag["x-displayName"].length).toBeGreaterThan(1);
    }
    for (const { key, operation } of operations) {
      expect(operation.tags).toHaveLength(1);
      // The route's area, which is its path's first segment but for aliases at the platform's other paths (/fastedge/v1/…).
      const route = ROUTES.find((entry) => methodAndPath(entry.route) === key)!;
      expect(route.area, key).toBe(operation.tags[0]);
      if (!route.aliasOf) expect(key.split(" ")[1]!.split("/")[1], key).toBe(operation.tags[0]);
    }
  });

  it("keeps each alias out of the sidebar (x-scalar-ignore) and names it in its primary's description", () => {
    const aliases = ROUTES.filter((entry) => entry.aliasOf);
    expect(aliases.length).toBeGreaterThan(0);
    for (const { key, operation } of operations) {
      const route = ROUTES.find((entry) => methodAndPath(entry.route) === key)!;
      expect(operation["x-scalar-ignore"], key).toBe(route.aliasOf ? true : undefined);
      const named = aliases.filter((alias) => alias.aliasOf === route.id).map((alias) => `\`${methodAndPath(alias.route)}\``);
      if (named.length === 0) expect(operation.description, key).not.toContain("**Also served at**");
      else expect(operation.description, key).toContain(`**Also served at** ${named.join(", ")}: `);
    }
  });

  it("has the apikey security scheme, required by every operation, and servers", () => {
    expect(document.components.securitySchemes.apikey).toMatchObject({ type: "apiKey", in: "header", name: "Authorization" });
    expect(document.components.securitySchemes.apikey!.description).toContain("apikey <API token>");
    expect(document.security).toEqual([{ apikey: [] }]);
    for (const { operation } of operations) expect(operation).not.toHaveProperty("security");
    expect(document.servers.length).toBeGreaterThan(0);
    expect(document.info.description).toContain("## Authentication");
  });

  it("describes every schema, and every field whose name does not say what it is", () => {
    // Every gap at once, so that one run names them all.
    const undescribed = [
      ...Object.entries(document.components.schemas).flatMap(([name, schema]) => [
        ...(schema.description?.trim() ? [] : [name]),
        ...undescribedFields(schema).map((field) => `${name}.${field}`),
      ]),
      ...operations.flatMap(({ key, operation }) =>
        operation.parameters.filter((parameter) => !parameter.description?.trim()).map((parameter) => `${key} ${parameter.name}`),
      ),
    ];
    expect(undescribed).toEqual([]);
  });

  it("keeps the strict bodies strict and the integer parameters integers", () => {
    const strictObjects: string[] = [];
    const open: string[] = [];
    const walk = (schema: SchemaObject, path: string) => {
      const types = [schema.type].flat();
      if (types.includes("object") && schema.properties) (schema.additionalProperties === false ? strictObjects : open).push(path);
      for (const [name, field] of Object.entries(schema.properties ?? {})) walk(field, `${path}.${name}`);
      if (schema.items) walk(schema.items, `${path}[]`);
    };
    for (const [name, schema] of Object.entries(document.components.schemas)) walk(schema, name);
    expect(open).toEqual([]);
    expect(strictObjects).toContain("UpdateCdnResourceBody");
    expect(strictObjects).toContain("CreateLogsUploaderTargetBody.config");

    const parameters = operations.flatMap(({ operation }) => operation.parameters);
    const resourceId = parameters.find((parameter) => parameter.name === "resource_id")!;
    expect(resourceId.schema).toEqual({ type: "integer", minimum: 1, maximum: 2_147_483_647 });
    expect(parameters.find((parameter) => parameter.name === "role")!.schema).toEqual({ type: "integer", enum: Object.values(ROLE_IDS) });
    expect(parameters.find((parameter) => parameter.name === "limit" && parameter.schema.default === 25)?.schema).toMatchObject({
      type: "integer",
      minimum: 1,
      maximum: 1000,
    });
    expect(jsonSchemaErrors(document.components.schemas.UpdateCdnResourceBody!, { options: { gzipon: { enabled: true, value: true } } })).not.toEqual([]);
  });

  it("gives every operation an example path, query and body that the contract accepts", () => {
    for (const { key, operation } of operations) {
      const route = routeOf(operation);
      const pathParams = Object.fromEntries(operation.parameters.filter((parameter) => parameter.in === "path").map((parameter) => [parameter.name, String(parameter.example)]));
      for (const parameter of operation.parameters.filter((item) => item.in === "path")) expect(parameter.example, `${key} ${parameter.name}`).toBeDefined();
      if (route.pathParams) expect((route.pathParams as z.ZodTypeAny).safeParse(pathParams).error?.issues, key).toBeUndefined();
      const query = Object.fromEntries(operation.parameters.filter((parameter) => parameter.in === "query" && parameter.example !== undefined).map((parameter) => [parameter.name, String(parameter.example)]));
      if (route.query) expect((route.query as z.ZodTypeAny).safeParse(query).error?.issues, key).toBeUndefined();
      if ("body" in route && bodyTypeOf(route) === RAW_BODY) {
        // Raw bytes: no JSON form; the example is the bytes as a string of as many characters, which the contract accepts.
        expect(Object.keys(operation.requestBody!.content), key).toEqual([RAW_BODY]);
        const media = operation.requestBody!.content[RAW_BODY]!;
        expect(media.schema, key).toMatchObject({ type: "string", format: "binary" });
        expect(media.example, key).toEqual(expect.any(String));
        const bytes = Uint8Array.from(media.example as string, (char) => char.charCodeAt(0));
        expect(Buffer.from(bytes).toString("utf8"), key).toBe(media.example);
        expect((route.body as z.ZodTypeAny).safeParse(bytes).error?.issues, key).toBeUndefined();
      } else if ("body" in route) {
        const media = operation.requestBody!.content["application/json"]!;
        expect(media.example, key).toBeDefined();
        expect((route.body as z.ZodTypeAny).safeParse(media.example).error?.issues, key).toBeUndefined();
        expect(jsonSchemaErrors(media.schema, media.example), key).toEqual([]);
      } else expect(operation.requestBody, key).toBeUndefined();
    }
  });

  it("gives every response an example that the contract accepts, and every error response the error envelope", () => {
    for (const { key, operation } of operations) {
      const route = routeOf(operation);
      const statuses = Object.keys(route.responses);
      expect(Object.keys(operation.responses).sort(), key).toEqual(statuses.sort());
      for (const [status, response] of Object.entries(operation.responses)) {
        const schema = (route.responses as Record<string, z.ZodTypeAny>)[status]!;
        expect(response.description, `${key} ${status}`).toBeTruthy();
        expect(response.headers["x-request-id"], `${key} ${status}`).toBeDefined();
        for (const [name, header] of Object.entries(response.headers))
          if ("schema" in header) expect(jsonSchemaErrors(header.schema, header.example), `${key} ${status} ${name}`).toEqual([]);
        // A 204 has no content.
        if (status === "204") expect(response.content, `${key} ${status}`).toBeUndefined();
        for (const [mediaType, media] of Object.entries(response.content ?? {})) {
          const values = examplesOf(media);
          expect(values.length, `${key} ${status} ${mediaType}`).toBeGreaterThan(0);
          for (const value of values) {
            expect(schema.safeParse(value).error?.issues, `${key} ${status} ${mediaType}`).toBeUndefined();
            expect(jsonSchemaErrors(media.schema, value), `${key} ${status} ${mediaType}`).toEqual([]);
          }
        }
        if (Number(status) >= 400) {
          const media = response.content!["application/json"]!;
          expect(media.schema.$ref).toBe("#/components/schemas/ErrorEnvelope");
          const codes = Object.keys(media.examples!) as ErrorCode[];
          expect(codes.map((code) => ERROR_STATUS[code])).toEqual(codes.map(() => Number(status)));
          for (const code of codes) expect(errorEnvelope.parse(media.examples![code]!.value).code).toBe(code);
        }
      }
    }
  });

  it("documents the CSV form of the cost report beside its JSON", () => {
    const report = document.paths["/cloud/v1/reservation_cost_report/totals"]!.post!.responses["200"]!;
    expect(Object.keys(report.content!).sort()).toEqual(["application/json", "text/csv"]);
    expect(String(report.content!["text/csv"]!.example)).toMatch(/^type,region,region_id,flavor,.*\r\ninstance,1,1,/);
  });

  it("documents the edge binary upload's body as raw bytes, and its snippets send the example module's bytes", () => {
    for (const path of ["/edge/v1/binaries/raw", "/fastedge/v1/binaries/raw"]) {
      const upload = document.paths[path]!.post!;
      expect(upload.requestBody!.content).toEqual({
        "application/octet-stream": {
          schema: { type: "string", format: "binary", description: expect.stringContaining("WebAssembly") as string },
          example: "\u0000asm\u0001\u0000\u0000\u0000",
        },
      });
      expect(Object.keys(upload.responses)).toContain("201");
      expect(upload.responses["415"]!.description).toContain("application/octet-stream");
      const [typescript, curl] = upload["x-codeSamples"];
      expect(typescript!.source).toContain("await client.edge.binaries.upload(new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]));");
      expect(curl!.source).toMatch(/^printf '\\000\\141\\163\\155\\001\\000\\000\\000' \| curl -X POST /);
      expect(curl!.source).toContain("--data-binary @-");
    }
  });

  it("shows a client and a curl snippet for every operation", () => {
    for (const { key, operation } of operations) {
      const [typescript, curl] = operation["x-codeSamples"];
      expect(typescript!.source, key).toMatch(/^import \{ createClient \} from "@cloudplane\/client";/);
      const { resource, method: name } = clientMethodOf(`${operation.tags[0]}.${operation.operationId}` as RouteId);
      expect(typescript!.source, key).toContain(`await client.${[operation.tags[0], ...resource, name].join(".")}(`);
      const [method, path] = key.split(" ") as [string, string];
      const examplePath = path.replace(/\{(\w+)\}/g, (_match, name: string) => String(operation.parameters.find((parameter) => parameter.name === name)!.example));
      expect(curl!.source, key).toContain(`curl -X ${method} "$CLOUDPLANE_BASE_URL${examplePath}`);
      expect(curl!.source, key).toContain("Authorization: apikey $CLOUDPLANE_API_KEY");
      if (operation.requestBody?.content[RAW_BODY]) expect(curl!.source, key).toContain(`-H "Content-Type: ${RAW_BODY}"`);
      else if (operation.requestBody) expect(curl!.source, key).toMatch(/-d '[{[]/);
    }
  });
});
