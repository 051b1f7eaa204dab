/**
 * Integration tests of the Cloud projects: the account's projects, oldest first, the oldest the default
 * one; filtered, ordered and paged.
 */
import { demoFixture, type DemoAccountId } from "@cloudplane/db";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi } from "../harness.js";

const PROJECTS = "/cloud/v1/projects";
const { cloudProjects: projects } = demoFixture;

describe.each(engines())("cloud projects on %s", (engine) => {
  const api = useApi(engine);

  describe("GET /cloud/v1/projects", () => {
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
});
