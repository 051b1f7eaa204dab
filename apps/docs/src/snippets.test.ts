/** The snippets of an operation come from its route, its client method and its example, and still build where the example lacks a part. */
import { routeById } from "@cloudplane/contract";
import { describe, expect, it } from "vitest";
import { operationDocs, resultName } from "./operations.js";
import { clientCall, curlSnippet } from "./snippets.js";

describe("operation snippets", () => {
  it("call the route's method with the example's params and body", () => {
    const update = routeById("cdn.updateResource");
    const call = clientCall(operationDocs(update));
    expect(call).toMatch(/^const resource = await client\.cdn\.resources\.update\(1, \{\n {2}\w+: [\s\S]*\n\}\);$/);
    const features = routeById("cdn.getClientFeatures");
    expect(clientCall(operationDocs(features))).toBe("const clientFeatures = await client.cdn.features.get();");
    const buckets = routeById("storage.listBuckets");
    expect(clientCall(operationDocs(buckets))).toMatch(/^const buckets = await client\.storage\.s3\.buckets\.list\(\d+(, \{\n[\s\S]*\})?\);$/);
  });

  it("call an alias through its primary's method", () => {
    const alias = routeById("edge.fastedgePatchApp");
    const primary = routeById("edge.patchApp");
    expect(clientCall(operationDocs(alias))).toMatch(/^const \w+ = await client\.edge\.apps\.update\(/);
    expect(clientCall(operationDocs(alias)).replace(/^const \w+/, "")).toBe(clientCall(operationDocs(primary)).replace(/^const \w+/, ""));
  });

  it("fall back to the arguments' names and no body for a route without an example", () => {
    const { route } = routeById("cdn.updateResource");
    const bare = { id: "cdn.updateResource" as const, result: "resource" };
    expect(clientCall(bare)).toBe("const resource = await client.cdn.resources.update(resourceId);");
    expect(curlSnippet(route, bare)).toBe('curl -X PATCH "$CLOUDPLANE_BASE_URL/cdn/resources/{resource_id}" \\\n  -H "Authorization: apikey $CLOUDPLANE_API_KEY"');
  });

  it("name the result after the route", () => {
    expect(["listTokens", "updateResourceShielding", "getReservationCostReportTotals", "createSecret", "refresh"].map(resultName)).toEqual([
      "tokens",
      "resourceShielding",
      "reservationCostReportTotals",
      "secret",
      "result",
    ]);
  });
});
