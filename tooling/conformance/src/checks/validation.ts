/** Validation failures name each offending field by its path (the guide's Errors section). */
import { routeCase, type ConformanceCheck } from "../check.js";
import { expectStatus, expectValidationError } from "../expect.js";

export const validationChecks: ConformanceCheck[] = [
  {
    name: "validation: bad query parameters are named query.<name>",
    async run({ client }) {
      expectValidationError(await client.call("GET", "/edge/v1/apps?limit=0"), ["query.limit"]);
      expectValidationError(await client.call("GET", "/edge/v1/apps?limit=1001"), ["query.limit"]);
      expectValidationError(await client.call("GET", "/edge/v1/apps?limit=0&ordering=size&unknown=ignored"), ["query.limit", "query.ordering"]);
      expectValidationError(await client.call("GET", "/cloud/v2/inference/models?limit=1001"), ["query.limit"]);
      expectValidationError(await client.call("GET", "/cloud/v2/inference/models?offset=-1"), ["query.offset"]);
      expectValidationError(await client.call("GET", "/streaming/streams?page=0"), ["query.page"]);
    },
  },
  {
    name: "validation: bad path parameters are named path.<name>",
    async run({ client }) {
      expectValidationError(await client.call("PATCH", "/cdn/resources/abc", { body: {} }), ["path.resource_id"]);
      expectValidationError(await client.call("GET", "/streaming/streams/1.5"), ["path.stream_id"]);
      expectValidationError(await client.call("GET", "/iam/clients/zero/tokens"), ["path.clientId"]);
    },
  },
  {
    name: "validation: an unknown option key and a read-only field are named, and rejected",
    async run(context) {
      const { client } = context;
      const resource = routeCase(context, "cdn.updateResource").path(1);
      expectValidationError(await client.call("PATCH", resource, { body: { options: { gzipon: { enabled: true, value: true } } } }), ["options.gzipon"]);
      expectValidationError(await client.call("PATCH", resource, { body: { id: 4 } }), ["id"]);
      expectValidationError(await client.call("PATCH", resource, { body: { options: { cors: { enabled: true, value: ["not a domain"] } } } }), [
        "options.cors.value.0",
      ]);
    },
  },
  {
    name: "validation: unknown query parameters are ignored",
    async run({ client }) {
      expectStatus(await client.call("GET", "/cdn/clients/me/features?conformance=1"), 200);
      expectStatus(await client.call("GET", "/edge/v1/apps?limit=2&conformance=yes"), 200);
    },
  },
];
