/**
 * The request pipeline every route shares (the guide's Errors and Rate limits): request ids, the one error envelope,
 * unknown routes and methods (404, 405 with Allow), HEAD, malformed JSON, content types and the body limit.
 */
import { casePath, type ConformanceCheck } from "../check.js";
import { politeFetch, type Reply } from "../client.js";
import { expectEnvelope, expectEqual, expectStatus, expectTrue, expectValidationError } from "../expect.js";
import { uniqueName } from "@cloudplane/contract";

/** Bodies over 1 MiB answer 413 (the guide's Rate limits section). */
const MAX_BODY_BYTES = 1024 * 1024;

/** A body sent in 64 KiB pieces a few milliseconds apart, as a slow client sends it. */
function slowly(text: string): { stream: ReadableStream<Uint8Array>; length: number } {
  const bytes = new TextEncoder().encode(text);
  let offset = 0;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (offset >= bytes.length) return controller.close();
      await new Promise((resolve) => setTimeout(resolve, 2));
      controller.enqueue(bytes.subarray(offset, offset + 64 * 1024));
      offset += 64 * 1024;
    },
  });
  return { stream, length: bytes.length };
}

export const errorChecks: ConformanceCheck[] = [
  {
    name: "errors: a sent x-request-id is echoed in the header and in the envelope on 400, 401, 403 and 404",
    async run({ client }) {
      const failures = [
        [400, () => client.call("GET", "/edge/v1/apps?limit=0", { headers: { "x-request-id": "conformance-400" } })],
        [401, () => client.call("GET", "/edge/v1/apps", { authorization: null, headers: { "x-request-id": "conformance-401" } })],
        [403, () => client.call("GET", "/edge/v1/apps", { as: [1, "role-3022-active"], headers: { "x-request-id": "conformance-403" } })],
        [404, () => client.call("GET", "/cdn/origin_groups/2147483000", { headers: { "x-request-id": "conformance-404" } })],
      ] as const;
      for (const [status, send] of failures) {
        const reply = await send();
        const code = { 400: "validation_error", 401: "not_authenticated", 403: "permission_denied", 404: "not_found" } as const;
        const body = expectEnvelope(reply, status, code[status]);
        expectEqual(reply.headers.get("x-request-id"), `conformance-${status}`, "the echoed x-request-id header", reply);
        expectEqual(body.request_id, `conformance-${status}`, "the echoed request_id", reply);
      }
    },
  },
  {
    name: "errors: a request id is made when none (or an unreasonable one) is sent, and differs per request",
    async run({ client }) {
      const ids = new Set<string>();
      for (const sent of [undefined, "has space", "x".repeat(129)]) {
        const reply = await client.call("GET", "/cdn/clients/me/features", sent === undefined ? {} : { headers: { "x-request-id": sent } });
        expectStatus(reply, 200);
        const id = reply.headers.get("x-request-id");
        expectTrue(id && id !== sent && /^[A-Za-z0-9._-]{1,128}$/.test(id), "a fresh, reasonable x-request-id", reply);
        ids.add(id);
      }
      expectEqual(ids.size, 3, "distinct request ids");
    },
  },
  {
    name: "errors: unknown routes are 404 not_found; a known path with another method is 405 method_not_allowed with Allow",
    async run({ client }) {
      expectEnvelope(await client.call("GET", "/cdn/conformance-no-such-route"), 404, "not_found");
      expectEnvelope(await client.call("GET", "/no-such-area/v1/things"), 404, "not_found");
      // The path's own methods, in any order; OPTIONS too where the deployment has CORS on.
      for (const [method, path, methods] of [
        ["DELETE", "/cdn/resources/1/shielding_v2", ["GET", "HEAD", "PUT"]],
        ["POST", "/cdn/clients/me/features", ["GET", "HEAD"]],
        ["PUT", "/edge/v1/secrets", ["GET", "HEAD", "POST"]],
      ] as const) {
        const reply = await client.call(method, path);
        expectEnvelope(reply, 405, "method_not_allowed");
        const allow = (reply.headers.get("allow") ?? "").split(",").map((name) => name.trim()).filter((name) => name && name !== "OPTIONS");
        expectEqual(allow.sort(), [...methods], `the Allow header of ${method} ${path}`, reply);
      }
    },
  },
  {
    name: "errors: HEAD of every GET route answers with the GET's status and headers and no body",
    async run(context) {
      const gets = context.cases.filter((route) => route.route.method === "GET");
      expectTrue(gets.length > 0, "the contract has GET routes");
      for (const route of gets) {
        // A route whose case makes its object (a task of an upload) gets a fresh one.
        const path = await casePath(context, route, 1);
        // An answer that moves with time (a deployment starting up) may change between the HEAD and the GET: a
        // length that differs is asked again, up to 3 times; a HEAD that counts its length otherwise differs every time.
        for (let attempt = 1; ; attempt++) {
          // Sent with fetch itself: the suite's client reads a JSON content type as a JSON body, which a HEAD answer has not.
          const response = await politeFetch(`${context.client.baseUrl}${path}`, { method: "HEAD", headers: { authorization: context.client.apikey([1, "role-1-active"]) } });
          const headText = await response.text();
          const head: Reply = { method: "HEAD", path, status: response.status, headers: response.headers, text: headText, size: new TextEncoder().encode(headText).byteLength, body: undefined };
          // Then the GET, on the same kept-alive connection: a body sent after the HEAD's headers would garble it.
          const get = await context.client.call("GET", path);
          expectStatus(get, route.status);
          expectEqual(head.status, get.status, `HEAD ${path}: the GET's status`, head);
          expectEqual(head.text, "", `HEAD ${path}: no body`, head);
          expectEqual(head.headers.get("content-type"), get.headers.get("content-type"), `HEAD ${path}: the GET's content type`, head);
          expectTrue(head.headers.get("x-request-id"), `HEAD ${path}: an x-request-id header`, head);
          const length = head.headers.get("content-length");
          // The GET's own Content-Length where it sends one, else the bytes of its body (a zip archive's are not text).
          const getLength = get.headers.get("content-length");
          const expected = getLength !== null ? Number(getLength) : get.size;
          if (length !== null && Number(length) !== expected && attempt < 3) continue;
          if (length !== null) expectEqual(Number(length), expected, `HEAD ${path}: the GET's content length`, head);
          break;
        }
      }
    },
  },
  {
    name: "errors: malformed JSON is 400 malformed_json",
    async run({ client }) {
      expectEnvelope(await client.call("PUT", "/cdn/clients/me", { rawBody: '{"utilization_level": ', headers: { "content-type": "application/json" } }), 400, "malformed_json");
    },
  },
  {
    name: "errors: a body that is not JSON by its content type is 415 unsupported_media_type",
    async run({ client }) {
      expectEnvelope(
        await client.call("POST", "/edge/v1/secrets", { rawBody: "name=conformance", headers: { "content-type": "application/x-www-form-urlencoded" } }),
        415,
        "unsupported_media_type",
      );
      expectEnvelope(await client.call("PUT", "/cdn/clients/me", { rawBody: '{"utilization_level":1}', headers: { "content-type": "text/plain" } }), 415, "unsupported_media_type");
    },
  },
  {
    name: "errors: JSON with a charset parameter is taken",
    async run({ client }) {
      const reply = await client.call("PUT", "/cdn/clients/me", { rawBody: '{"utilization_level":3}', headers: { "content-type": "application/json; charset=utf-8" } });
      expectStatus(reply, 200);
      expectEqual((reply.body as { utilization_level: number }).utilization_level, 3, "utilization_level", reply);
    },
  },
  {
    name: "errors: a body over 1 MiB is 413 payload_too_large; one just under is read and validated",
    async run({ client }) {
      const over = JSON.stringify({ name: uniqueName("big"), secret_slots: [{ slot: 0, value: "x".repeat(MAX_BODY_BYTES) }] });
      expectEnvelope(await client.call("POST", "/edge/v1/secrets", { rawBody: over, headers: { "content-type": "application/json" } }), 413, "payload_too_large");
      // A client still sending when the answer is ready must get it too, not a reset connection.
      const { stream, length } = slowly(over);
      expectEnvelope(
        await client.call("POST", "/edge/v1/secrets", { rawBody: stream, headers: { "content-type": "application/json", "content-length": String(length) } }),
        413,
        "payload_too_large",
      );
      const under = JSON.stringify({ name: uniqueName("under"), secret_slots: [{ slot: 0, value: "x".repeat(MAX_BODY_BYTES - 200) }] });
      expectValidationError(await client.call("POST", "/edge/v1/secrets", { rawBody: under, headers: { "content-type": "application/json" } }), ["secret_slots.0.value"]);
    },
  },
  {
    name: "errors: a route that needs a body and gets none is 400 naming the body",
    async run({ client }) {
      expectValidationError(await client.call("PUT", "/cdn/clients/me"), ["body"]);
    },
  },
];
