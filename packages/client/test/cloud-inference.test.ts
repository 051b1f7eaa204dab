/**
 * The Cloud inference family through the client, against the real handler: every method of
 * `client.cloud.inference` on its objects, lists walked across pages, the actions' tasks, and the errors
 * the client raises for what the service refuses.
 */
import { sql } from "@cloudplane/db";
import { describe, expect, it } from "vitest";
import { BadRequestError, ConflictError, NotFoundError, PermissionDeniedError } from "../src/index.js";
import { engines, useClientApi } from "./api.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe.each(engines())("cloud inference through the client on %s", (engine) => {
  const api = useClientApi(engine);

  it("reads the catalogues: capacity, flavors (across pages) and applications", async () => {
    const { inference } = api.client.cloud;
    const capacity = await inference.getCapacityByRegion();
    expect(capacity.count).toBe(capacity.results.length);
    expect(capacity.results[0]!.capacity.length).toBeGreaterThan(0);
    const flavors: string[] = [];
    for await (const flavor of inference.flavors.list({ limit: 1 })) flavors.push(flavor.name);
    const all = await inference.flavors.list();
    expect(flavors).toEqual(all.items.map((flavor) => flavor.name));
    expect(flavors.length).toBe(all.total);
    expect(await inference.flavors.get(flavors[0]!)).toEqual(all.items[0]);
    await expect(inference.flavors.get("no-such-flavor")).rejects.toBeInstanceOf(NotFoundError);
    const templates = await inference.applications.templates.list();
    expect(await inference.applications.templates.get(templates.results[0]!.name)).toEqual(templates.results[0]);
  });

  it("makes, reads, replaces and deletes registry credentials, secrets and API keys", async () => {
    const { inference } = api.client.cloud;
    const credentials = await inference.registryCredentials.create(1, { name: "client-registry", registry_url: "ghcr.io", username: "bot", password: "client-password-1" });
    expect(credentials).toEqual({ name: "client-registry", project_id: 1, registry_url: "ghcr.io", username: "bot" });
    expect(await inference.registryCredentials.get(1, "client-registry")).toEqual(credentials);
    expect(await inference.registryCredentials.replace(1, "client-registry", { registry_url: "ghcr.io", username: "bot-2", password: "client-password-2" })).toEqual({ ...credentials, username: "bot-2" });
    expect((await inference.registryCredentials.list(1)).items.map((each) => each.name)).toContain("client-registry");

    const secret = await inference.secrets.create(1, { name: "client-sqs", type: "aws-iam", data: { aws_access_key_id: "AKIACLIENT0000000001", aws_secret_access_key: "client-secret-key-1" } });
    expect(secret.data.aws_secret_access_key).toBe("********");
    expect(await inference.secrets.get(1, "client-sqs")).toEqual(secret);
    expect((await inference.secrets.replace(1, "client-sqs", { type: "aws-iam", data: { aws_access_key_id: "AKIACLIENT0000000002", aws_secret_access_key: "client-secret-key-2" } })).data.aws_access_key_id).toBe("AKIACLIENT0000000002");
    expect((await inference.secrets.list(1)).items.map((each) => each.name)).toContain("client-sqs");

    const key = await inference.apiKeys.create(1, { name: "client-key", description: "Through the client." });
    expect(key.secret).toMatch(/^cpik_/);
    const { secret: _secret, ...shown } = key;
    expect(await inference.apiKeys.get(1, "client-key")).toEqual(shown);
    expect(await inference.apiKeys.update(1, "client-key", { description: "Changed." })).toEqual({ ...shown, description: "Changed." });
    expect((await inference.apiKeys.list(1)).items.map((each) => each.name)).toContain("client-key");
    await expect(inference.apiKeys.create(1, { name: "client-key" })).rejects.toBeInstanceOf(ConflictError);
    await expect(api.clientFor([1, "role-2-active"]).cloud.inference.apiKeys.delete(1, "client-key")).rejects.toBeInstanceOf(PermissionDeniedError);

    expect(await inference.registryCredentials.delete(1, "client-registry")).toBeUndefined();
    expect(await inference.secrets.delete(1, "client-sqs")).toBeUndefined();
    expect(await inference.apiKeys.delete(1, "client-key")).toBeUndefined();
    await expect(inference.apiKeys.get(1, "client-key")).rejects.toBeInstanceOf(NotFoundError);
  });

  it("runs a deployment's life: create with its task, stop, start, logs, change and delete", async () => {
    const { deployments } = api.client.cloud.inference;
    const created = await deployments.create(1, { name: "client-dep", image: "nginx:1.27", listening_port: 80, flavor_name: "inference-2vcpu-8gib-cpu", containers: [{ region_id: 1, scale: { min: 1, max: 1 } }] });
    expect(created.tasks).toEqual([expect.stringMatching(UUID)]);
    expect((await deployments.get(1, "client-dep")).status).toBe("DEPLOYING");
    expect(await deployments.stop(1, "client-dep")).toBeUndefined();
    expect((await deployments.get(1, "client-dep")).status).toBe("DISABLED");
    expect(await deployments.start(1, "client-dep")).toBeUndefined();
    const lines = await deployments.logs.list(1, "client-dep", { order_by: "time.asc" });
    expect(lines.items.map((line) => line.message)).toEqual(['Pulling image "nginx:1.27"', "Stopping container: the deployment was stopped", 'Pulling image "nginx:1.27"']);
    expect((await deployments.update(1, "client-dep", { description: "Through the client." })).tasks).toHaveLength(1);
    expect((await deployments.list(1)).items.find((each) => each.name === "client-dep")?.description).toBe("Through the client.");
    await expect(deployments.update(1, "client-dep", { flavor_name: "no-such-flavor" })).rejects.toBeInstanceOf(BadRequestError);
    expect((await deployments.delete(1, "client-dep")).tasks).toHaveLength(1);
    await expect(deployments.delete(1, "client-dep")).rejects.toBeInstanceOf(ConflictError);
    await api.database.db.execute(sql`update inference_deployments set state_since = state_since - interval '1 minute' where name = 'client-dep'`);
    await expect(deployments.get(1, "client-dep")).rejects.toBeInstanceOf(NotFoundError);
  });

  it("runs an application deployment's life: create with its task, change and delete", async () => {
    const { deployments } = api.client.cloud.inference.applications;
    const created = await deployments.create(1, {
      name: "client-app",
      application_name: "speech-to-text",
      components_configuration: { whisper: { exposed: true, flavor: "inference-4vcpu-16gib-1xl40s-48gb", scale: { min: 0, max: 1 } } },
      regions: [1],
    });
    expect(created.tasks).toEqual([expect.stringMatching(UUID)]);
    expect((await deployments.get(1, "client-app")).status.consolidated_status).toBe("PartiallyDeployed");
    expect((await deployments.update(1, "client-app", { regions: [2] })).tasks).toHaveLength(1);
    expect((await deployments.list(1)).items.find((each) => each.name === "client-app")?.regions).toEqual([2]);
    expect((await deployments.delete(1, "client-app")).tasks).toHaveLength(1);
    expect((await deployments.get(1, "client-app")).status.consolidated_status).toBe("Unknown");
  });
});
