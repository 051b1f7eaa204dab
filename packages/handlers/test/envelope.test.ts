/**
 * The envelope assertions themselves: they pass the handler's real failures, and fail each way a reply
 * can fall short of the envelope, so that a passing `expectEnvelope` means something.
 */
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, expectSomeEnvelope, useApi, type Reply } from "./harness.js";

/** `reply` with its body, status or headers changed. */
function changed(reply: Reply, change: { body?: unknown; status?: number; headers?: Record<string, string | null> }): Reply {
  const headers = new Headers(reply.headers);
  for (const [name, value] of Object.entries(change.headers ?? {})) {
    if (value === null) headers.delete(name);
    else headers.set(name, value);
  }
  const body = "body" in change ? change.body : reply.body;
  return { status: change.status ?? reply.status, headers, text: JSON.stringify(body), body };
}

describe.each(engines())("the envelope assertions on %s", (engine) => {
  const api = useApi(engine);

  it("pass the handler's failures, with or without errors, and return the envelope", async () => {
    const missing = await api.call("GET", "/cdn/origin_groups/999999");
    expect(expectEnvelope(missing, 404, "not_found").code).toBe("not_found");
    expect(expectSomeEnvelope(missing).request_id).toBe(missing.headers.get("x-request-id"));
    const invalid = await api.call("GET", "/edge/v1/apps?limit=0&ordering=size");
    expectEnvelope(invalid, 400, "validation_error", ["query.ordering", "query.limit"]);
    expectEnvelope(invalid, 400, "validation_error", { "query.limit": [expect.any(String)], "query.ordering": [expect.any(String)] });
    expectSomeEnvelope(invalid);
  });

  it("fail a reply that differs from the envelope in any way", async () => {
    const missing = await api.call("GET", "/cdn/origin_groups/999999");
    const invalid = await api.call("GET", "/edge/v1/apps?limit=0&ordering=size");
    const failures: [string, () => unknown][] = [
      ["another status", () => expectEnvelope(missing, 400, "not_found")],
      ["another code", () => expectEnvelope(missing, 404, "conflict")],
      ["a code of another status", () => expectEnvelope(changed(missing, { status: 400 }), 400, "not_found")],
      ["no JSON content type", () => expectEnvelope(changed(missing, { headers: { "content-type": "text/plain" } }), 404, "not_found")],
      ["no x-request-id header", () => expectEnvelope(changed(missing, { headers: { "x-request-id": null } }), 404, "not_found")],
      ["a request_id that is not the header's", () => expectEnvelope(changed(missing, { body: { ...missing.body, request_id: "other" } }), 404, "not_found")],
      ["a field more", () => expectEnvelope(changed(missing, { body: { ...missing.body, detail: "x" } }), 404, "not_found")],
      ["errors on a failure other than validation", () => expectEnvelope(changed(missing, { body: { ...missing.body, errors: { id: ["x"] } } }), 404, "not_found")],
      ["an empty message", () => expectEnvelope(changed(missing, { body: { ...missing.body, message: " " } }), 404, "not_found")],
      ["no message", () => expectEnvelope(changed(missing, { body: { code: "not_found", request_id: missing.body.request_id } }), 404, "not_found")],
      ["a validation error without errors", () => expectEnvelope(changed(invalid, { body: { ...invalid.body, errors: undefined } }), 400, "validation_error")],
      ["a validation error naming no field", () => expectEnvelope(changed(invalid, { body: { ...invalid.body, errors: {} } }), 400, "validation_error")],
      ["a field without a message", () => expectEnvelope(changed(invalid, { body: { ...invalid.body, errors: { "query.limit": [] } } }), 400, "validation_error")],
      ["other fields named", () => expectEnvelope(invalid, 400, "validation_error", ["query.limit"])],
      ["other messages", () => expectEnvelope(invalid, 400, "validation_error", { "query.limit": ["x"], "query.ordering": [expect.any(String)] })],
      ["a code the contract does not have", () => expectSomeEnvelope(changed(missing, { body: { ...missing.body, code: "gone" } }))],
      ["a success", () => expectSomeEnvelope(changed(missing, { status: 200 }))],
    ];
    for (const [what, assertion] of failures) expect(assertion, what).toThrow();
  });
});
