/**
 * Integration tests of the Edge apps area (apps, templates, secrets) on every engine, with the demo
 * fixture as the source of every expected value.
 */
import { createHash } from "node:crypto";
import {
  EDGE_APP_ORDERINGS,
  edgeApp,
  type EdgeApp,
  type EdgeAppList,
  type EdgeAppSecret,
  type EdgeAppTemplate,
} from "@cloudplane/contract";
import { decryptSecret, demoFixture, sql, type DemoAccountId, type DemoRow, type DemoTokenName } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi, type Reply } from "../harness.js";

const { edgeApps, edgeTemplates, edgePlans, edgeBinaries, edgeSecrets } = demoFixture;

type DemoEdgeApp = DemoRow<"edgeApps">;
const planNames = new Map(edgePlans.map((plan) => [plan.id, plan.name]));
const templateNames = new Map(edgeTemplates.map((template) => [template.id, template.name]));

const APP_FIELDS = Object.keys(edgeApp.shape).sort();
const WRITE_ONLY_FIELDS = ["env", "rsp_headers", "log", "debug", "secrets"];
const DEBUG_WINDOW_MS = 30 * 60 * 1000;

const ADMIN_1: [DemoAccountId, DemoTokenName] = [1, "role-1-active"];
const ADMIN_2: [DemoAccountId, DemoTokenName] = [2, "role-1-active"];

function fixtureApp(id: number): DemoEdgeApp {
  const app = edgeApps.find((candidate) => candidate.id === id);
  if (!app) throw new Error(`The demo fixture has no edge app ${id}.`);
  return app;
}

function appsOf(accountId: number): DemoEdgeApp[] {
  return edgeApps.filter((app) => app.accountId === accountId);
}

/** The app as the API shows it: read fields only; a debug window that has passed shows as null. */
function readFields(app: DemoEdgeApp): EdgeApp {
  return {
    id: app.id,
    name: app.name,
    url: app.url,
    status: app.status,
    binary: app.binaryId,
    template: app.templateId,
    template_name: app.templateId === null ? null : templateNames.get(app.templateId)!,
    comment: app.comment,
    api_type: app.apiType,
    debug_until: app.debugUntil !== null && Date.parse(app.debugUntil) > Date.now() ? app.debugUntil : null,
    networks: app.networks,
    upgradeable_to: app.upgradeableTo,
    plan_id: app.planId,
    plan: planNames.get(app.planId)!,
  };
}

type OrderField = "name" | "status" | "id" | "template" | "binary" | "plan";
const orderValue: Record<OrderField, (app: DemoEdgeApp) => string | number | null> = {
  name: (app) => app.name,
  status: (app) => app.status,
  id: (app) => app.id,
  template: (app) => app.templateId,
  binary: (app) => app.binaryId,
  plan: (app) => app.planId,
};

/** Nulls sort after every value ascending and before every value descending, as PostgreSQL (and the platform) sort them. */
function compareValues(a: string | number | null, b: string | number | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
}

function ordered(apps: DemoEdgeApp[], ordering: string): DemoEdgeApp[] {
  const descending = ordering.startsWith("-");
  const value = orderValue[ordering.replace(/^-/, "") as OrderField];
  return [...apps].sort((a, b) => {
    const byField = compareValues(value(a), value(b));
    return (descending ? -byField : byField) || a.id - b.id;
  });
}

function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

function expectNoWriteOnlyFields(reply: Reply): void {
  for (const field of WRITE_ONLY_FIELDS) expect(reply.text).not.toContain(`"${field}"`);
}

function expectAppShape(app: EdgeApp): void {
  expect(Object.keys(app).sort()).toEqual(APP_FIELDS);
}

describe.each(engines())("edge apps area on %s", (engine) => {
  const api = useApi(engine);

  async function list(query: string, as = ADMIN_1): Promise<EdgeAppList> {
    const reply = await api.call("GET", `/edge/v1/apps${query}`, { as });
    expect(reply.status, reply.text).toBe(200);
    expectNoWriteOnlyFields(reply);
    return reply.body as EdgeAppList;
  }

  async function appRow(id: number): Promise<Record<string, unknown>> {
    const [row] = await selectRows(api.database.db, sql`select * from edge_apps where id = ${id}`);
    return row!;
  }

  async function appSecretRows(id: number): Promise<Record<string, unknown>[]> {
    return selectRows(api.database.db, sql`select name, secret_id from edge_app_secrets where app_id = ${id} order by name`);
  }

  /** jsonb comes back parsed from one driver and as text from another. */
  function json(value: unknown): unknown {
    return typeof value === "string" ? JSON.parse(value) : value;
  }

  function time(value: unknown): number | null {
    return value === null ? null : new Date(value as string | Date).getTime();
  }

  async function putApp(id: number, body: unknown, as = ADMIN_1): Promise<Reply> {
    const reply = await api.call("PUT", `/edge/v1/apps/${id}`, { as, body });
    // Error envelopes name the offending field, write-only or not; only apps must never show them.
    if (reply.status === 200) expectNoWriteOnlyFields(reply);
    return reply;
  }

  describe("GET /edge/v1/apps", () => {
    it("lists the caller's apps by id, 25 a page, with the total count, template and plan names", async () => {
      const mine = appsOf(1);
      expect(mine.length).toBeGreaterThan(25);
      const page = await list("");
      expect(page.count).toBe(mine.length);
      expect(page.apps).toEqual(mine.slice(0, 25).map(readFields));
      for (const app of page.apps) expectAppShape(app);
    });

    it("shows account 2 only its own apps", async () => {
      const theirs = appsOf(2);
      const page = await list("?limit=1000", ADMIN_2);
      expect(page).toEqual({ apps: theirs.map(readFields), count: theirs.length });
      expect(page.apps.every((app) => app.id % 2 === 0)).toBe(true);
    });

    it("shows template_name and plan from the template and plan tables", async () => {
      const withTemplate = appsOf(1).find((app) => app.templateId !== null && app.templateId > 1000)!;
      const withoutTemplate = appsOf(1).find((app) => app.templateId === null)!;
      const { apps } = await list("?limit=1000");
      const shown = new Map(apps.map((app) => [app.id, app]));
      expect(shown.get(withTemplate.id)?.template_name).toBe(edgeTemplates.find((t) => t.id === withTemplate.templateId)!.name);
      expect(shown.get(withoutTemplate.id)?.template_name).toBeNull();
      for (const app of apps) expect(app.plan).toBe(edgePlans.find((plan) => plan.id === app.plan_id)!.name);
    });

    const nameFilters = ["router", "ROUTER", "Geo-Redirect", "resize-e", "-", "_", "%", "image_resize", "image%us", "\\", "zzz"];
    it.each(nameFilters)("name=%s matches a case-insensitive substring, with %% _ \\ taken literally", async (name) => {
      const expected = appsOf(1).filter((app) => app.name.toLowerCase().includes(name.toLowerCase()));
      const page = await list(`?limit=1000&name=${encodeURIComponent(name)}`);
      expect(page).toEqual({ apps: expected.map(readFields), count: expected.length });
    });

    it("name=_ and name=% match nothing: no fixture app has those characters", () => {
      // Guards the cases above: they would pass vacuously if the fixture gained such a name.
      expect(appsOf(1).some((app) => /[%_\\]/.test(app.name))).toBe(false);
    });

    it("%, _ and \\ in the filter match themselves in a name that has them", async () => {
      // The name rules keep PUT from making such a name, so the service's own kind of row is written directly.
      const [legacy] = await selectRows<{ id: number }>(
        api.database.db,
        sql`insert into edge_apps (account_id, name, plan_id, api_type, url)
            values (1, ${"Legacy_50%\\off"}, 1, 'wasi-http', 'https://legacy.acme.edge.example') returning id`,
      );
      try {
        for (const name of ["_50%", "y_5", "%\\O", "legacy_50%\\off"]) {
          const page = await list(`?name=${encodeURIComponent(name)}`);
          expect(page.apps.map((app) => app.id)).toEqual([legacy!.id]);
          expect(page.count).toBe(1);
        }
        expect((await list("?name=y_50%25x")).count).toBe(0);
      } finally {
        await api.database.db.execute(sql`delete from edge_apps where id = ${legacy!.id}`);
      }
    });

    type Filter = [string, string | number, (app: DemoEdgeApp) => boolean];
    const filters: Filter[] = [
      ...(["wasi-http", "proxy-wasm"] as const).map((type): Filter => ["api_type", type, (app) => app.apiType === type]),
      ...[0, 1, 2, 3, 4, 5].map((status): Filter => ["status", status, (app) => app.status === status]),
      ...edgeTemplates.map((template): Filter => ["template", template.id, (app) => app.templateId === template.id]),
      ...edgeBinaries.map((binary): Filter => ["binary", binary.id, (app) => app.binaryId === binary.id]),
      ...edgePlans.map((plan): Filter => ["plan", plan.id, (app) => app.planId === plan.id]),
    ];
    it.each(filters)("%s=%s filters by equality", async (parameter, value, matches) => {
      const expected = appsOf(1).filter(matches);
      const page = await list(`?limit=1000&${parameter}=${value}`);
      expect(page).toEqual({ apps: expected.map(readFields), count: expected.length });
    });

    it("every status of 0..5 occurs in the fixture, so each status filter above is exercised", () => {
      expect(new Set(appsOf(1).map((app) => app.status))).toEqual(new Set([0, 1, 2, 3, 4, 5]));
    });

    it("combines filters with AND", async () => {
      const expected = appsOf(1).filter((app) => app.status === 1 && app.apiType === "proxy-wasm" && app.planId === 3);
      expect(expected.length).toBeGreaterThan(0);
      const page = await list("?status=1&api_type=proxy-wasm&plan=3&name=A");
      const named = expected.filter((app) => app.name.includes("a"));
      expect(page).toEqual({ apps: named.map(readFields), count: named.length });
    });

    it("a filter naming the other account's template or binary matches nothing", async () => {
      const theirTemplate = edgeTemplates.find((template) => template.accountId === 2)!;
      const theirBinary = edgeBinaries.find((binary) => binary.accountId === 2)!;
      expect(await list(`?template=${theirTemplate.id}`)).toEqual({ apps: [], count: 0 });
      expect(await list(`?binary=${theirBinary.id}`)).toEqual({ apps: [], count: 0 });
    });

    it.each(EDGE_APP_ORDERINGS)("ordering=%s sorts by the field, ties by id ascending", async (ordering) => {
      const expected = ordered(appsOf(1), ordering);
      const page = await list(`?limit=1000&ordering=${ordering}`);
      expect(page.apps.map((app) => app.id)).toEqual(expected.map((app) => app.id));
      expect(page.count).toBe(expected.length);
    });

    it("orders, then pages", async () => {
      const expected = ordered(appsOf(1), "-name").slice(5, 12);
      const page = await list("?ordering=-name&limit=7&offset=5");
      expect(page.apps).toEqual(expected.map(readFields));
      expect(page.count).toBe(appsOf(1).length);
    });

    it("filters, orders and pages together; count is the number of matches before paging", async () => {
      const matches = ordered(
        appsOf(1).filter((app) => app.apiType === "wasi-http"),
        "-status",
      );
      const page = await list("?api_type=wasi-http&ordering=-status&limit=3&offset=2");
      expect(page).toEqual({ apps: matches.slice(2, 5).map(readFields), count: matches.length });
    });

    it("limit takes up to 1000; 1001 and 0 are 400 query.limit", async () => {
      const all = appsOf(1);
      expect(await list("?limit=1000")).toEqual({ apps: all.map(readFields), count: all.length });
      expect((await list("?limit=1")).apps).toEqual([readFields(all[0]!)]);
      expectEnvelope(await api.call("GET", "/edge/v1/apps?limit=1001"), 400, "validation_error", ["query.limit"]);
      expectEnvelope(await api.call("GET", "/edge/v1/apps?limit=0"), 400, "validation_error", ["query.limit"]);
    });

    it("an offset past the end answers no apps with the full count", async () => {
      const total = appsOf(1).length;
      expect(await list(`?offset=${total}`)).toEqual({ apps: [], count: total });
      expect(await list("?offset=100000")).toEqual({ apps: [], count: total });
      const last = await list(`?offset=${total - 1}`);
      expect(last.apps.map((app) => app.id)).toEqual([appsOf(1).at(-1)!.id]);
      expectEnvelope(await api.call("GET", "/edge/v1/apps?offset=-1"), 400, "validation_error", ["query.offset"]);
    });

    it.each([
      ["status=6", "query.status"],
      ["api_type=rust", "query.api_type"],
      ["ordering=created", "query.ordering"],
      ["plan=abc", "query.plan"],
    ])("%s is 400 %s", async (query, field) => {
      expectEnvelope(await api.call("GET", `/edge/v1/apps?${query}`), 400, "validation_error", [field]);
    });

    it("is open to the read-only Users role", async () => {
      expect((await list("?limit=1", [1, "role-2-active"])).count).toBe(appsOf(1).length);
    });
  });

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

  describe("PUT /edge/v1/apps/{id}", () => {
    it("changes each writable field, returns read fields only and stores the write-only ones", async () => {
      const app = fixtureApp(25);
      const secret = edgeSecrets.find((candidate) => candidate.accountId === 1)!;
      const binary = edgeBinaries.find((candidate) => candidate.accountId === 1 && candidate.apiType === app.apiType && candidate.id !== app.binaryId)!;
      const template = edgeTemplates.find((candidate) => candidate.accountId === 1 && candidate.apiType === app.apiType)!;
      const body = {
        name: "edge-router-v2",
        comment: "Routes by path prefix.",
        binary: binary.id,
        template: template.id,
        status: 2,
        env: { ROUTES: "/api=backend-env-value-7731" },
        rsp_headers: { "X-Served-By": "rsp-header-value-5512" },
        log: "kafka",
        secrets: { SIGNING_KEY: { id: secret.id } },
      };
      const reply = await putApp(app.id, body);
      expect(reply.status, reply.text).toBe(200);
      const updated = reply.body as EdgeApp;
      expectAppShape(updated);
      expect(updated).toEqual({
        ...readFields(app),
        name: body.name,
        comment: body.comment,
        binary: binary.id,
        template: template.id,
        template_name: template.name,
        status: 2,
      });
      expect(reply.text).not.toContain("backend-env-value-7731");
      expect(reply.text).not.toContain("rsp-header-value-5512");

      const row = await appRow(app.id);
      expect(json(row.env)).toEqual(body.env);
      expect(json(row.rsp_headers)).toEqual(body.rsp_headers);
      expect(row.log).toBe("kafka");
      expect(await appSecretRows(app.id)).toEqual([{ name: "SIGNING_KEY", secret_id: secret.id }]);

      // The listing shows the same app, still without the write-only fields.
      const page = await list(`?name=${body.name}`);
      expect(page.apps).toEqual([updated]);
    });

    it("changes only the fields given", async () => {
      const app = fixtureApp(27);
      const before = await appRow(app.id);
      const reply = await putApp(app.id, { comment: "only the comment" });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toEqual({ ...readFields(app), comment: "only the comment" });
      const after = await appRow(app.id);
      expect({ ...after, comment: before.comment, updated: before.updated }).toEqual(before);
    });

    it("an empty body changes nothing and answers the app", async () => {
      const app = fixtureApp(39);
      const reply = await putApp(app.id, {});
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toEqual(readFields(app));
    });

    it("template null detaches the template", async () => {
      const app = fixtureApp(57);
      const reply = await putApp(app.id, { template: null });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toEqual({ ...readFields(app), template: null, template_name: null });
    });

    it("a public template and a platform binary of the app's api_type are allowed", async () => {
      const app = fixtureApp(29);
      const publicTemplate = edgeTemplates.find((template) => template.accountId === null && template.apiType === app.apiType)!;
      const platformBinary = edgeBinaries.find((binary) => binary.accountId === null && binary.apiType === app.apiType)!;
      const reply = await putApp(app.id, { template: publicTemplate.id, binary: platformBinary.id });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toEqual({
        ...readFields(app),
        template: publicTemplate.id,
        template_name: publicTemplate.name,
        binary: platformBinary.id,
      });
    });

    it("the other account's binary or template, an unknown one, or a binary of another api_type is 400", async () => {
      const app = fixtureApp(29);
      const before = await appRow(app.id);
      const theirBinary = edgeBinaries.find((binary) => binary.accountId === 2 && binary.apiType === app.apiType)!;
      const theirTemplate = edgeTemplates.find((template) => template.accountId === 2)!;
      const otherType = edgeBinaries.find((binary) => binary.accountId === 1 && binary.apiType !== app.apiType)!;
      expectEnvelope(await putApp(app.id, { binary: theirBinary.id }), 400, "validation_error", ["binary"]);
      expectEnvelope(await putApp(app.id, { binary: 999_999 }), 400, "validation_error", ["binary"]);
      expectEnvelope(await putApp(app.id, { binary: otherType.id }), 400, "validation_error", ["binary"]);
      expectEnvelope(await putApp(app.id, { template: theirTemplate.id }), 400, "validation_error", ["template"]);
      expectEnvelope(await putApp(app.id, { template: 999_999 }), 400, "validation_error", ["template"]);
      expect(await appRow(app.id)).toEqual(before);
    });

    describe("status moves (EDGE_APP_STATUS_MOVES)", () => {
      const allowed: Record<number, number[]> = { 0: [1, 2], 1: [2], 2: [1], 3: [2], 4: [2], 5: [2] };
      const moves = [0, 1, 2, 3, 4, 5].flatMap((from) => [0, 1, 2, 3, 4, 5].map((to) => [from, to] as const));
      const app = fixtureApp(33);

      it.each(moves)("%s → %s", async (from, to) => {
        expect(app.binaryId).not.toBeNull();
        // The service, not a caller, puts apps in 3, 4 and 5, so the starting status is set in the database.
        await api.database.db.execute(sql`update edge_apps set status = ${from} where id = ${app.id}`);
        const before = await appRow(app.id);
        const reply = await putApp(app.id, { status: to });
        if (to >= 3) {
          expectEnvelope(reply, 400, "validation_error", ["status"]);
        } else if (to === from || allowed[from]!.includes(to)) {
          expect(reply.status, reply.text).toBe(200);
          expect((reply.body as EdgeApp).status).toBe(to);
          expect((await appRow(app.id)).status).toBe(to);
          return;
        } else {
          expectEnvelope(reply, 409, "conflict");
        }
        expect(await appRow(app.id)).toEqual(before);
      });

      it("enabling an app without a binary is 409, from draft and from disabled", async () => {
        const drafts = appsOf(1).filter((candidate) => candidate.binaryId === null && candidate.status === 0);
        expect(drafts.length).toBeGreaterThanOrEqual(2);
        const [first, second] = drafts as [DemoEdgeApp, DemoEdgeApp];
        const before = await appRow(first.id);
        expectEnvelope(await putApp(first.id, { status: 1 }), 409, "conflict");
        expect(await appRow(first.id)).toEqual(before);

        const disabled = await putApp(second.id, { status: 2 });
        expect(disabled.status, disabled.text).toBe(200);
        expectEnvelope(await putApp(second.id, { status: 1 }), 409, "conflict");
        expect((await appRow(second.id)).status).toBe(2);
      });

      it("a binary given with status 1 lets a draft without one be enabled", async () => {
        const draft = appsOf(1).find((candidate) => candidate.binaryId === null && candidate.status === 0)!;
        const binary = edgeBinaries.find((candidate) => candidate.accountId === 1 && candidate.apiType === draft.apiType)!;
        const reply = await putApp(draft.id, { binary: binary.id, status: 1 });
        expect(reply.status, reply.text).toBe(200);
        expect(reply.body).toMatchObject({ binary: binary.id, status: 1 });
      });
    });

    describe("name", () => {
      it.each(["Upper-case", "-leading", "trailing-", "under_score", "dot.ted", "spa ce", "", "a".repeat(65)])(
        "%j is 400 errors.name",
        async (name) => {
          const app = fixtureApp(7);
          const before = await appRow(app.id);
          expectEnvelope(await putApp(app.id, { name }), 400, "validation_error", ["name"]);
          expect(await appRow(app.id)).toEqual(before);
        },
      );

      it.each(["x", "9", "a-1", "a".repeat(64)])("%j is a valid name", async (name) => {
        const reply = await putApp(19, { name });
        expect(reply.status, reply.text).toBe(200);
        expect((reply.body as EdgeApp).name).toBe(name);
      });

      it("a name another app of the account has is 409, and nothing changes", async () => {
        const app = fixtureApp(7);
        const taken = fixtureApp(3);
        const before = await appRow(app.id);
        expectEnvelope(await putApp(app.id, { name: taken.name, comment: "renamed" }), 409, "conflict");
        expect(await appRow(app.id)).toEqual(before);
      });

      it("the app's own name is fine", async () => {
        const app = fixtureApp(5);
        const reply = await putApp(app.id, { name: app.name });
        expect(reply.status, reply.text).toBe(200);
        expect(reply.body).toEqual(readFields(app));
      });

      it("a name used only in the other account is fine (the fixture's pair shows accounts may share names)", async () => {
        const shared = appsOf(1).filter((mine) => appsOf(2).some((theirs) => theirs.name === mine.name));
        expect(shared.length).toBeGreaterThanOrEqual(1);

        const theirsOnly = appsOf(2).find((theirs) => !appsOf(1).some((mine) => mine.name === theirs.name))!;
        const reply = await putApp(7, { name: theirsOnly.name });
        expect(reply.status, reply.text).toBe(200);
        expect((reply.body as EdgeApp).name).toBe(theirsOnly.name);

        const mineOnly = appsOf(1).find((mine) => mine.id !== 7 && !appsOf(2).some((theirs) => theirs.name === mine.name))!;
        const theirs = await putApp(appsOf(2)[0]!.id, { name: mineOnly.name }, ADMIN_2);
        expect(theirs.status, theirs.text).toBe(200);
        expect((theirs.body as EdgeApp).name).toBe(mineOnly.name);
      });
    });

    describe("secrets", () => {
      it("stores the references, replacing the previous ones; {} clears them", async () => {
        const app = fixtureApp(13);
        const mine = edgeSecrets.filter((secret) => secret.accountId === 1);
        expect(await appSecretRows(app.id)).toEqual(
          demoFixture.edgeAppSecrets
            .filter((row) => row.appId === app.id)
            .map((row) => ({ name: row.name, secret_id: row.secretId }))
            .sort((a, b) => a.name.localeCompare(b.name)),
        );
        const reply = await putApp(app.id, { secrets: { A_KEY: { id: mine[0]!.id }, B_KEY: { id: mine[1]!.id } } });
        expect(reply.status, reply.text).toBe(200);
        expect(reply.body).toEqual(readFields(app));
        expect(await appSecretRows(app.id)).toEqual([
          { name: "A_KEY", secret_id: mine[0]!.id },
          { name: "B_KEY", secret_id: mine[1]!.id },
        ]);
        expect((await putApp(app.id, { secrets: {} })).status).toBe(200);
        expect(await appSecretRows(app.id)).toEqual([]);
      });

      it("a secret of the other account or an unknown one is 400 errors[secrets.<NAME>.id], and nothing changes", async () => {
        const app = fixtureApp(11);
        const theirs = edgeSecrets.find((secret) => secret.accountId === 2)!;
        const mine = edgeSecrets.find((secret) => secret.accountId === 1)!;
        const secretsBefore = await appSecretRows(app.id);
        const before = await appRow(app.id);
        expectEnvelope(
          await putApp(app.id, { comment: "changed", secrets: { OK_KEY: { id: mine.id }, STOLEN: { id: theirs.id }, MISSING: { id: 999_999 } } }),
          400,
          "validation_error",
          ["secrets.MISSING.id", "secrets.STOLEN.id"],
        );
        expect(await appSecretRows(app.id)).toEqual(secretsBefore);
        expect(await appRow(app.id)).toEqual(before);
      });
    });

    it("debug true sets debug_until to now + 30 minutes; false clears it", async () => {
      const app = fixtureApp(15);
      const started = Date.now();
      const on = await putApp(app.id, { debug: true });
      const finished = Date.now();
      expect(on.status, on.text).toBe(200);
      const until = Date.parse((on.body as EdgeApp).debug_until!);
      expect(until).toBeGreaterThanOrEqual(started + DEBUG_WINDOW_MS - 1000);
      expect(until).toBeLessThanOrEqual(finished + DEBUG_WINDOW_MS + 1000);
      expect(time((await appRow(app.id)).debug_until)).toBe(until);
      expect((await list(`?name=${app.name}`)).apps[0]?.debug_until).toBe((on.body as EdgeApp).debug_until);

      const off = await putApp(app.id, { debug: false });
      expect(off.status, off.text).toBe(200);
      expect((off.body as EdgeApp).debug_until).toBeNull();
      expect((await appRow(app.id)).debug_until).toBeNull();
    });

    it("log and debug reject values outside their types", async () => {
      expectEnvelope(await putApp(15, { log: "syslog" }), 400, "validation_error", ["log"]);
      expectEnvelope(await putApp(15, { debug: "yes" }), 400, "validation_error", ["debug"]);
      expectEnvelope(await putApp(15, { url: "https://elsewhere.example" }), 400, "validation_error", ["url"]);
    });

    it("a write that fails late (duplicate name) rolls back the secrets and fields it had already written", async () => {
      const app = fixtureApp(1);
      const mine = edgeSecrets.find((secret) => secret.accountId === 1)!;
      const before = await appRow(app.id);
      const secretsBefore = await appSecretRows(app.id);
      const reply = await putApp(app.id, {
        comment: "should not stay",
        env: { SHOULD_NOT: "stay" },
        debug: true,
        secrets: { NEW_KEY: { id: mine.id } },
        name: fixtureApp(3).name,
      });
      expectEnvelope(reply, 409, "conflict");
      expect(await appRow(app.id)).toEqual(before);
      expect(await appSecretRows(app.id)).toEqual(secretsBefore);
    });

    it("the other account's app and an unknown id are 404, and the other account's app is untouched", async () => {
      const theirs = appsOf(2)[1]!;
      const before = await appRow(theirs.id);
      const reply = await putApp(theirs.id, { comment: "mine now" });
      expectEnvelope(reply, 404, "not_found");
      expect(reply.text).not.toContain(theirs.name);
      expect(await appRow(theirs.id)).toEqual(before);
      expectEnvelope(await putApp(999_999, { comment: "x" }), 404, "not_found");
    });

    it("is refused to the read-only Users role", async () => {
      const before = await appRow(1);
      expectEnvelope(await putApp(1, { comment: "x" }, [1, "role-2-active"]), 403, "permission_denied");
      expect(await appRow(1)).toEqual(before);
    });
  });

  describe("POST /edge/v1/secrets", () => {
    async function slotRows(secretId: number): Promise<Record<string, unknown>[]> {
      return selectRows(api.database.db, sql`select slot, value_encrypted, checksum from edge_secret_slots where secret_id = ${secretId} order by slot`);
    }

    it("creates the secret: slots by slot with the SHA-256 of each value, values never returned, encrypted at rest", async () => {
      const slots = [
        { slot: 1_800_000_000, value: "second-plaintext-Zq81" },
        { slot: 0, value: "first-plaintext-Kw42" },
        { slot: 1_700_000_000, value: "ünïcödé-plaintext-Xy09" },
      ];
      const reply = await api.call("POST", "/edge/v1/secrets", { body: { name: "Payment_Key-1", comment: "PSP key", secret_slots: slots } });
      expect(reply.status, reply.text).toBe(200);
      const secret = reply.body as EdgeAppSecret;
      const bySlot = [...slots].sort((a, b) => a.slot - b.slot);
      expect(secret).toEqual({
        id: expect.any(Number) as number,
        name: "Payment_Key-1",
        comment: "PSP key",
        app_count: 0,
        secret_slots: bySlot.map(({ slot, value }) => ({ slot, checksum: sha256(value) })),
      });
      for (const { value } of slots) expect(reply.text).not.toContain(value);
      expect(reply.text).not.toContain('"value"');

      const rows = await slotRows(secret.id);
      expect(rows.map((row) => row.slot)).toEqual(bySlot.map((item) => item.slot));
      for (const [index, row] of rows.entries()) {
        const stored = row.value_encrypted as string;
        expect(stored).not.toContain(bySlot[index]!.value);
        expect(stored.startsWith("v1.")).toBe(true);
        expect(row.checksum).toBe(sha256(bySlot[index]!.value));
        // The ciphertext is the value under the account's key, not something unrelated.
        expect(await decryptSecret(api.database.secretsKey, stored)).toBe(bySlot[index]!.value);
      }
      const [stored] = await selectRows(api.database.db, sql`select account_id, name, comment from edge_secrets where id = ${secret.id}`);
      expect(stored).toEqual({ account_id: 1, name: "Payment_Key-1", comment: "PSP key" });
    });

    it("comment defaults to an empty string", async () => {
      const reply = await api.call("POST", "/edge/v1/secrets", { body: { name: "no-comment", secret_slots: [{ slot: 0, value: "v" }] } });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toMatchObject({ name: "no-comment", comment: "", app_count: 0, secret_slots: [{ slot: 0, checksum: sha256("v") }] });
    });

    it("a name the account already has is 409; a name only the other account has is fine", async () => {
      const mine = edgeSecrets.find((secret) => secret.accountId === 1)!;
      const theirsOnly = edgeSecrets.find(
        (secret) => secret.accountId === 2 && !edgeSecrets.some((other) => other.accountId === 1 && other.name === secret.name),
      )!;
      const [{ total: before }] = (await selectRows(api.database.db, sql`select count(*)::int as total from edge_secrets`)) as [{ total: number }];
      expectEnvelope(
        await api.call("POST", "/edge/v1/secrets", { body: { name: mine.name, secret_slots: [{ slot: 0, value: "x" }] } }),
        409,
        "conflict",
      );
      const [{ total: after }] = (await selectRows(api.database.db, sql`select count(*)::int as total from edge_secrets`)) as [{ total: number }];
      expect(after).toBe(before);

      const reply = await api.call("POST", "/edge/v1/secrets", { body: { name: theirsOnly.name, secret_slots: [{ slot: 0, value: "x" }] } });
      expect(reply.status, reply.text).toBe(200);
      expect((reply.body as EdgeAppSecret).name).toBe(theirsOnly.name);
    });

    it("the same name in both accounts: account 2 may create a name account 1 has", async () => {
      const mineOnly = edgeSecrets.find(
        (secret) => secret.accountId === 1 && !edgeSecrets.some((other) => other.accountId === 2 && other.name === secret.name),
      )!;
      const reply = await api.call("POST", "/edge/v1/secrets", { as: ADMIN_2, body: { name: mineOnly.name, secret_slots: [{ slot: 0, value: "y" }] } });
      expect(reply.status, reply.text).toBe(200);
      const [row] = await selectRows(api.database.db, sql`select account_id from edge_secrets where id = ${(reply.body as EdgeAppSecret).id}`);
      expect(row).toEqual({ account_id: 2 });
    });

    it("a duplicate slot is 400 on the repeated slot", async () => {
      const reply = await api.call("POST", "/edge/v1/secrets", {
        body: { name: "dup-slot", secret_slots: [{ slot: 5, value: "a" }, { slot: 5, value: "b" }] },
      });
      expectEnvelope(reply, 400, "validation_error", ["secret_slots.1.slot"]);
      expect(reply.text).not.toContain('"a"');
    });

    it("a value of 4096 characters is fine; 4097 is 400, and the value is not echoed", async () => {
      const longest = "k".repeat(4096);
      const ok = await api.call("POST", "/edge/v1/secrets", { body: { name: "longest-value", secret_slots: [{ slot: 0, value: longest }] } });
      expect(ok.status, ok.text).toBe(200);
      expect(ok.body).toMatchObject({ secret_slots: [{ slot: 0, checksum: sha256(longest) }] });

      const tooLong = "q".repeat(4097);
      const reply = await api.call("POST", "/edge/v1/secrets", { body: { name: "too-long-value", secret_slots: [{ slot: 0, value: tooLong }] } });
      expectEnvelope(reply, 400, "validation_error", ["secret_slots.0.value"]);
      expect(reply.text).not.toContain(tooLong);
    });

    it.each([
      [{ name: "-bad", secret_slots: [{ slot: 0, value: "v" }] }, "name"],
      [{ name: "x".repeat(129), secret_slots: [{ slot: 0, value: "v" }] }, "name"],
      [{ name: "no-slots", secret_slots: [] }, "secret_slots"],
      [{ name: "neg-slot", secret_slots: [{ slot: -1, value: "v" }] }, "secret_slots.0.slot"],
      [{ name: "read-only", app_count: 3, secret_slots: [{ slot: 0, value: "v" }] }, "app_count"],
    ])("%j is 400 %s", async (body, field) => {
      expectEnvelope(await api.call("POST", "/edge/v1/secrets", { body }), 400, "validation_error", [field]);
    });

    it("10 concurrent creations of one new name: exactly one 200, the rest 409, one row", async () => {
      const name = "race-condition-secret";
      const replies = await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          api.call("POST", "/edge/v1/secrets", { body: { name, secret_slots: [{ slot: 0, value: `value-${index}` }] } }),
        ),
      );
      const statuses = replies.map((reply) => reply.status).sort();
      expect(statuses).toEqual([200, ...Array<number>(9).fill(409)]);
      for (const reply of replies.filter((candidate) => candidate.status === 409)) expectEnvelope(reply, 409, "conflict");
      const rows = await selectRows(api.database.db, sql`select id from edge_secrets where account_id = 1 and name = ${name}`);
      expect(rows).toEqual([{ id: (replies.find((reply) => reply.status === 200)!.body as EdgeAppSecret).id }]);
      const slots = await slotRows(rows[0]!.id as number);
      expect(slots).toHaveLength(1);
    });

    it("is refused to the read-only Users role", async () => {
      expectEnvelope(
        await api.call("POST", "/edge/v1/secrets", { as: [1, "role-2-active"], body: { name: "by-a-user", secret_slots: [{ slot: 0, value: "v" }] } }),
        403,
        "permission_denied",
      );
    });
  });
});
