/** The client names of the routes: the rule on the contract's own routes, its exceptions, and the collisions it refuses. */
import type { AppRoute } from "@ts-rest/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { clientMethodOf, clientMethods } from "./client-names.js";
import { ROUTES, type ContractRoute, type RouteId } from "./routes.js";

const where = (id: RouteId) => {
  const { resource, method, args } = clientMethodOf(id);
  return `${[id.split(".")[0], ...resource, method].join(".")}(${args.map(({ name }) => name).join(", ")})`;
};

function made(name: string, method: AppRoute["method"], path: string, metadata: object = {}): ContractRoute {
  return {
    area: "cdn",
    name,
    id: `cdn.${name}` as RouteId,
    access: "read",
    route: { method, path, body: z.object({}), responses: { 200: z.object({}) }, metadata: { access: "read", ...metadata } },
  };
}

describe("client names", () => {
  it("follow the rule: CRUD by method and shape, actions by the route's name, resources from the path", () => {
    expect(
      ["cdn.listResources", "cdn.createResource", "cdn.getResource", "cdn.updateResource", "cdn.replaceResource", "cdn.deleteResource"].map((id) =>
        where(id as RouteId),
      ),
    ).toEqual([
      "cdn.resources.list()",
      "cdn.resources.create()",
      "cdn.resources.get(resourceId)",
      "cdn.resources.update(resourceId)",
      "cdn.resources.replace(resourceId)",
      "cdn.resources.delete(resourceId)",
    ]);
    expect(where("cdn.updateResourceShielding")).toBe("cdn.resources.updateShielding(resourceId)");
    expect(where("cdn.validateLogsUploaderTarget")).toBe("cdn.logsUploader.targets.validate(targetId)");
    expect(where("iam.getToken")).toBe("iam.tokens.get(clientId, tokenId)");
    expect(where("storage.getBucketCors")).toBe("storage.s3.buckets.getCors(storageId, bucketName)");
    expect(where("storage.listBuckets")).toBe("storage.s3.buckets.list(storageId)");
    expect(where("edge.uploadBinary")).toBe("edge.binaries.upload()");
    expect(clientMethodOf("edge.uploadBinary").body).toBe("raw");
    // A body that may be left out is an optional argument; one that may not is a required one.
    expect(clientMethodOf("cdn.validateLogsUploaderTarget")).toMatchObject({ body: "json", bodyOptional: true });
    expect(clientMethodOf("cdn.createResource")).toMatchObject({ body: "json" });
    expect(clientMethodOf("cdn.createResource").bodyOptional).toBeUndefined();
  });

  it("take a route's own name from its metadata, and give an alias its primary's", () => {
    expect(where("cdn.getClientFeatures")).toBe("cdn.features.get()");
    expect(where("cdn.updateClientSettings")).toBe("cdn.clientSettings.replace()");
    expect(clientMethodOf("edge.fastedgePatchApp")).toEqual(clientMethodOf("edge.patchApp"));
    expect(where("edge.patchApp")).toBe("edge.apps.update(appId)");
  });

  it("refuse two routes with one name, and a method named like a resource", () => {
    const twice = [...ROUTES, made("purgeCache", "POST", "/cdn/resources/:resource_id/purge_cache"), made("purgeResourceCache", "POST", "/cdn/resources/:resource_id/purge")];
    expect(() => clientMethods(twice)).toThrow(/cdn.purgeCache and cdn.purgeResourceCache are both client.cdn.resources.purgeCache/);
    const clash = [...ROUTES, made("things", "POST", "/cdn/resources/:resource_id/things", { client: { method: "things" } }), made("getThing", "GET", "/cdn/others/:id", { client: { resource: "resources.things" } })];
    expect(() => clientMethods(clash)).toThrow(/client.cdn.resources.things of cdn.things is also a resource/);
  });
});
