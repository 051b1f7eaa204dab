/**
 * Integration tests of the Cloud inference flavors and capacity: the platform's flavors (listed, paged,
 * one by name) and what each region has left of each, which running deployments of every account hold.
 */
import { demoFixture } from "@cloudplane/db";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi } from "../harness.js";

const { inferenceFlavors: flavors, inferenceRegionFlavors: regionFlavors, inferenceDeployments: deployments, inferenceApplicationDeployments: applications } = demoFixture;

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A flavor as the API shows it. */
const shown = (row: (typeof flavors)[number]) => ({
  name: row.name,
  description: row.description,
  cpu: row.cpu,
  memory: row.memory,
  gpu: row.gpu,
  gpu_model: row.gpuModel,
  gpu_memory: row.gpuMemory,
  gpu_compute_capability: row.gpuComputeCapability,
  is_gpu_shared: false,
});

describe.each(engines())("cloud inference flavors on %s", (engine) => {
  const api = useApi(engine);

  it("lists the platform's flavors by name, the same for every account, paged", async () => {
    const expected = [...flavors].sort((a, b) => byCodePoint(a.name, b.name)).map(shown);
    for (const as of [[1, "role-2-active"], [2, "role-5-active"]] as Array<[1 | 2, "role-2-active" | "role-5-active"]>) {
      const reply = await api.call("GET", "/cloud/v3/inference/flavors", { as });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toEqual({ count: expected.length, results: expected });
    }
    const page = await api.call("GET", "/cloud/v3/inference/flavors?limit=2&offset=1");
    expect(page.body).toEqual({ count: expected.length, results: expected.slice(1, 3) });
    expectEnvelope(await api.call("GET", "/cloud/v3/inference/flavors?limit=1001"), 400, "validation_error", ["query.limit"]);
  });

  it("answers one flavor by name, 404 for an unknown one and 400 for a name that cannot be one", async () => {
    const reply = await api.call("GET", `/cloud/v3/inference/flavors/${flavors[1]!.name}`);
    expect(reply.body).toEqual(shown(flavors[1]!));
    expectEnvelope(await api.call("GET", "/cloud/v3/inference/flavors/no-such-flavor"), 404, "not_found");
    expectEnvelope(await api.call("GET", "/cloud/v3/inference/flavors/NO_SUCH"), 400, "validation_error", ["path.flavor_name"]);
    expectEnvelope(await api.call("GET", "/cloud/v3/inference/flavors/x", { as: [1, "role-3009-active"] }), 403, "permission_denied");
  });

  it("answers each region's capacity: its containers of each flavor less what running deployments of every account hold", async () => {
    const held = new Map<string, number>();
    const hold = (region: number, flavor: string, count: number) => held.set(`${region} ${flavor}`, (held.get(`${region} ${flavor}`) ?? 0) + count);
    for (const deployment of deployments.filter((row) => row.state === "running"))
      for (const container of deployment.containers) hold(container.region_id, deployment.flavorName, container.scale.max);
    for (const application of applications.filter((row) => row.state === "running"))
      for (const component of Object.values(application.componentsConfiguration)) for (const region of application.regions) hold(region, component.flavor, component.scale.max);
    const regions = [...new Set(regionFlavors.map((row) => row.regionId))].sort((a, b) => a - b);
    const expected = regions.map((region) => ({
      region_id: region,
      capacity: regionFlavors
        .filter((row) => row.regionId === region)
        .sort((a, b) => byCodePoint(a.flavorName, b.flavorName))
        .map((row) => ({ flavor_name: row.flavorName, capacity: Math.max(0, row.containers - (held.get(`${region} ${row.flavorName}`) ?? 0)) })),
    }));
    // The demo data's deployments hold some of it: the answer is not the regions' totals.
    expect(held.size).toBeGreaterThan(0);
    const reply = await api.call("GET", "/cloud/v3/inference/capacity", { as: [2, "role-2-active"] });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toEqual({ count: regions.length, results: expected });

    // Another account's new deployment holds its containers for everyone.
    const created = await api.call("POST", "/cloud/v3/inference/2/deployments", {
      as: [2, "role-1-active"],
      body: { name: "globex-capacity", image: "nginx:1.27", listening_port: 80, flavor_name: "inference-2vcpu-8gib-cpu", containers: [{ region_id: 3, scale: { min: 0, max: 4 } }] },
    });
    expect(created.status, created.text).toBe(200);
    const after = await api.call("GET", "/cloud/v3/inference/capacity");
    const cpuIn3 = (body: typeof reply.body) =>
      body.results.find((region: { region_id: number }) => region.region_id === 3).capacity.find((entry: { flavor_name: string }) => entry.flavor_name === "inference-2vcpu-8gib-cpu").capacity;
    expect(cpuIn3(after.body)).toBe(cpuIn3(reply.body) - 4);
  });
});
