/**
 * Integration tests of the Cloud inference applications: the platform's catalogue (listed, one by name), and
 * a project's application deployments made, changed and deleted with their tasks, checked against the
 * catalogue, their status moving on (time moved on in the database), and refused writes that change nothing.
 */
import { INFERENCE_TIMING } from "@cloudplane/contract";
import { demoFixture, sql } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi, type Reply } from "../harness.js";

const { inferenceApplicationTemplates: templates, inferenceApplicationDeployments: fixtureDeployments } = demoFixture;
const base = (project: number) => `/cloud/v3/inference/applications/${project}/deployments`;

const shownTemplate = (row: (typeof templates)[number]) => ({
  name: row.name,
  display_name: row.displayName,
  description: row.description,
  readme: row.readme,
  cover_url: row.coverUrl,
  tags: row.tags,
  components: row.components,
});

const chat = (name: string) => ({
  name,
  application_name: "chat-ui-llm",
  components_configuration: {
    model: { exposed: true, flavor: "inference-4vcpu-16gib-1xl40s-48gb", scale: { min: 1, max: 2 }, parameter_overrides: { max_model_len: { value: "4096" }, temperature: { value: "0.2" } } },
  },
  regions: [1, 2],
});

describe.each(engines())("cloud inference applications on %s", (engine) => {
  const api = useApi(engine);

  const stored = async () => ({
    deployments: await selectRows(api.database.db, sql`select * from inference_application_deployments order by id`),
    tasks: await selectRows(api.database.db, sql`select * from cloud_tasks order by id`),
  });

  async function expectRefusedUnchanged(send: () => Promise<Reply>): Promise<Reply> {
    const before = await stored();
    const reply = await send();
    expect(reply.status, reply.text).toBeGreaterThanOrEqual(400);
    expect(await stored()).toEqual(before);
    return reply;
  }

  async function age(project: number, name: string, seconds: number): Promise<void> {
    await api.database.db.execute(
      sql`update inference_application_deployments set state_since = state_since - ${`${seconds} seconds`}::interval where project_id = ${project} and name = ${name}`,
    );
  }

  async function task(id: string) {
    const [row] = await selectRows(api.database.db, sql`select task_type, state, created_resources, data from cloud_tasks where id = ${id}`);
    return row;
  }

  it("lists the catalogue by name and answers one application, 404 for an unknown one", async () => {
    const expected = [...templates].sort((a, b) => (a.name < b.name ? -1 : 1)).map(shownTemplate);
    const reply = await api.call("GET", "/cloud/v3/inference/applications/catalog", { as: [2, "role-2-active"] });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toEqual({ count: expected.length, results: expected });
    expect((await api.call("GET", `/cloud/v3/inference/applications/catalog/${templates[0]!.name}`)).body).toEqual(shownTemplate(templates[0]!));
    expectEnvelope(await api.call("GET", "/cloud/v3/inference/applications/catalog/no-such-app"), 404, "not_found");
  });

  it("lists a project's application deployments, Active long after they were made; another account's project is 404", async () => {
    const ours = fixtureDeployments.find((row) => row.accountId === 1)!;
    const reply = await api.call("GET", base(ours.projectId), { as: [1, "role-2-active"] });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toEqual({
      count: 1,
      results: [
        {
          name: ours.name,
          application_name: ours.applicationName,
          components_configuration: ours.componentsConfiguration,
          regions: ours.regions,
          api_keys: ours.apiKeys,
          status: {
            consolidated_status: "Active",
            regions: [{ region_id: 1, status: "Active", components: { model: { status: "Active", error: "" }, ui: { status: "Active", error: "" } } }],
            component_inferences: {
              model: { name: `${ours.name}-model`, flavor: "inference-4vcpu-16gib-1xl40s-48gb" },
              ui: { name: `${ours.name}-ui`, flavor: "inference-2vcpu-8gib-cpu" },
            },
            expose_addresses: {
              model: { address: `https://${ours.name}-model-p1.inference.cloudplane.example` },
              ui: { address: `https://${ours.name}-ui-p1.inference.cloudplane.example` },
            },
          },
        },
      ],
    });
    const theirs = fixtureDeployments.find((row) => row.accountId === 2)!;
    expectEnvelope(await api.call("GET", base(theirs.projectId)), 404, "not_found");
    expectEnvelope(await expectRefusedUnchanged(() => api.call("DELETE", `${base(theirs.projectId)}/${theirs.name}`)), 404, "not_found");
  });

  it("makes a deployment with its task, PartiallyDeployed and then Active; changes and deletes it", async () => {
    const made = await api.call("POST", base(1), { body: { ...chat("test-chat"), api_keys: ["acme-ci-key"] } });
    expect(made.status, made.text).toBe(200);
    expect(await task(made.body.tasks[0])).toEqual({
      task_type: "create_inference_application",
      state: "FINISHED",
      created_resources: { inference_applications: ["test-chat"] },
      data: { application_deployment_name: "test-chat" },
    });
    const fresh = await api.call("GET", `${base(1)}/test-chat`);
    expect(fresh.body.status).toEqual({
      consolidated_status: "PartiallyDeployed",
      regions: [
        { region_id: 1, status: "Deploying", components: { model: { status: "Deploying", error: "" } } },
        { region_id: 2, status: "Deploying", components: { model: { status: "Deploying", error: "" } } },
      ],
      component_inferences: { model: { name: "test-chat-model", flavor: "inference-4vcpu-16gib-1xl40s-48gb" } },
      expose_addresses: {},
    });
    expect(fresh.body.components_configuration.model.parameter_overrides).toEqual({ max_model_len: { value: "4096" }, temperature: { value: "0.2" } });
    await age(1, "test-chat", INFERENCE_TIMING.readyAfter);
    const active = await api.call("GET", `${base(1)}/test-chat`);
    expect(active.body.status.consolidated_status).toBe("Active");
    expect(active.body.status.expose_addresses).toEqual({ model: { address: "https://test-chat-model-p1.inference.cloudplane.example" } });

    const changed = await api.call("PATCH", `${base(1)}/test-chat`, {
      body: {
        regions: [3],
        components_configuration: {
          model: { scale: { max: 4 }, parameter_overrides: { temperature: null } },
          ui: { exposed: false, flavor: "inference-2vcpu-8gib-cpu", scale: { min: 1, max: 1 }, parameter_overrides: { title: { value: "Support chat" } } },
        },
      },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(await task(changed.body.tasks[0])).toMatchObject({ task_type: "update_inference_application", state: "FINISHED" });
    const after = await api.call("GET", `${base(1)}/test-chat`);
    expect(after.body).toMatchObject({
      regions: [3],
      api_keys: ["acme-ci-key"],
      components_configuration: {
        model: { exposed: true, flavor: "inference-4vcpu-16gib-1xl40s-48gb", scale: { min: 1, max: 4 }, parameter_overrides: { max_model_len: { value: "4096" } } },
        ui: { exposed: false, flavor: "inference-2vcpu-8gib-cpu", scale: { min: 1, max: 1 }, parameter_overrides: { title: { value: "Support chat" } } },
      },
    });
    expect(after.body.status.consolidated_status).toBe("PartiallyDeployed");
    expect(Object.keys(after.body.components_configuration.model.parameter_overrides)).toEqual(["max_model_len"]);
    expectEnvelope(await expectRefusedUnchanged(() => api.call("PATCH", `${base(1)}/test-chat`, { body: { components_configuration: { model: null } } })), 400, "validation_error", [
      "components_configuration.model",
    ]);
    // The key is taken by the application: it cannot be deleted.
    expectEnvelope(await api.call("DELETE", "/cloud/v3/inference/1/api_keys/acme-ci-key"), 409, "conflict");

    const deleted = await api.call("DELETE", `${base(1)}/test-chat`);
    expect(deleted.status, deleted.text).toBe(200);
    expect(await task(deleted.body.tasks[0])).toMatchObject({ task_type: "delete_inference_application" });
    expect((await api.call("GET", `${base(1)}/test-chat`)).body.status.consolidated_status).toBe("Unknown");
    expectEnvelope(await expectRefusedUnchanged(() => api.call("DELETE", `${base(1)}/test-chat`)), 409, "conflict");
    await age(1, "test-chat", INFERENCE_TIMING.deletedAfter);
    expectEnvelope(await api.call("GET", `${base(1)}/test-chat`), 404, "not_found");
    expect((await api.call("POST", base(1), { body: chat("test-chat") })).status).toBe(200);
  });

  it("refuses a configuration that does not fit the catalogue, naming each field, and changes nothing", async () => {
    const reply = await expectRefusedUnchanged(() =>
      api.call("POST", base(1), {
        body: {
          name: "misfit",
          application_name: "chat-ui-llm",
          components_configuration: {
            ui: { exposed: true, flavor: "inference-16vcpu-232gib-1xh100-80gb", scale: { min: 3, max: 1 }, parameter_overrides: { title: { value: "bad\ntitle" }, colour: { value: "red" } } },
            extra: { exposed: false, flavor: "inference-2vcpu-8gib-cpu", scale: { min: 0, max: 1 } },
          },
          regions: [1, 1, 99],
          api_keys: ["globex-key"],
        },
      }),
    );
    expectEnvelope(reply, 400, "validation_error", [
      "components_configuration.model",
      "components_configuration.ui.flavor",
      "components_configuration.ui.scale.max",
      "components_configuration.ui.parameter_overrides.title.value",
      "components_configuration.ui.parameter_overrides.colour",
      "components_configuration.extra",
      "regions.1",
      "regions.2",
      "api_keys.0",
    ]);
    const overrides = await expectRefusedUnchanged(() =>
      api.call("POST", base(1), {
        body: {
          ...chat("misfit"),
          components_configuration: {
            model: {
              exposed: true,
              flavor: "inference-4vcpu-16gib-1xl40s-48gb",
              scale: { min: 1, max: 1 },
              parameter_overrides: { model: { value: "gpt-9" }, max_model_len: { value: "12.5" }, temperature: { value: "3" } },
            },
          },
        },
      }),
    );
    expectEnvelope(overrides, 400, "validation_error", {
      "components_configuration.model.parameter_overrides.model.value": ["Must be one of: meta-llama/Llama-3.1-8B-Instruct, mistralai/Mistral-7B-Instruct-v0.3."],
      "components_configuration.model.parameter_overrides.max_model_len.value": ["Must be an integer."],
      "components_configuration.model.parameter_overrides.temperature.value": ["Must be at most 2."],
    });
    expectEnvelope(await expectRefusedUnchanged(() => api.call("POST", base(1), { body: { ...chat("x"), application_name: "no-such-app" } })), 400, "validation_error", ["application_name"]);
    expectEnvelope(await expectRefusedUnchanged(() => api.call("POST", base(1), { body: chat("acme-assistant") })), 409, "conflict");
  });
});
