/**
 * What the edge area's test files share: reads of the stored rows, and the writes that make the objects a
 * test needs, each expecting its route's success, on the suite's API.
 */
import type { EdgeApp, EdgeAppSecret, EdgeAppTemplateShort } from "@cloudplane/contract";
import { sql, type DemoAccountId, type DemoTokenName } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { expect } from "vitest";
import type { Reply, TestApi } from "../harness.js";

/** The helpers on `api`, the suite's API. */
export function edgeHelpers(api: TestApi) {
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

  return { rows, tableCount, edgeCounts, expectNoContent, createApp, createTemplate, createSecret };
}
