/**
 * Integration tests of the Cloud inference models: the catalogue listed (ordered and paged, the same to
 * every account) and each model by id, also at the v3 paths.
 */
import { byColumnName, demoFixture, type DemoRow } from "@cloudplane/db";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi } from "../harness.js";

const MODELS = "/cloud/v2/inference/models";
const { inferenceModels: models } = demoFixture;

type DemoInferenceModel = DemoRow<"inferenceModels">;

/** Code-point order: the order the API promises whatever the database's collation. */
function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function sortedModels(field: "name" | "id" | "category" | "developer", direction: "asc" | "desc"): DemoInferenceModel[] {
  const sign = direction === "asc" ? 1 : -1;
  return [...models].sort((a, b) => sign * byCodePoint(a[field], b[field]) || byCodePoint(a.id, b.id));
}

const NO_SUCH_UUID = "00000000-0000-4000-8000-000000000000";

describe.each(engines())("cloud inference models on %s", (engine) => {
  const api = useApi(engine);

  describe("GET /cloud/v2/inference/models", () => {
    it("lists the whole catalogue by name ascending by default", async () => {
      const reply = await api.call("GET", MODELS);
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body.count).toBe(models.length);
      // The default limit (1000) is above the catalogue's size: every model, whole.
      expect(reply.body.results).toEqual(sortedModels("name", "asc").map((model) => byColumnName("inferenceModels", model)));
    });

    it.each(["name", "id", "category", "developer"] as const)("orders by %s, ascending and descending, ties by id", async (field) => {
      for (const direction of ["asc", "desc"] as const) {
        const reply = await api.call("GET", `${MODELS}?order_by=${field}.${direction}`);
        expect(reply.status, reply.text).toBe(200);
        expect(reply.body.results.map((model: DemoInferenceModel) => model.id)).toEqual(
          sortedModels(field, direction).map((model) => model.id),
        );
      }
    });

    it("pages with limit and offset, counting every model", async () => {
      const expected = sortedModels("developer", "desc");
      const pages: string[] = [];
      for (let offset = 0; offset < expected.length; offset += 5) {
        const reply = await api.call("GET", `${MODELS}?order_by=developer.desc&limit=5&offset=${offset}`);
        expect(reply.status, reply.text).toBe(200);
        expect(reply.body.count).toBe(expected.length);
        expect(reply.body.results.length).toBe(Math.min(5, expected.length - offset));
        pages.push(...reply.body.results.map((model: DemoInferenceModel) => model.id));
      }
      expect(pages).toEqual(expected.map((model) => model.id));

      const beyond = await api.call("GET", `${MODELS}?offset=${expected.length}`);
      expect(beyond.status).toBe(200);
      expect(beyond.body).toEqual({ count: expected.length, results: [] });

      const most = await api.call("GET", `${MODELS}?limit=1000&offset=3`);
      expect(most.body.results.map((model: DemoInferenceModel) => model.id)).toEqual(sortedModels("name", "asc").slice(3).map((model) => model.id));
    });

    it("is the platform's catalogue: the other account and a Users token see the same", async () => {
      const expected = sortedModels("category", "asc").map((model) => model.id);
      for (const as of [
        [2, "role-1-active"],
        [1, "role-2-active"],
        [2, "role-5-active"],
      ] as const) {
        const reply = await api.call("GET", `${MODELS}?order_by=category.asc`, { as: [as[0], as[1]] });
        expect(reply.status, reply.text).toBe(200);
        expect(reply.body.results.map((model: DemoInferenceModel) => model.id)).toEqual(expected);
      }
    });

    it.each(["0", "1001", "-1", "1.5", "ten"])("answers 400 query.limit for limit=%s", async (limit) => {
      expectEnvelope(await api.call("GET", `${MODELS}?limit=${limit}`), 400, "validation_error", { "query.limit": [expect.any(String)] });
    });

    it.each(["-1", "x"])("answers 400 query.offset for offset=%s", async (offset) => {
      expectEnvelope(await api.call("GET", `${MODELS}?offset=${offset}`), 400, "validation_error", { "query.offset": [expect.any(String)] });
    });

    it.each(["name", "price.asc", "name.up", "NAME.ASC", "name.asc.id", ""])("answers 400 query.order_by for order_by=%s", async (order) => {
      expectEnvelope(await api.call("GET", `${MODELS}?order_by=${order}`), 400, "validation_error", { "query.order_by": [expect.any(String)] });
    });

    it("refuses the Purge and Prefetch roles", async () => {
      const reply = await api.call("GET", MODELS, { as: [1, "role-3022-active"] });
      expectEnvelope(reply, 403, "permission_denied");
    });
  });

  describe("GET /cloud/v2/inference/models/{model_id}", () => {
    it("answers each model of the catalogue, to every account, also at the v3 path", async () => {
      for (const model of models.slice(0, 3)) {
        const reply = await api.call("GET", `/cloud/v2/inference/models/${model.id}`, { as: [2, "role-2-active"] });
        expect(reply.status, reply.text).toBe(200);
        expect(reply.body).toEqual(byColumnName("inferenceModels", model));
      }
      const v3 = await api.call("GET", `/cloud/v3/inference/models/${models[0]!.id}`);
      expect(v3.status, v3.text).toBe(200);
      expect(v3.body).toEqual(byColumnName("inferenceModels", models[0]!));
    });

    it("answers 404 for an unknown id and 400 path.model_id for one that is not a UUID", async () => {
      expectEnvelope(await api.call("GET", `/cloud/v2/inference/models/${NO_SUCH_UUID}`), 404, "not_found");
      expectEnvelope(await api.call("GET", "/cloud/v2/inference/models/Llama-3.1-8B"), 400, "validation_error", ["path.model_id"]);
    });
  });
});
