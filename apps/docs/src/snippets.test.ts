/** The snippets of an operation come from its route and its example, and still build where the example lacks a part. */
import { routeById } from "@cloudplane/contract";
import { describe, expect, it } from "vitest";
import { operationDocs, resultName } from "./operations.js";
import { clientCall, curlSnippet } from "./snippets.js";

describe("operation snippets", () => {
  it("call the route by its id with the example's params, query and body", () => {
    const update = routeById("cdn.updateResource");
    const call = clientCall(update.route, operationDocs(update));
    expect(call).toMatch(/^const resource = await client\.request\("cdn\.updateResource", \{\n {2}params: \{\n {4}resource_id: 1,\n {2}\},\n {2}body: \{\n/);
    const features = routeById("cdn.getClientFeatures");
    expect(clientCall(features.route, operationDocs(features))).toBe('const clientFeatures = await client.request("cdn.getClientFeatures");');
  });

  it("fall back to no values and no body for a route without an example", () => {
    const { route } = routeById("cdn.updateResource");
    const bare = { id: "cdn.updateResource" as const, result: "resource" };
    expect(clientCall(route, bare)).toBe('const resource = await client.request("cdn.updateResource");');
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
