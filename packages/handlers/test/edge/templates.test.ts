/**
 * Integration tests of edge app templates on every engine: get with their parameters (the demo fixture
 * as the source of every expected value), the listing, and the lifecycle (create, replace, delete with
 * their 403s and 409s).
 */
import type { EdgeAppTemplate, EdgeAppTemplateList, EdgeAppTemplateShort } from "@cloudplane/contract";
import { demoFixture, sql, type DemoAccountId, type DemoTokenName } from "@cloudplane/db";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi } from "../harness.js";
import { edgeHelpers } from "./shared.js";

const { edgeApps, edgeTemplates, edgeBinaries } = demoFixture;

const USER_1: [DemoAccountId, DemoTokenName] = [1, "role-2-active"];

const binariesOf = (account: number | null) => edgeBinaries.filter((binary) => binary.accountId === account);
const templatesOf = (account: number | null) => edgeTemplates.filter((template) => template.accountId === account);

/** A binary of account 1 that apps run. */
const runBinary = binariesOf(1).find((binary) => binary.apiType === "wasi-http" && edgeApps.some((app) => app.binaryId === binary.id))!;
/** A template of account 1 and the api_type it has. */
const ownTemplate = templatesOf(1).find((template) => template.apiType === "wasi-http")!;
const publicTemplate = templatesOf(null).find((template) => template.apiType === "proxy-wasm")!;

describe.each(engines())("edge apps area on %s", (engine) => {
  const api = useApi(engine);

  describe("GET /edge/v1/template/{id}", () => {
    /** A template's parameters as the API shows them, in their order. */
    const paramsOf = (templateId: number) =>
      demoFixture.edgeTemplateParams
        .filter((param) => param.templateId === templateId)
        .map(({ name, dataType, mandatory, descr, metadata }) => ({ name, data_type: dataType, mandatory, descr, metadata }));

    function expectedTemplate(id: number, caller: number): EdgeAppTemplate {
      const template = edgeTemplates.find((candidate) => candidate.id === id)!;
      return {
        id: template.id,
        binary_id: template.binaryId,
        name: template.name,
        short_descr: template.shortDescr,
        long_descr: template.longDescr,
        api_type: template.apiType,
        owned: template.accountId === caller,
        params: paramsOf(template.id),
      };
    }

    it.each([1, 2] as const)("account %s sees its own templates (owned) and the public ones (not owned), params in order", async (account) => {
      const visible = edgeTemplates.filter((template) => template.accountId === account || template.accountId === null);
      expect(visible.some((template) => template.accountId === null)).toBe(true);
      for (const template of visible) {
        const reply = await api.call("GET", `/edge/v1/template/${template.id}`, { as: [account, "role-1-active"] });
        expect(reply.status, reply.text).toBe(200);
        expect(reply.body).toEqual(expectedTemplate(template.id, account));
        expect((reply.body as EdgeAppTemplate).owned).toBe(template.accountId !== null);
      }
    });

    it("a template with several params lists them in the fixture's order", async () => {
      const template = edgeTemplates.find((candidate) => candidate.accountId === 1 && paramsOf(candidate.id).length >= 3)!;
      const reply = await api.call("GET", `/edge/v1/template/${template.id}`);
      expect((reply.body as EdgeAppTemplate).params.map((param) => param.name)).toEqual(paramsOf(template.id).map((param) => param.name));
    });

    it("the other account's private template and an unknown id are 404", async () => {
      for (const [account, other] of [
        [1, 2],
        [2, 1],
      ] as const) {
        const theirs = edgeTemplates.find((template) => template.accountId === other)!;
        const reply = await api.call("GET", `/edge/v1/template/${theirs.id}`, { as: [account, "role-1-active"] });
        expectEnvelope(reply, 404, "not_found");
        expect(reply.text).not.toContain(theirs.name);
      }
      expectEnvelope(await api.call("GET", "/edge/v1/template/999999"), 404, "not_found");
    });
  });
});

describe.each(engines())("edge lifecycles on %s", (engine) => {
  const api = useApi(engine);

  const { rows, edgeCounts, expectNoContent, createApp, createTemplate } = edgeHelpers(api);






  describe("templates", () => {
    const short = (template: (typeof edgeTemplates)[number], caller: number): EdgeAppTemplateShort => ({
      id: template.id,
      name: template.name,
      api_type: template.apiType,
      owned: template.accountId === caller,
      short_descr: template.shortDescr,
      long_descr: template.longDescr,
    });

    it.each([1, 2] as const)("account %s lists its own and the public templates by id; only_mine and api_type filter", async (account) => {
      const as: [DemoAccountId, DemoTokenName] = [account, "role-1-active"];
      const visible = edgeTemplates.filter((template) => template.accountId === account || template.accountId === null).sort((a, b) => a.id - b.id);
      const all = (await api.call("GET", "/edge/v1/template?limit=1000", { as })).body as EdgeAppTemplateList;
      expect(all).toEqual({ templates: visible.map((template) => short(template, account)), count: visible.length });

      const mine = visible.filter((template) => template.accountId === account);
      expect((await api.call("GET", "/edge/v1/template?only_mine=true", { as })).body).toEqual({
        templates: mine.map((template) => short(template, account)),
        count: mine.length,
      });
      const proxy = visible.filter((template) => template.apiType === "proxy-wasm");
      expect((await api.call("GET", "/edge/v1/template?api_type=proxy-wasm", { as })).body).toEqual({
        templates: proxy.map((template) => short(template, account)),
        count: proxy.length,
      });
      const page = (await api.call("GET", "/edge/v1/template?limit=2&offset=1", { as })).body as EdgeAppTemplateList;
      expect(page).toEqual({ templates: visible.slice(1, 3).map((template) => short(template, account)), count: visible.length });
    });

    it.each([
      ["limit=0", "query.limit"],
      ["limit=1001", "query.limit"],
      ["only_mine=yes", "query.only_mine"],
      ["api_type=rust", "query.api_type"],
    ])("?%s is 400 %s", async (query, field) => {
      expectEnvelope(await api.call("GET", `/edge/v1/template?${query}`), 400, "validation_error", [field]);
    });

    it("create → get → replace → delete → 404, with parameters and their metadata", async () => {
      const binary = binariesOf(1).find((candidate) => candidate.apiType === "proxy-wasm")!;
      const created = await createTemplate({
        binary_id: binary.id,
        name: "Lifecycle template",
        short_descr: "One line.",
        params: [
          { name: "MODE", data_type: "enum", mandatory: true, descr: "How it runs.", metadata: '{"values":["a","b"]}' },
          { name: "TOKEN", data_type: "secret" },
        ],
      });
      expect(created).toEqual({
        id: expect.any(Number) as number,
        name: "Lifecycle template",
        api_type: "proxy-wasm",
        owned: true,
        short_descr: "One line.",
        long_descr: "",
      });
      const got = await api.call("GET", `/edge/v1/template/${created.id}`);
      expect(got.body).toEqual({
        ...created,
        binary_id: binary.id,
        params: [
          { name: "MODE", data_type: "enum", mandatory: true, descr: "How it runs.", metadata: '{"values":["a","b"]}' },
          { name: "TOKEN", data_type: "secret", mandatory: false, descr: "", metadata: null },
        ],
      } satisfies EdgeAppTemplate);

      const other = binariesOf(1).find((candidate) => candidate.apiType === "wasi-http")!;
      const replaced = await api.call("PUT", `/edge/v1/template/${created.id}`, {
        body: { binary_id: other.id, name: "Replaced template", params: [{ name: "ONLY", data_type: "number", mandatory: true }] },
      });
      expect(replaced.status, replaced.text).toBe(200);
      expect(replaced.body).toEqual({ ...created, name: "Replaced template", api_type: "wasi-http", short_descr: "", long_descr: "" });
      expect((await api.call("GET", `/fastedge/v1/template/${created.id}`)).body).toEqual({
        ...(replaced.body as EdgeAppTemplateShort),
        binary_id: other.id,
        params: [{ name: "ONLY", data_type: "number", mandatory: true, descr: "", metadata: null }],
      });

      expectNoContent(await api.call("DELETE", `/edge/v1/template/${created.id}`));
      expectEnvelope(await api.call("GET", `/edge/v1/template/${created.id}`), 404, "not_found");
      expect(await rows(sql`select name from edge_template_params where template_id = ${created.id}`)).toEqual([]);
    });

    it.each([
      [{ name: "t", params: [] }, "binary_id"],
      [{ binary_id: runBinary.id, params: [] }, "name"],
      [{ binary_id: runBinary.id, name: "t" }, "params"],
      [{ binary_id: binariesOf(2)[0]!.id, name: "t", params: [] }, "binary_id"],
      [{ binary_id: binariesOf(null)[0]!.id, name: "t", params: [] }, "binary_id"],
      [{ binary_id: runBinary.id, name: "t", owned: false, params: [] }, "owned"],
      [{ binary_id: runBinary.id, name: "t", api_type: "wasi-http", params: [] }, "api_type"],
      [{ binary_id: runBinary.id, name: "t", params: [{ name: "A", data_type: "text" }] }, "params.0.data_type"],
      [{ binary_id: runBinary.id, name: "t", params: [{ name: "1A", data_type: "string" }] }, "params.0.name"],
      [{ binary_id: runBinary.id, name: "t", params: [{ name: "A", data_type: "string", metadata: "{not json" }] }, "params.0.metadata"],
      [{ binary_id: runBinary.id, name: "t", params: [{ name: "A", data_type: "string" }, { name: "A", data_type: "number" }] }, "params.1.name"],
      [{ binary_id: runBinary.id, name: "t", params: [{ name: "A", data_type: "string", colour: 1 }] }, "params.0.colour"],
    ])("create %j is 400 naming %s, and nothing is made", async (body, field) => {
      const before = await edgeCounts();
      expectEnvelope(await api.call("POST", "/edge/v1/template", { body }), 400, "validation_error", [field]);
      expect(await edgeCounts()).toEqual(before);
    });

    it("a name among the account's templates is 409 (create and replace); a public template's name is free", async () => {
      const before = await edgeCounts();
      expectEnvelope(await api.call("POST", "/edge/v1/template", { body: { binary_id: runBinary.id, name: ownTemplate.name, params: [] } }), 409, "conflict");
      expect(await edgeCounts()).toEqual(before);
      const made = await createTemplate({ binary_id: runBinary.id, name: publicTemplate.name, params: [] });
      expect(made.owned).toBe(true);
      expectEnvelope(
        await api.call("PUT", `/edge/v1/template/${made.id}`, { body: { binary_id: runBinary.id, name: ownTemplate.name, params: [] } }),
        409,
        "conflict",
      );
      expect(((await api.call("GET", `/edge/v1/template/${made.id}`)).body as EdgeAppTemplate).name).toBe(publicTemplate.name);
    });

    it("a public template is 403 to replace and delete; the other account's template 404; both stay as they were", async () => {
      const theirs = templatesOf(2)[0]!;
      const body = { binary_id: runBinary.id, name: "Taken over", params: [] };
      const before = await rows(sql`select * from edge_templates order by id`);
      expectEnvelope(await api.call("PUT", `/edge/v1/template/${publicTemplate.id}`, { body }), 403, "permission_denied");
      expectEnvelope(await api.call("DELETE", `/edge/v1/template/${publicTemplate.id}`), 403, "permission_denied");
      expectEnvelope(await api.call("PUT", `/edge/v1/template/${theirs.id}`, { body }), 404, "not_found");
      expectEnvelope(await api.call("DELETE", `/edge/v1/template/${theirs.id}`), 404, "not_found");
      expectEnvelope(await api.call("DELETE", "/edge/v1/template/999999"), 404, "not_found");
      expect(await rows(sql`select * from edge_templates order by id`)).toEqual(before);
    });

    it("deleting a template apps are made from is 409; force=true detaches the apps and deletes it", async () => {
      const template = await createTemplate({ binary_id: runBinary.id, name: "In use", params: [] });
      const app = await createApp({ name: "made-from-in-use", template: template.id });
      expect(app.template).toBe(template.id);

      expectEnvelope(await api.call("DELETE", `/edge/v1/template/${template.id}`), 409, "conflict");
      expectEnvelope(await api.call("DELETE", `/edge/v1/template/${template.id}?force=false`), 409, "conflict");
      expect((await api.call("GET", `/edge/v1/template/${template.id}`)).status).toBe(200);

      expectNoContent(await api.call("DELETE", `/fastedge/v1/template/${template.id}?force=true`));
      expectEnvelope(await api.call("GET", `/edge/v1/template/${template.id}`), 404, "not_found");
      expect((await api.call("GET", `/edge/v1/apps/${app.id}`)).body).toEqual({
        ...app,
        template: null,
        template_name: null,
        env: {},
        rsp_headers: {},
        log: "kafka",
        secrets: {},
        stores: {},
      });
    });

    it("Users may list templates, not make, replace or delete them", async () => {
      expect((await api.call("GET", "/edge/v1/template", { as: USER_1 })).status).toBe(200);
      expectEnvelope(await api.call("POST", "/edge/v1/template", { as: USER_1, body: { binary_id: runBinary.id, name: "u", params: [] } }), 403, "permission_denied");
      expectEnvelope(await api.call("DELETE", `/edge/v1/template/${ownTemplate.id}`, { as: USER_1 }), 403, "permission_denied");
    });
  });
});
