/**
 * Integration tests of edge apps on every engine, with the demo fixture as the source of every expected
 * value: the filtered, ordered and paged listing, PUT of each field (status moves, name, secrets, debug),
 * and the lifecycle (create, get, PUT and PATCH, delete, the /fastedge/v1 aliases).
 */
import { EDGE_APP_ORDERINGS, edgeApp, type EdgeApp, type EdgeAppList, type EdgeAppSecret, type EdgeBinary } from "@cloudplane/contract";
import { demoFixture, sql, type DemoAccountId, type DemoRow, type DemoTokenName } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi, type Reply } from "../harness.js";
import { edgeHelpers } from "./shared.js";

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

function expectNoWriteOnlyFields(reply: Reply): void {
  for (const field of WRITE_ONLY_FIELDS) expect(reply.text).not.toContain(`"${field}"`);
}

function expectAppShape(app: EdgeApp): void {
  expect(Object.keys(app).sort()).toEqual(APP_FIELDS);
}

const USER_1: [DemoAccountId, DemoTokenName] = [1, "role-2-active"];

const binariesOf = (account: number | null) => edgeBinaries.filter((binary) => binary.accountId === account);
const templatesOf = (account: number | null) => edgeTemplates.filter((template) => template.accountId === account);
const secretsOf = (account: number) => edgeSecrets.filter((secret) => secret.accountId === account);

/** A binary of account 1 that no app runs and no template uses. */
const unusedBinary = binariesOf(1).find(
  (binary) => !edgeApps.some((app) => app.binaryId === binary.id) && !edgeTemplates.some((template) => template.binaryId === binary.id),
)!;
/** A binary of account 1 that apps run. */
const runBinary = binariesOf(1).find((binary) => binary.apiType === "wasi-http" && edgeApps.some((app) => app.binaryId === binary.id))!;
/** A template of account 1 and the api_type it has. */
const ownTemplate = templatesOf(1).find((template) => template.apiType === "wasi-http")!;
const publicTemplate = templatesOf(null).find((template) => template.apiType === "proxy-wasm")!;

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
      // Its GET shows the settings: the secrets and stores it reads by name, never a secret's value.
      const stores = Object.fromEntries(
        demoFixture.edgeAppStores
          .filter((link) => link.appId === app.id)
          .map((link) => {
            const store = demoFixture.edgeKvStores.find((candidate) => candidate.id === link.storeId)!;
            return [link.name, { id: store.id, name: store.name, comment: store.comment }];
          }),
      );
      expect((await api.call("GET", `/edge/v1/apps/${app.id}`)).body).toEqual({
        ...updated,
        env: body.env,
        rsp_headers: body.rsp_headers,
        log: "kafka",
        secrets: { SIGNING_KEY: { id: secret.id, name: secret.name, comment: secret.comment } },
        stores,
      });
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
});

describe.each(engines())("edge lifecycles on %s", (engine) => {
  const api = useApi(engine);

  const { rows, edgeCounts, expectNoContent, createApp } = edgeHelpers(api);





  async function binaryRow(id: number): Promise<Record<string, unknown>> {
    const [row] = await rows(sql`select unref_since from edge_binaries where id = ${id}`);
    return row!;
  }

  describe("apps", () => {
    it("create → get → list → update → delete → 404: the whole lifecycle of an app made from a binary", async () => {
      const plans = [...edgePlans].sort((a, b) => a.id - b.id);
      const created = await createApp({ name: "lifecycle-app", binary: runBinary.id, comment: "Made by the test", env: { MODE: "env-value-8812" } });
      expect(Object.keys(created).sort()).toEqual(APP_FIELDS);
      expect(created).toEqual({
        id: expect.any(Number) as number,
        name: "lifecycle-app",
        url: `https://lifecycle-app-${created.id}.1.edge.cloudplane.example`,
        status: 0,
        binary: runBinary.id,
        template: null,
        template_name: null,
        comment: "Made by the test",
        api_type: runBinary.apiType,
        debug_until: null,
        networks: [],
        upgradeable_to: null,
        plan_id: plans[0]!.id,
        plan: plans[0]!.name,
      });
      const [stored] = await rows(sql`select account_id, env, log from edge_apps where id = ${created.id}`);
      expect(stored).toMatchObject({ account_id: 1, log: "kafka" });
      expect(typeof stored!.env === "string" ? JSON.parse(stored!.env) : stored!.env).toEqual({ MODE: "env-value-8812" });

      const got = await api.call("GET", `/edge/v1/apps/${created.id}`);
      expect(got.status, got.text).toBe(200);
      // The GET adds the app's settings: its environment (settings, not secrets) and the rest, empty.
      expect(got.body).toEqual({ ...created, env: { MODE: "env-value-8812" }, rsp_headers: {}, log: "kafka", secrets: {}, stores: {} });

      const listed = await api.call("GET", "/edge/v1/apps?name=lifecycle-app");
      expect(listed.body).toEqual({ apps: [created], count: 1 });

      const updated = await api.call("PUT", `/edge/v1/apps/${created.id}`, { body: { status: 1 } });
      expect(updated.body).toEqual({ ...created, status: 1 });

      expectNoContent(await api.call("DELETE", `/edge/v1/apps/${created.id}`));
      expectEnvelope(await api.call("GET", `/edge/v1/apps/${created.id}`), 404, "not_found");
      expectEnvelope(await api.call("DELETE", `/edge/v1/apps/${created.id}`), 404, "not_found");
      expect(await rows(sql`select id from edge_apps where id = ${created.id}`)).toEqual([]);
    });

    it("an app made from a template alone runs the template's binary, of its api_type", async () => {
      const created = await createApp({ name: "from-public-template", template: publicTemplate.id, status: 1 });
      expect(created).toMatchObject({
        binary: publicTemplate.binaryId,
        template: publicTemplate.id,
        template_name: publicTemplate.name,
        api_type: publicTemplate.apiType,
        status: 1,
      });
    });

    it("secrets given at creation are linked (app_count counts the app) and go with the app when it is deleted", async () => {
      const secret = edgeSecrets.find((candidate) => candidate.accountId === 1)!;
      const before = (await api.call("GET", `/edge/v1/secrets/${secret.id}`)).body as EdgeAppSecret;
      const created = await createApp({ name: "with-secrets", binary: runBinary.id, secrets: { TOKEN: { id: secret.id } } });
      expect(await rows(sql`select name, secret_id from edge_app_secrets where app_id = ${created.id}`)).toEqual([{ name: "TOKEN", secret_id: secret.id }]);
      expect(((await api.call("GET", `/edge/v1/secrets/${secret.id}`)).body as EdgeAppSecret).app_count).toBe(before.app_count + 1);

      expectNoContent(await api.call("DELETE", `/edge/v1/apps/${created.id}`));
      expect(await rows(sql`select name from edge_app_secrets where app_id = ${created.id}`)).toEqual([]);
      expect(((await api.call("GET", `/edge/v1/secrets/${secret.id}`)).body as EdgeAppSecret).app_count).toBe(before.app_count);
    });

    it("a binary's unref_since clears while an app runs it and is set when the last one is deleted", async () => {
      expect(unusedBinary.unrefSince).not.toBeNull();
      const created = await createApp({ name: "runs-unused", binary: unusedBinary.id });
      expect((await binaryRow(unusedBinary.id)).unref_since).toBeNull();
      const before = Date.now();
      expectNoContent(await api.call("DELETE", `/edge/v1/apps/${created.id}`));
      const since = new Date((await binaryRow(unusedBinary.id)).unref_since as string).getTime();
      expect(since).toBeGreaterThanOrEqual(before - 5000);
      expect(since).toBeLessThanOrEqual(Date.now() + 5000);
      const shown = (await api.call("GET", `/edge/v1/binaries/${unusedBinary.id}`)).body as EdgeBinary;
      expect(Date.parse(shown.unref_since!)).toBe(since);
      // The binaries' tests below compare with the fixture.
      await api.database.db.execute(sql`update edge_binaries set unref_since = ${unusedBinary.unrefSince} where id = ${unusedBinary.id}`);
    });

    it.each([
      [{ binary: runBinary.id }, "name"],
      [{ name: "no-binary" }, "binary"],
      [{ name: "Bad Name", binary: runBinary.id }, "name"],
      [{ name: "status-three", binary: runBinary.id, status: 3 }, "status"],
      [{ name: "read-only", binary: runBinary.id, url: "https://x.example" }, "url"],
      [{ name: "unknown", binary: runBinary.id, colour: "red" }, "colour"],
      [{ name: "their-binary", binary: binariesOf(2)[0]!.id }, "binary"],
      [{ name: "no-such-binary", binary: 999_999 }, "binary"],
      [{ name: "their-template", template: templatesOf(2)[0]!.id }, "template"],
      [{ name: "mixed-types", template: ownTemplate.id, binary: binariesOf(1).find((b) => b.apiType !== ownTemplate.apiType)!.id }, "binary"],
      [{ name: "their-secret", binary: runBinary.id, secrets: { KEY: { id: secretsOf(2)[0]!.id } } }, "secrets.KEY.id"],
    ])("%j is 400 naming %s, and nothing is made", async (body, field) => {
      const before = await edgeCounts();
      expectEnvelope(await api.call("POST", "/edge/v1/apps", { body }), 400, "validation_error", [field]);
      expect(await edgeCounts()).toEqual(before);
    });

    it("a name the account's apps have is 409; the other account's names are free", async () => {
      const mine = appsOf(1)[0]!;
      const before = await edgeCounts();
      expectEnvelope(await api.call("POST", "/edge/v1/apps", { body: { name: mine.name, binary: runBinary.id } }), 409, "conflict");
      expect(await edgeCounts()).toEqual(before);
      const theirsOnly = appsOf(2).find((app) => !appsOf(1).some((other) => other.name === app.name))!;
      expect((await createApp({ name: theirsOnly.name, binary: runBinary.id })).name).toBe(theirsOnly.name);
    });

    it("the other account's app is 404 to get and to delete, and stays", async () => {
      const theirs = appsOf(2)[0]!;
      const got = await api.call("GET", `/edge/v1/apps/${theirs.id}`);
      expectEnvelope(got, 404, "not_found");
      expect(got.text).not.toContain(theirs.name);
      expectEnvelope(await api.call("DELETE", `/edge/v1/apps/${theirs.id}`), 404, "not_found");
      expect(await rows(sql`select id from edge_apps where id = ${theirs.id}`)).toEqual([{ id: theirs.id }]);
      expect((await api.call("GET", `/edge/v1/apps/${theirs.id}`, { as: ADMIN_2 })).status).toBe(200);
    });

    it("Users may read apps, not create or delete them", async () => {
      const app = appsOf(1)[0]!;
      expect((await api.call("GET", `/edge/v1/apps/${app.id}`, { as: USER_1 })).status).toBe(200);
      expectEnvelope(await api.call("POST", "/edge/v1/apps", { as: USER_1, body: { name: "by-a-user", binary: runBinary.id } }), 403, "permission_denied");
      expectEnvelope(await api.call("DELETE", `/edge/v1/apps/${app.id}`, { as: USER_1 }), 403, "permission_denied");
      expect(await rows(sql`select id from edge_apps where id = ${app.id}`)).toEqual([{ id: app.id }]);
    });

    it("the /fastedge/v1 aliases create, get, change (PUT and PATCH) and delete the same apps", async () => {
      const made = await api.call("POST", "/fastedge/v1/apps", { body: { name: "via-alias", binary: runBinary.id } });
      expect(made.status, made.text).toBe(200);
      const app = made.body as EdgeApp;
      const settings = { env: {}, rsp_headers: {}, log: "kafka", secrets: {}, stores: {} };
      expect((await api.call("GET", `/fastedge/v1/apps/${app.id}`)).body).toEqual({ ...app, ...settings });
      expect((await api.call("GET", `/edge/v1/apps/${app.id}`)).body).toEqual({ ...app, ...settings });
      expect((await api.call("PATCH", `/fastedge/v1/apps/${app.id}`, { body: { comment: "patched" } })).body).toEqual({ ...app, comment: "patched" });
      expect((await api.call("PUT", `/fastedge/v1/apps/${app.id}`, { body: { status: 2 } })).body).toEqual({ ...app, comment: "patched", status: 2 });
      expect(((await api.call("GET", "/fastedge/v1/apps?name=via-alias")).body as { count: number }).count).toBe(1);
      expectNoContent(await api.call("DELETE", `/fastedge/v1/apps/${app.id}`));
      expectEnvelope(await api.call("GET", `/edge/v1/apps/${app.id}`), 404, "not_found");
    });

    it("PATCH changes only the fields given, and answers like the PUT", async () => {
      const secret = secretsOf(1)[0]!;
      const created = await createApp({
        name: "patched-app",
        binary: runBinary.id,
        comment: "Before",
        env: { MODE: "env-value-3141" },
        rsp_headers: { "x-kept": "yes" },
        log: "none",
        secrets: { TOKEN: { id: secret.id } },
      });
      const storedRow = async () => (await rows(sql`select name, comment, env, rsp_headers, log, status, binary_id from edge_apps where id = ${created.id}`))[0]!;
      const json = (value: unknown) => (typeof value === "string" ? (JSON.parse(value) as unknown) : value);
      const before = await storedRow();

      const patched = await api.call("PATCH", `/edge/v1/apps/${created.id}`, { body: { comment: "After" } });
      expect(patched.status, patched.text).toBe(200);
      expect(patched.body).toEqual({ ...created, comment: "After" });
      const after = await storedRow();
      expect({ ...after, env: json(after.env), rsp_headers: json(after.rsp_headers) }).toEqual({
        ...before,
        env: json(before.env),
        rsp_headers: json(before.rsp_headers),
        comment: "After",
      });
      expect(await rows(sql`select name, secret_id from edge_app_secrets where app_id = ${created.id}`)).toEqual([{ name: "TOKEN", secret_id: secret.id }]);

      // Several fields at once, by the PUT's rules (a status move, write-only fields); the answer is the PUT's.
      const moved = await api.call("PATCH", `/edge/v1/apps/${created.id}`, { body: { status: 1, env: { MODE: "other" }, secrets: {} } });
      expect(moved.body).toEqual({ ...created, comment: "After", status: 1 });
      expect(json((await storedRow()).env)).toEqual({ MODE: "other" });
      expect(await rows(sql`select name from edge_app_secrets where app_id = ${created.id}`)).toEqual([]);
      expect((await api.call("PATCH", `/edge/v1/apps/${created.id}`, { body: {} })).body).toEqual({ ...created, comment: "After", status: 1 });
      // A move the PUT refuses, the PATCH refuses too.
      expectEnvelope(await api.call("PATCH", `/edge/v1/apps/${created.id}`, { body: { status: 0 } }), 409, "conflict");
      expectNoContent(await api.call("DELETE", `/edge/v1/apps/${created.id}`));
    });

    it.each([
      [{ status: 3 }, "status"],
      [{ name: "Bad Name" }, "name"],
      [{ comment: "ok", colour: "red" }, "colour"],
      [{ url: "https://x.example" }, "url"],
      [{ binary: binariesOf(2)[0]!.id }, "binary"],
      [{ template: templatesOf(2)[0]!.id }, "template"],
      [{ secrets: { KEY: { id: secretsOf(2)[0]!.id } } }, "secrets.KEY.id"],
      [{ log: "syslog" }, "log"],
    ])("PATCH %j is 400 naming %s, and nothing changes", async (body, field) => {
      const app = appsOf(1)[0]!;
      const before = await rows(sql`select * from edge_apps where id = ${app.id}`);
      const counts = await edgeCounts();
      expectEnvelope(await api.call("PATCH", `/edge/v1/apps/${app.id}`, { body }), 400, "validation_error", [field]);
      expect(await rows(sql`select * from edge_apps where id = ${app.id}`)).toEqual(before);
      expect(await edgeCounts()).toEqual(counts);
    });

    it("PATCH of the other account's app is 404; a name another app of the account has is 409; Users may not PATCH", async () => {
      const [first, second] = appsOf(1);
      expectEnvelope(await api.call("PATCH", `/edge/v1/apps/${appsOf(2)[0]!.id}`, { body: { comment: "x" } }), 404, "not_found");
      expectEnvelope(await api.call("PATCH", `/edge/v1/apps/${first!.id}`, { body: { name: second!.name } }), 409, "conflict");
      expectEnvelope(await api.call("PATCH", `/edge/v1/apps/${first!.id}`, { as: USER_1, body: { comment: "x" } }), 403, "permission_denied");
      expect((await api.call("GET", `/edge/v1/apps/${first!.id}`)).body).toMatchObject({ name: first!.name });
    });
  });
});
