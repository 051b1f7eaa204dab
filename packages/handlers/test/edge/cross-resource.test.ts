/**
 * Integration tests of the edge area's lifecycles on every engine: apps (create, get, PUT and PATCH, delete),
 * templates, secrets and binaries (listing, get, raw upload, change, delete with their 409s), and the
 * /fastedge/v1 aliases.
 */
import { createHash } from "node:crypto";
import {
  edgeApp,
  type EdgeApp,
  type EdgeAppSecret,
  type EdgeAppSecretList,
  type EdgeAppTemplate,
  type EdgeAppTemplateList,
  type EdgeAppTemplateShort,
  type EdgeBinary,
  type EdgeBinaryList,
} from "@cloudplane/contract";
import { decryptSecret, demoFixture, sql, type DemoAccountId, type DemoRow, type DemoTokenName } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi, type Reply } from "../harness.js";

const { edgeApps, edgeTemplates, edgePlans, edgeBinaries, edgeSecrets } = demoFixture;

type DemoEdgeBinary = DemoRow<"edgeBinaries">;

const ADMIN_2: [DemoAccountId, DemoTokenName] = [2, "role-1-active"];
const USER_1: [DemoAccountId, DemoTokenName] = [1, "role-2-active"];

const APP_FIELDS = Object.keys(edgeApp.shape).sort();

function sha256(text: string | Uint8Array): string {
  return createHash("sha256").update(text).digest("hex");
}

/**
 * A WebAssembly module of version 1: a custom section (which readers skip), then an export section
 * naming `exports` (no code: enough for the API, which reads no further than the exports).
 */
function wasmModule(exports: string[] = [], padding = 0): Uint8Array<ArrayBuffer> {
  const header = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
  const custom = [0x00, 0x05, 0x04, ...Buffer.from("note")];
  const entries = exports.flatMap((name, index) => [name.length, ...Buffer.from(name), 0x00, index]);
  const exportSection = exports.length ? [0x07, entries.length + 1, exports.length, ...entries] : [];
  const bytes = new Uint8Array(header.length + custom.length + exportSection.length + padding);
  bytes.set([...header, ...custom, ...exportSection]);
  return bytes;
}

const binariesOf = (account: number | null) => edgeBinaries.filter((binary) => binary.accountId === account);
const templatesOf = (account: number | null) => edgeTemplates.filter((template) => template.accountId === account);
const secretsOf = (account: number) => edgeSecrets.filter((secret) => secret.accountId === account);
const appsOf = (account: number) => edgeApps.filter((app) => app.accountId === account);
/** The ids of the secrets an app reads. */
const appSecretIds = (appId: number) => demoFixture.edgeAppSecrets.filter((row) => row.appId === appId).map((row) => row.secretId);
/** A secret's slots, in the fixture's order. */
const slotsOf = (secretId: number) => demoFixture.edgeSecretSlots.filter((slot) => slot.secretId === secretId);

/** The demo binary as the API shows it. */
function binaryView(binary: DemoEdgeBinary): EdgeBinary {
  const { id, apiType, status, source, checksum, unrefSince } = binary;
  return { id, api_type: apiType, status, source, checksum, unref_since: unrefSince };
}

/** A binary of account 1 that no app runs and no template uses. */
const unusedBinary = binariesOf(1).find(
  (binary) => !edgeApps.some((app) => app.binaryId === binary.id) && !edgeTemplates.some((template) => template.binaryId === binary.id),
)!;
/** A binary of account 1 that apps run. */
const runBinary = binariesOf(1).find((binary) => binary.apiType === "wasi-http" && edgeApps.some((app) => app.binaryId === binary.id))!;
/** A template of account 1 and the api_type it has. */
const ownTemplate = templatesOf(1).find((template) => template.apiType === "wasi-http")!;
const publicTemplate = templatesOf(null).find((template) => template.apiType === "proxy-wasm")!;

describe.each(engines())("edge lifecycles on %s", (engine) => {
  const api = useApi(engine);

  async function rows(query: ReturnType<typeof sql>): Promise<Record<string, unknown>[]> {
    return selectRows(api.database.db, query);
  }

  async function tableCount(table: string): Promise<number> {
    const [row] = await rows(sql`select count(*)::int as count from ${sql.identifier(table)}`);
    return row!.count as number;
  }

  /** Row counts of every edge table: a refused write must leave them as they were. */
  async function edgeCounts(): Promise<Record<string, number>> {
    const tables = ["edge_apps", "edge_app_secrets", "edge_templates", "edge_template_params", "edge_secrets", "edge_secret_slots", "edge_binaries"];
    const counts: Record<string, number> = {};
    for (const table of tables) counts[table] = await tableCount(table);
    return counts;
  }

  function expectNoContent(reply: Reply): void {
    expect(reply.status, reply.text).toBe(204);
    expect(reply.text).toBe("");
  }

  async function createApp(body: Record<string, unknown>, as?: [DemoAccountId, DemoTokenName]): Promise<EdgeApp> {
    const reply = await api.call("POST", "/edge/v1/apps", { body, as });
    expect(reply.status, reply.text).toBe(200);
    return reply.body as EdgeApp;
  }

  async function createTemplate(body: Record<string, unknown>): Promise<EdgeAppTemplateShort> {
    const reply = await api.call("POST", "/edge/v1/template", { body });
    expect(reply.status, reply.text).toBe(200);
    return reply.body as EdgeAppTemplateShort;
  }

  async function createSecret(name: string, slots = [{ slot: 0, value: `${name}-value-5150` }]): Promise<EdgeAppSecret> {
    const reply = await api.call("POST", "/edge/v1/secrets", { body: { name, secret_slots: slots } });
    expect(reply.status, reply.text).toBe(200);
    return reply.body as EdgeAppSecret;
  }

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
      expect(got.body).toEqual(created);
      expect(got.text).not.toContain("env-value-8812");

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
      expect((await api.call("GET", `/fastedge/v1/apps/${app.id}`)).body).toEqual(app);
      expect((await api.call("GET", `/edge/v1/apps/${app.id}`)).body).toEqual(app);
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
      expect((await api.call("GET", `/edge/v1/apps/${app.id}`)).body).toEqual({ ...app, template: null, template_name: null });
    });

    it("Users may list templates, not make, replace or delete them", async () => {
      expect((await api.call("GET", "/edge/v1/template", { as: USER_1 })).status).toBe(200);
      expectEnvelope(await api.call("POST", "/edge/v1/template", { as: USER_1, body: { binary_id: runBinary.id, name: "u", params: [] } }), 403, "permission_denied");
      expectEnvelope(await api.call("DELETE", `/edge/v1/template/${ownTemplate.id}`, { as: USER_1 }), 403, "permission_denied");
    });
  });

  describe("secrets", () => {
    async function appCounts(): Promise<Map<number, number>> {
      const counted = await rows(sql`select secret_id, count(distinct app_id)::int as apps from edge_app_secrets group by secret_id`);
      return new Map(counted.map((row) => [row.secret_id as number, row.apps as number]));
    }

    it("lists the account's secrets by id with app_count; secret_name, search and app_id filter; limit and offset page", async () => {
      const used = await appCounts();
      const mine = secretsOf(1).sort((a, b) => a.id - b.id);
      const view = (secret: (typeof mine)[number]) => ({ id: secret.id, name: secret.name, comment: secret.comment, app_count: used.get(secret.id) ?? 0 });
      expect((await api.call("GET", "/edge/v1/secrets")).body).toEqual({ secrets: mine.map(view), count: mine.length });
      expect(mine.some((secret) => (used.get(secret.id) ?? 0) > 1)).toBe(true);

      const named = mine[1]!;
      expect((await api.call("GET", `/edge/v1/secrets?secret_name=${encodeURIComponent(named.name)}`)).body).toEqual({ secrets: [view(named)], count: 1 });
      expect((await api.call("GET", `/edge/v1/secrets?secret_name=${encodeURIComponent(named.name.toUpperCase())}x`)).body).toEqual({ secrets: [], count: 0 });

      const search = "KEY";
      const found = mine.filter((secret) => secret.name.toLowerCase().includes(search.toLowerCase()));
      expect(found.length).toBeGreaterThan(0);
      expect((await api.call("GET", `/edge/v1/secrets?search=${search}`)).body).toEqual({ secrets: found.map(view), count: found.length });

      const app = appsOf(1).find((candidate) => appSecretIds(candidate.id).length > 1)!;
      const ids = new Set(appSecretIds(app.id));
      const ofApp = mine.filter((secret) => ids.has(secret.id));
      expect((await api.call("GET", `/fastedge/v1/secrets?app_id=${app.id}`)).body).toEqual({ secrets: ofApp.map(view), count: ofApp.length });
      expect((await api.call("GET", `/edge/v1/secrets?app_id=${appsOf(2)[3]!.id}`)).body).toEqual({ secrets: [], count: 0 });

      expect((await api.call("GET", "/edge/v1/secrets?limit=1&offset=1")).body).toEqual({ secrets: [view(mine[1]!)], count: mine.length });
      expectEnvelope(await api.call("GET", "/edge/v1/secrets?limit=1001"), 400, "validation_error", ["query.limit"]);
      expectEnvelope(await api.call("GET", "/edge/v1/secrets?app_id=x"), 400, "validation_error", ["query.app_id"]);
    });

    it("get shows each slot's checksum by slot, never a value; the other account's secret is 404", async () => {
      const secret = secretsOf(1).find((candidate) => slotsOf(candidate.id).length > 1)!;
      const reply = await api.call("GET", `/edge/v1/secrets/${secret.id}`);
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toEqual({
        id: secret.id,
        name: secret.name,
        comment: secret.comment,
        app_count: (await appCounts()).get(secret.id) ?? 0,
        secret_slots: [...slotsOf(secret.id)].sort((a, b) => a.slot - b.slot).map(({ slot, value }) => ({ slot, checksum: sha256(value) })),
      });
      for (const { value } of slotsOf(secret.id)) expect(reply.text).not.toContain(value);
      expectEnvelope(await api.call("GET", `/edge/v1/secrets/${secretsOf(2)[0]!.id}`), 404, "not_found");
    });

    it("PATCH changes the fields given; a listed slot without a value keeps it, a new value is stored encrypted, unlisted slots go", async () => {
      const secret = await createSecret("patch-me", [
        { slot: 0, value: "first-value-1717" },
        { slot: 100, value: "second-value-2828" },
      ]);
      const comment = await api.call("PATCH", `/edge/v1/secrets/${secret.id}`, { body: { comment: "only the comment" } });
      expect(comment.body).toEqual({ ...secret, comment: "only the comment" });

      const reply = await api.call("PATCH", `/edge/v1/secrets/${secret.id}`, {
        body: { secret_slots: [{ slot: 0 }, { slot: 200, value: "third-value-3939" }] },
      });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toEqual({
        ...secret,
        comment: "only the comment",
        secret_slots: [
          { slot: 0, checksum: sha256("first-value-1717") },
          { slot: 200, checksum: sha256("third-value-3939") },
        ],
      });
      expect(reply.text).not.toContain("third-value-3939");
      const stored = await rows(sql`select slot, value_encrypted from edge_secret_slots where secret_id = ${secret.id} order by slot`);
      expect(await Promise.all(stored.map((row) => decryptSecret(api.database.secretsKey, row.value_encrypted as string)))).toEqual([
        "first-value-1717",
        "third-value-3939",
      ]);
    });

    it("a slot without a value that has none stored is 400 on that slot, and nothing changes", async () => {
      const secret = await createSecret("no-stored-slot");
      const before = await rows(sql`select * from edge_secret_slots where secret_id = ${secret.id}`);
      expectEnvelope(
        await api.call("PATCH", `/edge/v1/secrets/${secret.id}`, { body: { comment: "x", secret_slots: [{ slot: 0 }, { slot: 5 }] } }),
        400,
        "validation_error",
        ["secret_slots.1.value"],
      );
      expect(await rows(sql`select * from edge_secret_slots where secret_id = ${secret.id}`)).toEqual(before);
      expect(((await api.call("GET", `/edge/v1/secrets/${secret.id}`)).body as EdgeAppSecret).comment).toBe("");
    });

    it.each([
      [{ secret_slots: [] }, "secret_slots"],
      [{ secret_slots: [{ slot: 1, value: "a" }, { slot: 1, value: "b" }] }, "secret_slots.1.slot"],
      [{ name: "-bad" }, "name"],
      [{ app_count: 2 }, "app_count"],
      [{ secret_slots: [{ slot: 0, value: "q".repeat(4097) }] }, "secret_slots.0.value"],
    ])("PATCH %j is 400 %s", async (body, field) => {
      const secret = secretsOf(1)[0]!;
      const reply = await api.call("PATCH", `/edge/v1/secrets/${secret.id}`, { body });
      expectEnvelope(reply, 400, "validation_error", [field]);
      expect(reply.text).not.toContain("qqqq");
    });

    it("PUT needs a name and sets the comment (empty when absent); the slots stay unless given", async () => {
      const secret = await createSecret("put-me");
      await api.call("PATCH", `/edge/v1/secrets/${secret.id}`, { body: { comment: "will be cleared" } });
      expectEnvelope(await api.call("PUT", `/edge/v1/secrets/${secret.id}`, { body: { comment: "x" } }), 400, "validation_error", ["name"]);
      const reply = await api.call("PUT", `/fastedge/v1/secrets/${secret.id}`, { body: { name: "put-me-renamed" } });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toEqual({ ...secret, name: "put-me-renamed", comment: "" });
    });

    it("a name another secret of the account has is 409 on PATCH and PUT, and nothing changes", async () => {
      const [first, second] = secretsOf(1) as [(typeof edgeSecrets)[number], (typeof edgeSecrets)[number]];
      const before = await rows(sql`select * from edge_secrets where id = ${first.id}`);
      expectEnvelope(await api.call("PATCH", `/edge/v1/secrets/${first.id}`, { body: { name: second.name, comment: "x" } }), 409, "conflict");
      expectEnvelope(await api.call("PUT", `/edge/v1/secrets/${first.id}`, { body: { name: second.name } }), 409, "conflict");
      expect(await rows(sql`select * from edge_secrets where id = ${first.id}`)).toEqual(before);
      expect((await api.call("PATCH", `/edge/v1/secrets/${first.id}`, { body: { name: first.name } })).status).toBe(200);
    });

    it("the other account's secret is 404 to change and delete, and stays", async () => {
      const theirs = secretsOf(2)[0]!;
      const before = await rows(sql`select * from edge_secrets where id = ${theirs.id}`);
      expectEnvelope(await api.call("PATCH", `/edge/v1/secrets/${theirs.id}`, { body: { comment: "mine" } }), 404, "not_found");
      expectEnvelope(await api.call("PUT", `/edge/v1/secrets/${theirs.id}`, { body: { name: "mine" } }), 404, "not_found");
      expectEnvelope(await api.call("DELETE", `/edge/v1/secrets/${theirs.id}?force=true`), 404, "not_found");
      expect(await rows(sql`select * from edge_secrets where id = ${theirs.id}`)).toEqual(before);
    });

    it("deleting a secret apps use is 409 and changes nothing; force=true takes it out of the apps and deletes it", async () => {
      const used = secretsOf(1).find((secret) => edgeApps.some((app) => appSecretIds(app.id).includes(secret.id)))!;
      const before = await edgeCounts();
      expectEnvelope(await api.call("DELETE", `/edge/v1/secrets/${used.id}`), 409, "conflict");
      expect(await edgeCounts()).toEqual(before);

      expectNoContent(await api.call("DELETE", `/edge/v1/secrets/${used.id}?force=true`));
      expectEnvelope(await api.call("GET", `/edge/v1/secrets/${used.id}`), 404, "not_found");
      expect(await rows(sql`select app_id from edge_app_secrets where secret_id = ${used.id}`)).toEqual([]);
      expect(await rows(sql`select slot from edge_secret_slots where secret_id = ${used.id}`)).toEqual([]);
    });

    it("an unused secret is deleted at once, through the alias too", async () => {
      const secret = await createSecret("delete-me");
      expectNoContent(await api.call("DELETE", `/fastedge/v1/secrets/${secret.id}`));
      expectEnvelope(await api.call("GET", `/edge/v1/secrets/${secret.id}`), 404, "not_found");
      expectEnvelope(await api.call("DELETE", `/edge/v1/secrets/${secret.id}`), 404, "not_found");
    });

    it("Users may read secrets, not change or delete them", async () => {
      const secret = await createSecret("read-by-users");
      expect((await api.call("GET", `/edge/v1/secrets/${secret.id}`, { as: USER_1 })).status).toBe(200);
      expectEnvelope(await api.call("PATCH", `/edge/v1/secrets/${secret.id}`, { as: USER_1, body: { comment: "x" } }), 403, "permission_denied");
      expectEnvelope(await api.call("DELETE", `/edge/v1/secrets/${secret.id}?force=true`, { as: USER_1 }), 403, "permission_denied");
    });
  });

  /** Uploads `bytes` (a wasm module) as account 1's administrator, answered 201 with the binary. */
  async function uploadBinary(bytes: Uint8Array<ArrayBuffer>, path = "/edge/v1/binaries/raw"): Promise<EdgeBinary> {
    const reply = await api.call("POST", path, { body: bytes });
    expect(reply.status, reply.text).toBe(201);
    return reply.body as EdgeBinary;
  }

  describe("binaries", () => {
    it.each([1, 2] as const)("account %s lists its own binaries by id (not the platform's), paged", async (account) => {
      const as: [DemoAccountId, DemoTokenName] = [account, "role-1-active"];
      const own = binariesOf(account).sort((a, b) => a.id - b.id);
      expect((await api.call("GET", "/edge/v1/binaries", { as })).body).toEqual({ binaries: own.map(binaryView), count: own.length } satisfies EdgeBinaryList);
      expect((await api.call("GET", "/fastedge/v1/binaries?limit=1&offset=1", { as })).body).toEqual({ binaries: [binaryView(own[1]!)], count: own.length });
    });

    it("get shows one of the account's binaries; the platform's and the other account's are 404", async () => {
      for (const binary of binariesOf(1)) expect((await api.call("GET", `/edge/v1/binaries/${binary.id}`)).body).toEqual(binaryView(binary));
      expect(binariesOf(1).some((binary) => binary.status !== 1)).toBe(true);
      expectEnvelope(await api.call("GET", `/edge/v1/binaries/${binariesOf(null)[0]!.id}`), 404, "not_found");
      expectEnvelope(await api.call("GET", `/fastedge/v1/binaries/${binariesOf(2)[0]!.id}`), 404, "not_found");
    });

    it("upload → get → listed → an app runs it → delete 409 → delete the app → delete 204 → get 404", async () => {
      const bytes = wasmModule(["_start", "memory"]);
      const binary = await uploadBinary(bytes);
      expect(binary).toEqual({ id: expect.any(Number) as number, api_type: "wasi-http", status: 1, source: 0, checksum: sha256(bytes), unref_since: null });
      // The bytes are stored as they came, and never answered.
      const [stored] = await rows(sql`select account_id, content from edge_binaries where id = ${binary.id}`);
      expect(stored!.account_id).toBe(1);
      expect(Buffer.from(stored!.content as Uint8Array).equals(Buffer.from(bytes))).toBe(true);

      expect((await api.call("GET", `/edge/v1/binaries/${binary.id}`)).body).toEqual(binary);
      const listed = (await api.call("GET", "/edge/v1/binaries")).body as EdgeBinaryList;
      expect(listed.binaries.at(-1)).toEqual(binary);
      expect(listed.count).toBe(binariesOf(1).length + 1);

      const app = await createApp({ name: "runs-uploaded", binary: binary.id });
      expect(app).toMatchObject({ binary: binary.id, api_type: "wasi-http" });
      const inUse = await api.call("DELETE", `/edge/v1/binaries/${binary.id}`);
      expectEnvelope(inUse, 409, "conflict");
      expect(inUse.body.message).toContain("1 app(s)");
      expect((await api.call("GET", `/edge/v1/binaries/${binary.id}`)).status).toBe(200);

      expectNoContent(await api.call("DELETE", `/edge/v1/apps/${app.id}`));
      expect(((await api.call("GET", `/edge/v1/binaries/${binary.id}`)).body as EdgeBinary).unref_since).not.toBeNull();
      expectNoContent(await api.call("DELETE", `/edge/v1/binaries/${binary.id}`));
      expectEnvelope(await api.call("GET", `/edge/v1/binaries/${binary.id}`), 404, "not_found");
      expectEnvelope(await api.call("DELETE", `/edge/v1/binaries/${binary.id}`), 404, "not_found");
      expect(await rows(sql`select id from edge_binaries where id = ${binary.id}`)).toEqual([]);
    });

    it("a binary a template is made from is 409 to delete until the template goes; the /fastedge/v1 aliases upload and delete", async () => {
      const binary = await uploadBinary(wasmModule(), "/fastedge/v1/binaries/raw");
      const template = await createTemplate({ binary_id: binary.id, name: "From an upload", params: [] });
      expect(template.api_type).toBe(binary.api_type);
      const inUse = await api.call("DELETE", `/fastedge/v1/binaries/${binary.id}`);
      expectEnvelope(inUse, 409, "conflict");
      expect(inUse.body.message).toContain("1 template(s)");
      expectNoContent(await api.call("DELETE", `/edge/v1/template/${template.id}`));
      expectNoContent(await api.call("DELETE", `/fastedge/v1/binaries/${binary.id}`));
      expectEnvelope(await api.call("GET", `/fastedge/v1/binaries/${binary.id}`), 404, "not_found");
    });

    it("a binary an app is offered as an upgrade (upgradeable_to) is 409 to delete", async () => {
      const binary = await uploadBinary(wasmModule());
      const app = appsOf(1)[0]!;
      await api.database.db.execute(sql`update edge_apps set upgradeable_to = ${binary.id} where id = ${app.id}`);
      expectEnvelope(await api.call("DELETE", `/edge/v1/binaries/${binary.id}`), 409, "conflict");
      await api.database.db.execute(sql`update edge_apps set upgradeable_to = ${app.upgradeableTo} where id = ${app.id}`);
      expectNoContent(await api.call("DELETE", `/edge/v1/binaries/${binary.id}`));
    });

    it("the api_type is read from the module: proxy-wasm when it exports a proxy_ name, else wasi-http", async () => {
      const cases: [Uint8Array<ArrayBuffer>, EdgeBinary["api_type"]][] = [
        [wasmModule(["proxy_abi_version_0_2_1", "proxy_on_request_headers", "memory"]), "proxy-wasm"],
        [wasmModule(["memory", "proxy_on_context_create"]), "proxy-wasm"],
        [wasmModule(["_start", "memory", "wasi:http/incoming-handler"]), "wasi-http"],
        [wasmModule(["proxy"]), "wasi-http"],
        [wasmModule(), "wasi-http"],
        // A module cut short in its export section is read as far as it goes.
        [wasmModule(["proxy_on_tick"]).slice(0, 20), "wasi-http"],
      ];
      for (const [bytes, apiType] of cases) {
        const binary = await uploadBinary(bytes);
        expect(binary.api_type, Buffer.from(bytes).toString("hex")).toBe(apiType);
        expectNoContent(await api.call("DELETE", `/edge/v1/binaries/${binary.id}`));
      }
    });

    it.each([
      ["no bytes", new Uint8Array(0), "Must not be empty"],
      ["text", new Uint8Array(Buffer.from("hello, world")), "magic"],
      ["too short for the magic", new Uint8Array([0x00, 0x61, 0x73]), "magic"],
      ["the magic alone", new Uint8Array([0x00, 0x61, 0x73, 0x6d]), "version 1"],
      ["a component (version 0x0d)", new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x0d, 0x00, 0x01, 0x00]), "version 1"],
      ["version 2", new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x02, 0x00, 0x00, 0x00]), "version 1"],
    ])("%s is 400 naming body, and nothing is stored", async (_what, bytes, message) => {
      const before = await edgeCounts();
      const reply = await api.call("POST", "/edge/v1/binaries/raw", { rawBody: bytes, headers: { "content-type": "application/octet-stream" } });
      expectEnvelope(reply, 400, "validation_error", ["body"]);
      expect(reply.body.errors!.body!.join(" ")).toContain(message);
      expect(await edgeCounts()).toEqual(before);
    });

    it("takes raw bytes only: a JSON body, text or no content type is 415 (nothing stored); a body over 1 MiB is 413", async () => {
      const before = await edgeCounts();
      // JSON is the wrong type here, whatever it holds: 415, not 400.
      expectEnvelope(await api.call("POST", "/edge/v1/binaries/raw", { body: { binary: "AGFzbQEAAAA=" } }), 415, "unsupported_media_type");
      expectEnvelope(await api.call("POST", "/fastedge/v1/binaries/raw", { body: { binary: "AGFzbQEAAAA=" } }), 415, "unsupported_media_type");
      expectEnvelope(await api.call("POST", "/edge/v1/binaries/raw", { rawBody: "\0asm", headers: { "content-type": "text/plain" } }), 415, "unsupported_media_type");
      expectEnvelope(await api.call("POST", "/edge/v1/binaries/raw", { rawBody: wasmModule(), headers: { "content-type": "application/wasm" } }), 415, "unsupported_media_type");
      expectEnvelope(await api.call("POST", "/edge/v1/binaries/raw", { rawBody: wasmModule() }), 415, "unsupported_media_type");
      expectEnvelope(await api.call("POST", "/edge/v1/binaries/raw", { body: wasmModule([], 1024 * 1024) }), 413, "payload_too_large");
      expect(await edgeCounts()).toEqual(before);
      // The content type's case and parameters do not matter.
      const binary = await uploadBinary(wasmModule());
      const typed = await api.call("POST", "/edge/v1/binaries/raw", { rawBody: wasmModule(), headers: { "content-type": "Application/Octet-Stream; charset=binary" } });
      expect(typed.status, typed.text).toBe(201);
      for (const id of [binary.id, (typed.body as EdgeBinary).id]) expectNoContent(await api.call("DELETE", `/edge/v1/binaries/${id}`));
    });

    it("every other route still takes JSON only: raw bytes to a JSON route are 415 and change nothing", async () => {
      const before = await edgeCounts();
      expectEnvelope(await api.call("POST", "/edge/v1/secrets", { body: wasmModule() }), 415, "unsupported_media_type");
      expectEnvelope(await api.call("PATCH", `/edge/v1/apps/${appsOf(1)[0]!.id}`, { body: wasmModule() }), 415, "unsupported_media_type");
      // An unknown path below the upload's is held to JSON too.
      expectEnvelope(await api.call("POST", "/edge/v1/binaries/raw/more", { body: wasmModule() }), 415, "unsupported_media_type");
      expect(await edgeCounts()).toEqual(before);
    });

    it("the other account's binary and the platform's are 404 to delete, and stay; Users may neither upload nor delete", async () => {
      for (const binary of [binariesOf(2)[0]!, binariesOf(null)[0]!]) {
        expectEnvelope(await api.call("DELETE", `/edge/v1/binaries/${binary.id}`), 404, "not_found");
        expect(await rows(sql`select id from edge_binaries where id = ${binary.id}`)).toEqual([{ id: binary.id }]);
      }
      const before = await edgeCounts();
      expectEnvelope(await api.call("POST", "/edge/v1/binaries/raw", { as: USER_1, body: wasmModule() }), 403, "permission_denied");
      expectEnvelope(await api.call("DELETE", `/edge/v1/binaries/${unusedBinary.id}`, { as: USER_1 }), 403, "permission_denied");
      expect(await edgeCounts()).toEqual(before);
      // Account 2's upload is its own.
      const theirs = await api.call("POST", "/edge/v1/binaries/raw", { as: ADMIN_2, body: wasmModule() });
      expect(theirs.status, theirs.text).toBe(201);
      const id = (theirs.body as EdgeBinary).id;
      expectEnvelope(await api.call("GET", `/edge/v1/binaries/${id}`), 404, "not_found");
      expectEnvelope(await api.call("DELETE", `/edge/v1/binaries/${id}`), 404, "not_found");
      expectNoContent(await api.call("DELETE", `/edge/v1/binaries/${id}`, { as: ADMIN_2 }));
    });

    it("a delete racing an app that takes the binary ends in 204 and 400, or 409 and 200, never a 5xx", async () => {
      for (let round = 0; round < 5; round += 1) {
        const binary = await uploadBinary(wasmModule());
        const [deleted, made] = await Promise.all([
          api.call("DELETE", `/edge/v1/binaries/${binary.id}`),
          api.call("POST", "/edge/v1/apps", { body: { name: `raced-binary-${round}`, binary: binary.id } }),
        ]);
        expect([deleted.status, made.status], `${deleted.text} ${made.text}`).toSatisfy(
          ([del, create]: number[]) => (del === 204 && create === 400) || (del === 409 && create === 200),
        );
        if (made.status === 200) {
          expectNoContent(await api.call("DELETE", `/edge/v1/apps/${(made.body as EdgeApp).id}`));
          expectNoContent(await api.call("DELETE", `/edge/v1/binaries/${binary.id}`));
        }
      }
    });
  });

  it("deletes racing writes that refer to the same secret or template end in 2xx, 400 or 409, never a 5xx", async () => {
    const app = appsOf(1).find((candidate) => candidate.apiType === "wasi-http")!;
    for (let round = 0; round < 5; round += 1) {
      const secret = await createSecret(`raced-${round}`);
      const template = await createTemplate({ binary_id: runBinary.id, name: `Raced ${round}`, params: [] });
      const [deletedSecret, linked, deletedTemplate, made] = await Promise.all([
        api.call("DELETE", `/edge/v1/secrets/${secret.id}?force=true`),
        api.call("PUT", `/edge/v1/apps/${app.id}`, { body: { secrets: { RACED: { id: secret.id } } } }),
        api.call("DELETE", `/edge/v1/template/${template.id}?force=true`),
        api.call("POST", "/edge/v1/apps", { body: { name: `raced-app-${round}`, template: template.id } }),
      ]);
      expect(deletedSecret.status, deletedSecret.text).toBe(204);
      expect(deletedTemplate.status, deletedTemplate.text).toBe(204);
      expect([200, 400], linked.text).toContain(linked.status);
      expect([200, 400], made.text).toContain(made.status);
      // Whatever the order, nothing refers to the deleted objects.
      expect(await rows(sql`select app_id from edge_app_secrets where secret_id = ${secret.id}`)).toEqual([]);
      expect(await rows(sql`select id from edge_apps where template_id = ${template.id}`)).toEqual([]);
    }
  });

  it("the listings answer the secret list's and template list's shapes through their aliases", async () => {
    const secrets = (await api.call("GET", "/fastedge/v1/secrets?limit=1")).body as EdgeAppSecretList;
    expect(secrets.secrets).toHaveLength(1);
    const templates = (await api.call("GET", "/fastedge/v1/template?limit=1")).body as EdgeAppTemplateList;
    expect(templates.templates).toHaveLength(1);
  });
});
