/**
 * Integration tests of the Cloud inference deployments: the demo data's deployments as the API shows them,
 * a deployment's life (create, its status moving on, stop, start, change, delete) with the tasks each action
 * answers and the lines its containers log, what a create must name, and refused writes that change nothing.
 * Time is moved on by moving the deployment's and its lines' times back in the database.
 */
import { INFERENCE_TIMING } from "@cloudplane/contract";
import { demoFixture, sql } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi, type Reply } from "../harness.js";

const { inferenceDeployments: fixtureDeployments, inferenceDeploymentLogs: fixtureLogs } = demoFixture;

const base = (project: number) => `/cloud/v3/inference/${project}/deployments`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const minimal = (name: string) => ({
  name,
  image: "nginx:1.27",
  listening_port: 80,
  flavor_name: "inference-2vcpu-8gib-cpu",
  containers: [{ region_id: 1, scale: { min: 1, max: 2 } }],
});

describe.each(engines())("cloud inference deployments on %s", (engine) => {
  const api = useApi(engine);

  const stored = async () => ({
    deployments: await selectRows(api.database.db, sql`select * from inference_deployments order by id`),
    logs: await selectRows(api.database.db, sql`select * from inference_deployment_logs order by id`),
    tasks: await selectRows(api.database.db, sql`select * from cloud_tasks order by id`),
  });

  /** A write must be refused and leave the deployments, their lines and the tasks as they were. */
  async function expectRefusedUnchanged(send: () => Promise<Reply>): Promise<Reply> {
    const before = await stored();
    const reply = await send();
    expect(reply.status, reply.text).toBeGreaterThanOrEqual(400);
    expect(await stored()).toEqual(before);
    return reply;
  }

  /** Moves the deployment's clock on by `seconds`: its last action, and the lines it logged, that long ago. */
  async function age(project: number, name: string, seconds: number): Promise<void> {
    const shift = `${seconds} seconds`;
    await api.database.db.execute(
      sql`update inference_deployment_logs set time = time - ${shift}::interval where deployment_id = (select id from inference_deployments where project_id = ${project} and name = ${name})`,
    );
    await api.database.db.execute(sql`update inference_deployments set state_since = state_since - ${shift}::interval where project_id = ${project} and name = ${name}`);
  }

  async function task(id: string) {
    const [row] = await selectRows(api.database.db, sql`select task_type, state, created_resources, data, project_id, account_id from cloud_tasks where id = ${id}`);
    return row;
  }

  describe("the demo data's deployments", () => {
    it("lists a project's deployments by name, each as its state and time make it", async () => {
      const reply = await api.call("GET", `${base(1)}?limit=10`, { as: [1, "role-2-active"] });
      expect(reply.status, reply.text).toBe(200);
      const expected = fixtureDeployments.filter((row) => row.projectId === 1).map((row) => row.name).sort();
      expect(reply.body.count).toBe(expected.length);
      expect(reply.body.results.map((deployment: { name: string }) => deployment.name)).toEqual(expected);
      const chat = reply.body.results.find((deployment: { name: string }) => deployment.name === "acme-chat");
      expect(chat).toEqual({
        name: "acme-chat",
        project_id: 1,
        status: "ACTIVE",
        address: "https://acme-chat-p1.inference.cloudplane.example",
        description: "The product's chat assistant.",
        image: "registry.acme.example/llm/vllm-llama:3.1",
        listening_port: 8000,
        flavor_name: "inference-16vcpu-232gib-1xh100-80gb",
        command: "vllm serve meta-llama/Llama-3.1-8B-Instruct",
        credentials_name: "acme-registry",
        envs: { MAX_MODEL_LEN: "8192" },
        api_keys: ["acme-prod-key"],
        auth_enabled: true,
        containers: [
          {
            region_id: 1,
            address: "https://acme-chat-p1.r1.inference.cloudplane.example",
            deploy_status: { total: 1, ready: 1 },
            error_message: null,
            scale: {
              min: 1,
              max: 3,
              cooldown_period: 60,
              polling_interval: 30,
              triggers: { cpu: null, gpu_memory: null, gpu_utilization: { threshold: 80 }, http: { rate: 100, window: 60 }, memory: null, sqs: null },
            },
          },
          {
            region_id: 2,
            address: "https://acme-chat-p1.r2.inference.cloudplane.example",
            deploy_status: { total: 1, ready: 1 },
            error_message: null,
            scale: {
              min: 1,
              max: 2,
              cooldown_period: 60,
              polling_interval: 30,
              triggers: {
                cpu: null,
                gpu_memory: null,
                gpu_utilization: null,
                http: null,
                memory: null,
                sqs: {
                  activation_queue_length: 1,
                  aws_endpoint: null,
                  aws_region: "eu-central-1",
                  queue_length: 10,
                  queue_url: "https://sqs.eu-central-1.amazonaws.com/123456789012/acme-chat",
                  scale_on_delayed: false,
                  scale_on_flight: true,
                  secret_name: "acme-sqs",
                },
              },
            },
          },
        ],
        ingress_opts: { disable_response_buffering: true },
        logging: { enabled: true, destination_region_id: 1, topic_name: "acme-chat-logs", retention_policy: { period: 14 } },
        probes: {
          liveness_probe: null,
          startup_probe: null,
          readiness_probe: {
            enabled: true,
            probe: {
              exec: null,
              failure_threshold: 3,
              http_get: { headers: {}, host: null, path: "/health", port: 8000, schema: "HTTP" },
              initial_delay_seconds: 30,
              period_seconds: 10,
              success_threshold: 1,
              tcp_socket: null,
              timeout_seconds: 5,
            },
          },
        },
        timeout: 300,
        object_references: [],
        created_at: fixtureDeployments.find((row) => row.name === "acme-chat")!.created,
      });
      const whisper = reply.body.results.find((deployment: { name: string }) => deployment.name === "acme-whisper");
      expect(whisper).toMatchObject({ status: "DISABLED", address: null, containers: [{ address: null, deploy_status: { total: 0, ready: 0 } }] });
    });

    it("answers 404 for another account's project and its deployments, as for ones that do not exist", async () => {
      const theirs = fixtureDeployments.find((row) => row.accountId === 2)!;
      expect((await api.call("GET", `${base(theirs.projectId)}/${theirs.name}`, { as: [2, "role-1-active"] })).status).toBe(200);
      for (const path of [base(theirs.projectId), `${base(theirs.projectId)}/${theirs.name}`, `${base(theirs.projectId)}/${theirs.name}/logs`, `${base(999_999)}`])
        expectEnvelope(await api.call("GET", path), 404, "not_found", undefined, path);
      expectEnvelope(await api.call("GET", `${base(1)}/no-such-deployment`), 404, "not_found");
      for (const [method, path, body] of [
        ["POST", `${base(theirs.projectId)}/${theirs.name}/stop`, undefined],
        ["DELETE", `${base(theirs.projectId)}/${theirs.name}`, undefined],
        ["PATCH", `${base(theirs.projectId)}/${theirs.name}`, { description: "Not ours." }],
        ["POST", base(theirs.projectId), minimal("not-ours")],
      ] as const)
        expectEnvelope(await expectRefusedUnchanged(() => api.call(method, path, { body })), 404, "not_found", undefined, `${method} ${path}`);
    });

    it("answers 400 naming the path parameter that is not a name or an id", async () => {
      expectEnvelope(await api.call("GET", `${base(1)}/Not_A_Name`), 400, "validation_error", ["path.deployment_name"]);
      expectEnvelope(await api.call("GET", `${base(0)}`), 400, "validation_error", ["path.project_id"]);
      expectEnvelope(await api.call("GET", `${base(1)}?limit=0`), 400, "validation_error", ["query.limit"]);
    });

    it("lists a deployment's lines that have come, by time, of one region, paged", async () => {
      const chat = fixtureDeployments.find((row) => row.name === "acme-chat")!;
      const lines = fixtureLogs.filter((line) => line.deploymentId === chat.id).sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : a.id - b.id));
      const all = await api.call("GET", `${base(1)}/acme-chat/logs?order_by=time.asc`);
      expect(all.status, all.text).toBe(200);
      expect(all.body).toEqual({ count: lines.length, results: lines.map((line) => ({ time: line.time, region_id: line.regionId, pod: line.pod, message: line.message })) });
      const newest = await api.call("GET", `${base(1)}/acme-chat/logs?limit=2&offset=1&region_id=2`);
      const region2 = lines.filter((line) => line.regionId === 2).reverse();
      expect(newest.body.count).toBe(region2.length);
      expect(newest.body.results.map((line: { message: string }) => line.message)).toEqual(region2.slice(1, 3).map((line) => line.message));
      expectEnvelope(await api.call("GET", `${base(1)}/acme-chat/logs?order_by=time`), 400, "validation_error", ["query.order_by"]);
    });
  });

  describe("a deployment's life", () => {
    const name = "life-cycle";

    it("is created with its task, DEPLOYING, and moves on to PARTIALLYDEPLOYED and ACTIVE, logging as it goes", async () => {
      const reply = await api.call("POST", base(1), {
        body: { ...minimal(name), command: ["nginx", "-g", "daemon off;"], envs: { MODE: "test" }, api_keys: ["acme-ci-key"], description: "Made by a test." },
      });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toEqual({ tasks: [expect.stringMatching(UUID)] });
      expect(await task(reply.body.tasks[0])).toEqual({
        task_type: "create_inference_instance",
        state: "FINISHED",
        created_resources: { inference_instances: [name] },
        data: { deployment_name: name },
        project_id: 1,
        account_id: 1,
      });
      const deploying = await api.call("GET", `${base(1)}/${name}`);
      expect(deploying.body).toMatchObject({
        status: "DEPLOYING",
        address: null,
        command: "nginx -g daemon off;",
        api_keys: ["acme-ci-key"],
        auth_enabled: true,
        credentials_name: null,
        description: "Made by a test.",
        containers: [{ region_id: 1, address: null, deploy_status: { total: 1, ready: 0 }, scale: { min: 1, max: 2, cooldown_period: null, polling_interval: null } }],
      });
      expect((await api.call("GET", `${base(1)}/${name}/logs`)).body.results.map((line: { message: string }) => line.message)).toEqual(['Pulling image "nginx:1.27"']);
      // The key shows the deployment that takes it.
      expect((await api.call("GET", "/cloud/v3/inference/1/api_keys/acme-ci-key")).body.deployment_names).toEqual([name]);

      await age(1, name, INFERENCE_TIMING.containersAfter);
      expect((await api.call("GET", `${base(1)}/${name}`)).body).toMatchObject({ status: "PARTIALLYDEPLOYED", address: null });
      await age(1, name, INFERENCE_TIMING.readyAfter - INFERENCE_TIMING.containersAfter);
      const active = await api.call("GET", `${base(1)}/${name}`);
      expect(active.body).toMatchObject({
        status: "ACTIVE",
        address: `https://${name}-p1.inference.cloudplane.example`,
        containers: [{ address: `https://${name}-p1.r1.inference.cloudplane.example`, deploy_status: { total: 1, ready: 1 } }],
      });
      const lines = await api.call("GET", `${base(1)}/${name}/logs?order_by=time.asc`);
      expect(lines.body.results.map((line: { message: string }) => line.message)).toEqual([
        'Pulling image "nginx:1.27"',
        'Successfully pulled image "nginx:1.27"',
        "Started container, listening on port 80",
      ]);
    });

    it("holds capacity while it runs, and gives it back when stopped", async () => {
      const capacityOf = async () => {
        const reply = await api.call("GET", "/cloud/v3/inference/capacity");
        expect(reply.status, reply.text).toBe(200);
        return reply.body.results.find((region: { region_id: number }) => region.region_id === 1).capacity.find((entry: { flavor_name: string }) => entry.flavor_name === "inference-2vcpu-8gib-cpu").capacity as number;
      };
      const running = await capacityOf();
      expectEnvelope(await api.call("POST", `${base(1)}/${name}/stop`, { as: [1, "role-2-active"] }), 403, "permission_denied");
      const stop = await api.call("POST", `${base(1)}/${name}/stop`);
      expect(stop.status, stop.text).toBe(204);
      expect(stop.text).toBe("");
      expect(await capacityOf()).toBe(running + 2);
      const stopped = await api.call("GET", `${base(1)}/${name}`);
      expect(stopped.body).toMatchObject({ status: "DISABLED", address: null, containers: [{ deploy_status: { total: 0, ready: 0 } }] });
      expect((await api.call("GET", `${base(1)}/${name}/logs?limit=1`)).body.results[0].message).toBe("Stopping container: the deployment was stopped");
      // A second stop changes nothing.
      const before = await stored();
      expect((await api.call("POST", `${base(1)}/${name}/stop`)).status).toBe(204);
      expect(await stored()).toEqual(before);

      const start = await api.call("POST", `${base(1)}/${name}/start`, { body: {} });
      expect(start.status, start.text).toBe(204);
      expect((await api.call("GET", `${base(1)}/${name}`)).body.status).toBe("DEPLOYING");
      expect(await capacityOf()).toBe(running);
    });

    it("takes a change with its task, deploying a running deployment again", async () => {
      await age(1, name, INFERENCE_TIMING.readyAfter);
      expect((await api.call("GET", `${base(1)}/${name}`)).body.status).toBe("ACTIVE");
      const reply = await api.call("PATCH", `${base(1)}/${name}`, {
        body: { description: null, listening_port: 8080, api_keys: [], containers: [{ region_id: 2, scale: { min: 0, max: 1, triggers: { cpu: { threshold: 60 } } } }] },
      });
      expect(reply.status, reply.text).toBe(200);
      expect(await task(reply.body.tasks[0])).toMatchObject({ task_type: "update_inference_instance", state: "FINISHED", created_resources: null });
      const changed = await api.call("GET", `${base(1)}/${name}`);
      expect(changed.body).toMatchObject({
        status: "DEPLOYING",
        description: "",
        listening_port: 8080,
        api_keys: [],
        auth_enabled: false,
        image: "nginx:1.27",
        envs: { MODE: "test" },
        containers: [{ region_id: 2, scale: { min: 0, max: 1, triggers: { cpu: { threshold: 60 }, http: null } } }],
      });
      await age(1, name, INFERENCE_TIMING.readyAfter);
      // Every region scales to zero: running, but PENDING.
      expect((await api.call("GET", `${base(1)}/${name}`)).body).toMatchObject({ status: "PENDING", address: `https://${name}-p1.inference.cloudplane.example` });
    });

    it("refuses a change that names what the project lacks, naming each field, and changes nothing", async () => {
      const reply = await expectRefusedUnchanged(() =>
        api.call("PATCH", `${base(1)}/${name}`, {
          body: {
            flavor_name: "no-such-flavor",
            credentials_name: "no-such-credentials",
            api_keys: ["acme-ci-key", "no-such-key"],
            containers: [{ region_id: 999, scale: { min: 2, max: 1, triggers: { sqs: { activation_queue_length: 1, aws_region: "eu-west-1", queue_length: 5, queue_url: "https://sqs.example/q", secret_name: "no-such-secret" } } } }],
          },
        }),
      );
      expectEnvelope(reply, 400, "validation_error", [
        "flavor_name",
        "credentials_name",
        "api_keys.1",
        "containers.0.region_id",
        "containers.0.scale.max",
        "containers.0.scale.triggers.sqs.secret_name",
      ]);
      expectEnvelope(await expectRefusedUnchanged(() => api.call("PATCH", `${base(1)}/${name}`, { body: { name: "renamed", status: "ACTIVE" } })), 400, "validation_error", ["name", "status"]);
      expectEnvelope(await expectRefusedUnchanged(() => api.call("PATCH", `${base(1)}/${name}`, { body: { api_keys: ["acme-ci-key"], auth_enabled: true } })), 400, "validation_error", ["auth_enabled"]);
    });

    it("is deleted with its task: DELETING, then gone with its lines, and its name free again", async () => {
      const reply = await api.call("DELETE", `${base(1)}/${name}`);
      expect(reply.status, reply.text).toBe(200);
      expect(await task(reply.body.tasks[0])).toMatchObject({ task_type: "delete_inference_instance", state: "FINISHED", data: { deployment_name: name } });
      expect((await api.call("GET", `${base(1)}/${name}`)).body).toMatchObject({ status: "DELETING", address: null });
      expectEnvelope(await expectRefusedUnchanged(() => api.call("DELETE", `${base(1)}/${name}`)), 409, "conflict");
      expectEnvelope(await expectRefusedUnchanged(() => api.call("POST", `${base(1)}/${name}/start`)), 409, "conflict");
      expectEnvelope(await expectRefusedUnchanged(() => api.call("POST", base(1), { body: minimal(name) })), 409, "conflict");
      await age(1, name, INFERENCE_TIMING.deletedAfter);
      expectEnvelope(await api.call("GET", `${base(1)}/${name}`), 404, "not_found");
      expectEnvelope(await api.call("GET", `${base(1)}/${name}/logs`), 404, "not_found");
      expect((await api.call("GET", base(1))).body.results.map((deployment: { name: string }) => deployment.name)).not.toContain(name);
      const again = await api.call("POST", base(1), { body: minimal(name) });
      expect(again.status, again.text).toBe(200);
      // The earlier deployment's lines went with it.
      expect((await api.call("GET", `${base(1)}/${name}/logs`)).body.count).toBe(1);
    });
  });

  describe("what a create names", () => {
    it("refuses what the project or the platform lacks, naming each field, and changes nothing", async () => {
      const reply = await expectRefusedUnchanged(() =>
        api.call("POST", base(1), {
          body: {
            ...minimal("refused"),
            flavor_name: "no-such-flavor",
            credentials_name: "globex-registry",
            api_keys: ["globex-key"],
            containers: [
              { region_id: 1, scale: { min: 1, max: 1 } },
              { region_id: 1, scale: { min: 1, max: 1 } },
            ],
            probes: { liveness_probe: { enabled: true }, readiness_probe: { enabled: true, probe: { tcp_socket: { port: 80 }, exec: { command: ["true"] } } } },
          },
        }),
      );
      expectEnvelope(reply, 400, "validation_error", ["flavor_name", "credentials_name", "api_keys.0", "containers.1.region_id", "probes.liveness_probe.probe", "probes.readiness_probe.probe"]);
    });

    it("refuses a body that fails the contract, naming each field", async () => {
      const reply = await expectRefusedUnchanged(() =>
        api.call("POST", base(1), {
          body: { name: "Bad_Name", image: "has space", listening_port: 70_000, flavor_name: "x", containers: [], envs: { "1BAD": "x" }, timeout: -1, status: "ACTIVE", extra: true },
        }),
      );
      expectEnvelope(reply, 400, "validation_error", ["name", "image", "listening_port", "containers", "envs.1BAD", "timeout", "status", "extra"]);
    });

    it("answers 409 for a name the project's deployments have, and takes it in another project", async () => {
      expectEnvelope(await expectRefusedUnchanged(() => api.call("POST", base(1), { body: minimal("acme-chat") })), 409, "conflict");
      const elsewhere = await api.call("POST", base(3), { body: minimal("acme-chat") });
      expect(elsewhere.status, elsewhere.text).toBe(200);
    });

    it("keeps registry credentials, secrets and API keys a deployment names from being deleted", async () => {
      for (const path of ["/cloud/v3/inference/1/registry_credentials/acme-registry", "/cloud/v3/inference/1/secrets/acme-sqs", "/cloud/v3/inference/1/api_keys/acme-prod-key"]) {
        const reply = expectEnvelope(await expectRefusedUnchanged(() => api.call("DELETE", path)), 409, "conflict", undefined, path);
        expect(reply.message, path).toContain("acme-chat");
      }
      // Once the deployment is being deleted, it refers to nothing.
      expect((await api.call("DELETE", `${base(1)}/acme-chat`)).status).toBe(200);
      for (const path of ["/cloud/v3/inference/1/registry_credentials/acme-registry", "/cloud/v3/inference/1/secrets/acme-sqs"]) expect((await api.call("DELETE", path)).status, path).toBe(204);
      // The application deployment still takes the key.
      expectEnvelope(await api.call("DELETE", "/cloud/v3/inference/1/api_keys/acme-prod-key"), 409, "conflict");
    });
  });
});
