/**
 * What a deployment configured to allow one page's origin (CORS) answers: the suite cannot configure a
 * deployment, so the caller says which origin it allows.
 */
import type { ConformanceClient } from "./client.js";
import { expectEqual, expectStatus, expectTrue } from "./expect.js";

const LISTING = "/edge/v1/apps?limit=3";

/**
 * A page on `origin` gets the CORS headers (the origin allowed, `Vary: Origin`, the request id exposed)
 * and the whole answer; one on another origin gets the same answer without them; HEAD keeps the GET's
 * length and the headers; a preflight for a POST is allowed.
 */
export async function expectCorsAnswers(client: ConformanceClient, origin: string): Promise<void> {
  const allowed = await client.call("GET", LISTING, { headers: { origin } });
  expectStatus(allowed, 200);
  expectEqual(allowed.headers.get("access-control-allow-origin"), origin, "the allowed origin", allowed);
  expectTrue(allowed.headers.get("vary")?.includes("Origin"), "Vary names Origin", allowed);
  expectTrue(allowed.headers.get("access-control-expose-headers")?.split(",").includes("x-request-id"), "the request id is exposed", allowed);
  expectEqual(allowed.headers.get("content-type"), "application/json", "the content type", allowed);
  expectEqual((allowed.body as { apps?: unknown[] }).apps?.length, 3, "the listing's apps", allowed);
  const other = await client.call("GET", LISTING, { headers: { origin: "https://elsewhere.example" } });
  expectStatus(other, 200);
  expectEqual(other.headers.get("access-control-allow-origin"), null, "no origin allowed for another page", other);
  expectEqual(other.body, allowed.body, "the same answer for another origin", other);
  // Through the client, as every call of the suite: a 429 from the rate limit is sent again after its Retry-After.
  const head = await client.call("HEAD", LISTING, { headers: { origin } });
  expectEqual(
    [head.status, head.size, head.headers.get("access-control-allow-origin"), Number(head.headers.get("content-length"))],
    [200, 0, origin, allowed.size],
    "HEAD: status, body, origin and the GET's length",
  );
  const preflight = await client.call("OPTIONS", "/edge/v1/apps", {
    authorization: null,
    headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" },
  });
  expectEqual([preflight.status, preflight.headers.get("access-control-allow-origin")], [204, origin], "the preflight's status and origin");
  expectTrue(preflight.headers.get("access-control-allow-methods")?.split(",").includes("POST"), "the preflight allows POST");
}
