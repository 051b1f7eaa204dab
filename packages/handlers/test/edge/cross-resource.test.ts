/**
 * Integration tests that span several edge resources on every engine: deletes of secrets and templates
 * racing app writes that refer to them, and the secret and template listings through their
 * /fastedge/v1 aliases.
 */
import type { EdgeAppSecretList, EdgeAppTemplateList } from "@cloudplane/contract";
import { demoFixture, sql } from "@cloudplane/db";
import { describe, expect, it } from "vitest";
import { engines, useApi } from "../harness.js";
import { edgeHelpers } from "./shared.js";

const { edgeApps, edgeBinaries } = demoFixture;

const binariesOf = (account: number | null) => edgeBinaries.filter((binary) => binary.accountId === account);

const appsOf = (account: number) => edgeApps.filter((app) => app.accountId === account);

/** A binary of account 1 that apps run. */
const runBinary = binariesOf(1).find((binary) => binary.apiType === "wasi-http" && edgeApps.some((app) => app.binaryId === binary.id))!;

describe.each(engines())("edge lifecycles on %s", (engine) => {
  const api = useApi(engine);

  const { rows, createTemplate, createSecret } = edgeHelpers(api);



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
