/**
 * Integration tests of the Cloud projects: the account's projects, oldest first, the oldest the default
 * one; filtered, ordered and paged; one by id; created, changed, and deleted with what is in them by a task.
 */
import { DEMO_SSL_CERTIFICATES, MAX_CLOUD_PROJECTS } from "@cloudplane/contract";
import { demoFixture, sql, type DemoAccountId } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi, type Reply } from "../harness.js";

const PROJECTS = "/cloud/v1/projects";
const { cloudProjects: projects } = demoFixture;

/** The account's demo projects as the API shows them, oldest first; the oldest is the default. */
const shown = (account: DemoAccountId) => {
  const own = projects.filter((project) => project.accountId === account).sort((a, b) => a.created.localeCompare(b.created) || a.id - b.id);
  return own.map((project) => ({
        id: project.id,
        client_id: account,
        name: project.name,
        description: project.description,
        is_default: project.id === Math.min(...own.map((candidate) => candidate.id)),
        state: "ACTIVE",
        created_at: project.created,
        deleted_at: null,
        task_id: null,
      }));
};

describe.each(engines())("cloud projects on %s", (engine) => {
  const api = useApi(engine);

  const stored = async () => ({
    projects: await selectRows(api.database.db, sql`select * from cloud_projects order by id`),
    images: await selectRows(api.database.db, sql`select * from gpu_images order by id`),
    secrets: await selectRows(api.database.db, sql`select * from cloud_secrets order by id`),
    tasks: await selectRows(api.database.db, sql`select * from cloud_tasks order by id`),
  });

  /** A write must be refused and leave every project and what is in them as it was. */
  async function expectRefusedUnchanged(send: () => Promise<Reply>): Promise<Reply> {
    const before = await stored();
    const reply = await send();
    expect(reply.status, reply.text).toBeGreaterThanOrEqual(400);
    expect(await stored()).toEqual(before);
    return reply;
  }

  describe("GET /cloud/v1/projects", () => {
    it("lists the caller's projects, oldest first, the oldest the default one", async () => {
      for (const account of [1, 2] as const) {
        const reply = await api.call("GET", PROJECTS, { as: [account, "role-2-active"] });
        expect(reply.status, reply.text).toBe(200);
        expect(shown(account).length).toBeGreaterThan(1);
        expect(reply.body).toEqual({ count: shown(account).length, results: shown(account) });
      }
    });

    it("filters by name, orders by name either way, and pages with a count of all matches", async () => {
      const ours = shown(1);
      const byName = [...ours].sort((a, b) => (a.name < b.name ? -1 : 1));
      expect((await api.call("GET", `${PROJECTS}?order_by=name.desc`)).body.results).toEqual([...byName].reverse());
      expect((await api.call("GET", `${PROJECTS}?order_by=created_at.desc&limit=1&offset=1`)).body).toEqual({ count: ours.length, results: [ours.at(-2)] });
      expect((await api.call("GET", `${PROJECTS}?name=${encodeURIComponent(ours[1]!.name)}&include_deleted=true`)).body).toEqual({ count: 1, results: [ours[1]] });
      // Another account's project name matches nothing here.
      expect((await api.call("GET", `${PROJECTS}?name=${encodeURIComponent(shown(2)[0]!.name)}`)).body).toEqual({ count: 0, results: [] });
    });

    it("refuses a bad query with the fields named", async () => {
      const reply = await api.call("GET", `${PROJECTS}?limit=0&order_by=id.asc&include_deleted=maybe`);
      expectEnvelope(reply, 400, "validation_error");
      expect(Object.keys(reply.body.errors).sort()).toEqual(["query.include_deleted", "query.limit", "query.order_by"]);
    });
  });

  describe("GET /cloud/v1/projects/{project_id}", () => {
    it("answers each of the account's projects, and 404 for another account's or an unknown one", async () => {
      for (const account of [1, 2] as const)
        for (const project of shown(account)) {
          const reply = await api.call("GET", `${PROJECTS}/${project.id}`, { as: [account, "role-2-active"] });
          expect(reply.status, reply.text).toBe(200);
          expect(reply.body).toEqual(project);
        }
      expectEnvelope(await api.call("GET", `${PROJECTS}/${shown(2)[0]!.id}`), 404, "not_found");
      expectEnvelope(await api.call("GET", `${PROJECTS}/999999`), 404, "not_found");
      expectEnvelope(await api.call("GET", `${PROJECTS}/0`), 400, "validation_error", ["path.project_id"]);
    });
  });

  describe("the life of a project: create → get → list → change → delete with its images and secrets → task → 404", () => {
    it("creates, changes and deletes a project, the delete answering a task", async () => {
      const created = await api.call("POST", PROJECTS, { body: { name: "staging", description: null }, as: [1, "role-5-active"] });
      expect(created.status, created.text).toBe(201);
      expect(created.body).toEqual({
        id: expect.any(Number),
        client_id: 1,
        name: "staging",
        description: "",
        is_default: false,
        state: "ACTIVE",
        created_at: expect.stringMatching(/Z$/),
        deleted_at: null,
        task_id: null,
      });
      const id = created.body.id as number;
      expect((await api.call("GET", `${PROJECTS}/${id}`)).body).toEqual(created.body);
      expect((await api.call("GET", `${PROJECTS}?name=staging`)).body).toEqual({ count: 1, results: [created.body] });

      const renamed = await api.call("PATCH", `${PROJECTS}/${id}`, { body: { name: "pre-release" } });
      expect(renamed.status, renamed.text).toBe(200);
      expect(renamed.body).toEqual({ ...created.body, name: "pre-release" });
      const described = await api.call("PATCH", `${PROJECTS}/${id}`, { body: { description: "Checks before a release." } });
      expect(described.body).toEqual({ ...created.body, name: "pre-release", description: "Checks before a release." });
      expect((await api.call("PATCH", `${PROJECTS}/${id}`, { body: {} })).body).toEqual(described.body);

      // Something in it, in two regions: an image and a secret.
      const image = await api.call("POST", `/cloud/v3/gpu/virtual/${id}/2/images`, { body: { name: "in-project", url: "https://images.acme.example/p.qcow2" } });
      expect(image.status, image.text).toBe(200);
      const pair = DEMO_SSL_CERTIFICATES.acme;
      const secret = await api.call("POST", `/cloud/v2/secrets/${id}/1`, { body: { name: "in-project", payload: { certificate: pair.pem, certificate_chain: "", private_key: pair.key } } });
      expect(secret.status, secret.text).toBe(200);

      const deleted = await api.call("DELETE", `${PROJECTS}/${id}`);
      expect(deleted.status, deleted.text).toBe(200);
      expect(deleted.body).toEqual({ tasks: [expect.stringMatching(/^[0-9a-f-]{36}$/)] });
      const task = await api.call("GET", `/cloud/v1/tasks/${deleted.body.tasks[0]}`);
      expect(task.body).toMatchObject({ task_type: "delete_project", project_id: id, region_id: null, data: { project_id: id }, created_resources: null });
      expect(["RUNNING", "FINISHED"]).toContain(task.body.state);
      expectEnvelope(await api.call("GET", `${PROJECTS}/${id}`), 404, "not_found");
      expectEnvelope(await api.call("GET", `/cloud/v3/gpu/virtual/${id}/2/images/${image.body.tasks[0]}`), 404, "not_found");
      const left = await stored();
      expect(left.images.filter((row) => row.project_id === id)).toEqual([]);
      expect(left.secrets.filter((row) => row.project_id === id)).toEqual([]);
      expectEnvelope(await api.call("DELETE", `${PROJECTS}/${id}`), 404, "not_found");
    });
  });

  describe("refused writes change nothing", () => {
    it.each<[string, Record<string, unknown>, string[]]>([
      ["no name", { description: "x" }, ["name"]],
      ["an empty name", { name: "" }, ["name"]],
      ["a name with a trailing space", { name: "x " }, ["name"]],
      ["a name over 255 characters", { name: "x".repeat(256) }, ["name"]],
      ["a description over 1024 characters", { name: "x", description: "x".repeat(1025) }, ["description"]],
      ["a read-only field", { name: "x", is_default: true }, ["is_default"]],
      ["an unknown field", { name: "x", colour: "blue" }, ["colour"]],
    ])("create with %s: 400 naming the field", async (_what, body, fields) => {
      expectEnvelope(await expectRefusedUnchanged(() => api.call("POST", PROJECTS, { body })), 400, "validation_error", fields);
    });

    it("answers 409 for a name the account has (creating or renaming), and lets another account use it", async () => {
      const [first, second] = shown(1);
      expectEnvelope(await expectRefusedUnchanged(() => api.call("POST", PROJECTS, { body: { name: first!.name } })), 409, "conflict");
      expectEnvelope(await expectRefusedUnchanged(() => api.call("PATCH", `${PROJECTS}/${second!.id}`, { body: { name: first!.name } })), 409, "conflict");
      const elsewhere = await api.call("POST", PROJECTS, { body: { name: first!.name }, as: [2, "role-1-active"] });
      expect(elsewhere.status, elsewhere.text).toBe(201);
      expect((await api.call("DELETE", `${PROJECTS}/${elsewhere.body.id}`, { as: [2, "role-1-active"] })).status).toBe(200);
    });

    it("refuses to delete the default project (409), another account's (404), and changes by readers (403)", async () => {
      const [defaultProject, other] = shown(1);
      expectEnvelope(await expectRefusedUnchanged(() => api.call("DELETE", `${PROJECTS}/${defaultProject!.id}`)), 409, "conflict");
      expectEnvelope(await expectRefusedUnchanged(() => api.call("DELETE", `${PROJECTS}/${shown(2)[1]!.id}`)), 404, "not_found");
      expectEnvelope(await expectRefusedUnchanged(() => api.call("PATCH", `${PROJECTS}/${shown(2)[1]!.id}`, { body: { name: "mine" } })), 404, "not_found");
      for (const token of ["role-2-active", "role-3009-active"] as const) {
        expectEnvelope(await expectRefusedUnchanged(() => api.call("POST", PROJECTS, { body: { name: "nope" }, as: [1, token] })), 403, "permission_denied");
        expectEnvelope(await expectRefusedUnchanged(() => api.call("PATCH", `${PROJECTS}/${other!.id}`, { body: { name: "nope" }, as: [1, token] })), 403, "permission_denied");
        expectEnvelope(await expectRefusedUnchanged(() => api.call("DELETE", `${PROJECTS}/${other!.id}`, { as: [1, token] })), 403, "permission_denied");
      }
    });

    it(`holds at most ${MAX_CLOUD_PROJECTS} projects in an account (409 beyond)`, async () => {
      // Filled to the limit in one statement: the API would take a thousand requests.
      const held = (await api.call("GET", PROJECTS, { as: [2, "role-1-active"] })).body.count as number;
      await api.database.db.execute(
        sql`insert into cloud_projects (account_id, name) select 2, 'bulk-' || n from generate_series(${held + 1}::integer, ${MAX_CLOUD_PROJECTS}::integer) as n`,
      );
      expect((await api.call("GET", `${PROJECTS}?limit=1`, { as: [2, "role-1-active"] })).body.count).toBe(MAX_CLOUD_PROJECTS);
      expectEnvelope(await expectRefusedUnchanged(() => api.call("POST", PROJECTS, { body: { name: "one-too-many" }, as: [2, "role-1-active"] })), 409, "conflict");
      await api.database.db.execute(sql`delete from cloud_projects where account_id = 2 and name like 'bulk-%'`);
      const room = await api.call("POST", PROJECTS, { body: { name: "one-more" }, as: [2, "role-1-active"] });
      expect(room.status, room.text).toBe(201);
    });
  });
});
