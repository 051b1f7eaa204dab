/**
 * ts-rest's fetch handler (patched) hands an implementation its `headers` argument through getters that
 * are one function for every request (see `patches/README.md`). A getter in an object literal was a new
 * function for each request, over the request's scope, and V8 then kept each request's objects through its
 * young-generation collections until a full one. This test serves requests through the fetch handler
 * alone, an implementation reading its headers, and checks that the old generation does not grow by them.
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { oldGenerationGrowth } from "../../../scripts/young-generation.mjs";

const require = createRequire(import.meta.url);
// The fetch handler's ESM build, beside the CommonJS one `require` resolves; zod as the handlers load it.
const fetchHandler = pathToFileURL(join(dirname(require.resolve("@ts-rest/serverless/fetch")), "fetch.esm.mjs")).href;
const zod = pathToFileURL(require.resolve("zod")).href;

/** Requests one after another: how many answers said what the implementation read. */
const setup = `
const { createFetchHandler } = await import(process.env.FETCH_HANDLER);
const { z } = await import(process.env.ZOD);
const contract = {
  getApp: { method: "GET", path: "/apps/:id", pathParams: z.object({ id: z.coerce.number().int() }), responses: { 200: z.object({ id: z.number(), agent: z.string() }) } },
};
const serve = createFetchHandler(contract, {
  getApp: async ({ params, headers }) => ({ status: 200, body: { id: params.id, agent: headers["user-agent"] } }),
});
async function work(count) {
  let right = 0;
  for (let i = 0; i < count; i++) {
    const response = await serve(new Request("http://api.local/apps/" + i, { headers: { "user-agent": "agent " + i } }));
    const body = await response.json();
    if (response.status === 200 && body.id === i && body.agent === "agent " + i) right++;
  }
  return right;
}
`;

describe("ts-rest's fetch handler (patched)", () => {
  it("lets each request's objects die young when the implementation reads its headers", async () => {
    const { grown, result } = await oldGenerationGrowth(setup, { env: { FETCH_HANDLER: fetchHandler, ZOD: zod } });
    expect(result).toBe(3000);
    // Without the patch each request's objects (its URL, headers, parameters, validation) reached the old generation: ~9.3 MB here.
    expect(grown).toBeLessThan(2_000_000);
  });
});
