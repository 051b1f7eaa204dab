/**
 * The route lookup behind faults and the call log: every route of the contract is found from its own
 * method and path, HEAD finds the GET route, and what the contract does not have finds nothing.
 */
import { ROUTES } from "@cloudplane/contract";
import { describe, expect, it } from "vitest";
import { routeOf } from "../src/route-match.js";

describe("routeOf", () => {
  it("finds every route of the contract from its method and a path with its parameters filled in", () => {
    for (const entry of ROUTES) {
      const path = entry.route.path.replace(/:\w+/g, "42");
      expect(routeOf(entry.route.method, path)?.id, `${entry.route.method} ${path}`).toBe(entry.id);
    }
  });

  it("takes HEAD for the GET route, and any case of the method", () => {
    expect(routeOf("HEAD", "/streaming/streams/7")?.id).toBe("streaming.getStream");
    expect(routeOf("get", "/streaming/streams/7")?.id).toBe("streaming.getStream");
  });

  it("prefers a literal segment to a parameter", () => {
    expect(routeOf("GET", "/iam/clients/me")?.id).toBe("iam.getAccount");
    expect(routeOf("GET", "/iam/clients/5/tokens")?.id).toBe("iam.listTokens");
  });

  it("finds nothing for another method, an empty parameter or a path the contract does not have", () => {
    expect(routeOf("DELETE", "/streaming/streams")).toBeUndefined();
    expect(routeOf("GET", "/streaming/streams/")).toBeUndefined();
    expect(routeOf("GET", "/streaming/streams/7/nothing")).toBeUndefined();
    expect(routeOf("GET", "/")).toBeUndefined();
  });
});
