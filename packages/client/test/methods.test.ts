/**
 * Every route of the contract has one named method of its own, found by walking the client and by the
 * request each method sends; and a route added to the contract gets its method from the generators alone.
 */
import { clientMethodOf, ROUTES, type ContractRoute } from "@cloudplane/contract";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { renderResources } from "../scripts/generate-resources.mjs";
import { renderRoutes } from "../scripts/generate-routes.mjs";
import { renderTypes } from "../scripts/generate-types.mjs";
import { createClient } from "../src/index.js";

type Method = (...args: unknown[]) => PromiseLike<unknown>;

/** Every method of the client's resources, as `area.resource….method`, with the function. */
function methodsOf(node: object, path: string[], found: Map<string, Method>): Map<string, Method> {
  for (let proto = Object.getPrototypeOf(node) as object | null; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto) as object | null)
    for (const key of Object.getOwnPropertyNames(proto)) {
      const value: unknown = (node as Record<string, unknown>)[key];
      if (key !== "constructor" && typeof value === "function" && !found.has([...path, key].join(".")))
        found.set([...path, key].join("."), (value as Method).bind(node));
    }
  for (const [key, value] of Object.entries(node))
    if (typeof value === "object" && value !== null && key !== "transport") methodsOf(value as object, [...path, key], found);
  return found;
}

const primaries = ROUTES.filter((entry) => !entry.aliasOf);
const addressOf = (entry: ContractRoute) => {
  const { resource, method } = clientMethodOf(entry.id);
  return [entry.area, ...resource, method].join(".");
};

describe("the named methods", () => {
  const sent: Array<{ method: string; path: string }> = [];
  const client = createClient({
    apiKey: "test",
    baseUrl: "https://api.test",
    maxRetries: 0,
    fetch: (url, init) => {
      sent.push({ method: init?.method ?? "GET", path: new URL(String(url)).pathname });
      return Promise.resolve(new Response(JSON.stringify({ code: "not_found", message: "Not found." }), { status: 404 }));
    },
  });
  const areas = Object.fromEntries(Object.entries(client).filter(([key]) => ROUTES.some((entry) => entry.area === key)));
  const methods = methodsOf(areas, [], new Map());

  it("are one for each route that is not an alias, and no more", () => {
    const addresses = primaries.map(addressOf);
    expect(new Set(addresses).size).toBe(primaries.length);
    expect([...methods.keys()].sort()).toEqual([...addresses].sort());
  });

  it("each send its own route's request, and an alias is called through its primary's", async () => {
    for (const entry of ROUTES) {
      const { args } = clientMethodOf(entry.id);
      const primary = entry.aliasOf ? primaries.find((each) => each.id === entry.aliasOf)! : entry;
      sent.length = 0;
      // The path parameters, then a body, a query or the options, whichever the method takes next: `{}` suits each.
      await methods.get(addressOf(entry))!(...args.map(() => 7), {}).then(
        () => undefined,
        () => undefined,
      );
      const path = primary.route.path.replace(/:\w+/g, "7");
      expect(sent, entry.id).toEqual([{ method: primary.route.method, path }]);
    }
  });
});

describe("a route added to the contract", () => {
  const added: ContractRoute[] = [
    {
      area: "cdn",
      name: "purgeResourceCache",
      id: "cdn.purgeResourceCache" as ContractRoute["id"],
      access: "write",
      route: {
        method: "POST",
        path: "/cdn/resources/:resource_id/purge",
        pathParams: z.object({ resource_id: z.coerce.number() }),
        body: z.object({ paths: z.array(z.string()) }),
        responses: { 201: z.object({ id: z.number() }) },
        summary: "Purge a CDN resource's cache",
        description: "Removes the given paths from the cache of every edge.",
        metadata: { access: "write" },
      },
    },
    {
      area: "cdn",
      name: "getNote",
      id: "cdn.getNote" as ContractRoute["id"],
      access: "read",
      route: {
        method: "GET",
        path: "/cdn/resources/:resource_id/notes/:note_id",
        pathParams: z.object({ resource_id: z.coerce.number(), note_id: z.coerce.number() }),
        responses: { 200: z.object({ id: z.number() }) },
        summary: "Get a note",
        metadata: { access: "read" },
      },
    },
  ];
  const before = renderResources(ROUTES);
  const after = renderResources([...ROUTES, ...added]);

  it("gets a method named by the rule, in its area's module alone, with the route's doc and types", () => {
    const cdn = after.get("cdn.ts")!;
    expect(cdn).toContain("`POST /cdn/resources/{resource_id}/purge`: Purge a CDN resource's cache. Removes the given paths");
    expect(cdn).toContain(
      '  purgeCache(resourceId: PathParam<"cdn.purgeResourceCache", "resource_id">, body: Body<"cdn.purgeResourceCache">, options?: RequestOptions)',
    );
    expect(cdn).toContain("this.transport.request(cdnRoutes.purgeResourceCache, { params: { resource_id: resourceId }, body }, options)");
    // An item of a collection under an item is a resource of its own, with the parameters of both.
    expect(cdn).toMatch(/export class CdnNotes extends APIResource \{\n[\s\S]*? {2}get\(resourceId: PathParam<"cdn\.getNote", "resource_id">, noteId: PathParam<"cdn\.getNote", "note_id">/);
    expect(cdn).toContain("readonly notes: CdnNotes;");
    for (const [file, text] of before) if (file !== "cdn.ts") expect(after.get(file), file).toBe(text);
  });

  it("gets its line in the route table", () => {
    expect(renderRoutes([...ROUTES, ...added])).toContain('  purgeResourceCache: ["POST", "/cdn/resources/:resource_id/purge"],');
  });

  it("gets its types, its unnamed body and response named after it", () => {
    const types = renderTypes([...ROUTES, ...added]);
    expect(types).toContain(
      [
        '  "cdn.purgeResourceCache": {',
        '    method: "POST";',
        '    path: "/cdn/resources/:resource_id/purge";',
        "    params: {",
        "      resource_id: number;",
        "    };",
        "    query: never;",
        "    body: CdnPurgeResourceCacheBody;",
        "    response: CdnPurgeResourceCacheResponse;",
        "  };",
      ].join("\n"),
    );
    expect(types).toContain("export interface CdnPurgeResourceCacheBody {\n  paths: string[];\n}");
    expect(types).toContain("export interface CdnPurgeResourceCacheResponse {\n  id: number;\n}");
  });
});
