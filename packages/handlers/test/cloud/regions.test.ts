/**
 * Integration tests of the Cloud regions: the platform's regions, the same for every account, filtered,
 * ordered and paged, and one by id, each field from the region's row.
 */
import { CLOUD_REGION_CAPABILITIES } from "@cloudplane/contract";
import { demoFixture, type DemoRow } from "@cloudplane/db";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi } from "../harness.js";

const REGIONS = "/cloud/v1/regions";
const { cloudRegions: regions } = demoFixture;

/** A fixture region as the API shows it. */
function shown(region: DemoRow<"cloudRegions">, showVolumeTypes = false) {
  return {
    id: region.id,
    display_name: region.displayName,
    slug: region.name,
    keystone_name: region.name,
    keystone_id: region.keystoneId,
    country: region.country,
    zone: region.zone,
    access_level: region.accessLevel,
    state: region.state,
    endpoint_type: "public",
    coordinates: region.latitude === null ? null : { latitude: String(region.latitude), longitude: String(region.longitude) },
    available_volume_types: showVolumeTypes ? region.volumeTypes : null,
    file_share_types: region.fileShareTypes,
    ...Object.fromEntries(CLOUD_REGION_CAPABILITIES.map((capability) => [`has_${capability}`, region.capabilities.includes(capability)])),
    created_at: region.created,
    created_on: region.created,
    external_network_id: null,
    metrics_database_id: null,
    ddos_endpoint_id: null,
    vlan_physical_network: "",
    task_id: null,
  };
}

const byCreated = [...regions].sort((a, b) => (a.created < b.created ? -1 : a.created > b.created ? 1 : a.id - b.id));

describe.each(engines())("cloud regions on %s", (engine) => {
  const api = useApi(engine);

  it("lists every region to every account, oldest first, with volume types when asked", async () => {
    for (const account of [1, 2] as const) {
      const reply = await api.call("GET", REGIONS, { as: [account, "role-2-active"] });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toEqual({ count: regions.length, results: byCreated.map((region) => shown(region)) });
    }
    const withTypes = await api.call("GET", `${REGIONS}?show_volume_types=true`);
    expect(withTypes.body.results).toEqual(byCreated.map((region) => shown(region, true)));
    expect(byCreated.some((region) => !region.capabilities.includes("sfs"))).toBe(true);
  });

  it("filters by display name (any case) and product, orders by display name, and pages with a count of all", async () => {
    const [first] = byCreated;
    expect((await api.call("GET", `${REGIONS}?display_name=${encodeURIComponent(first!.displayName.toUpperCase())}`)).body).toEqual({ count: 1, results: [shown(first!)] });
    expect((await api.call("GET", `${REGIONS}?display_name=Atlantis`)).body).toEqual({ count: 0, results: [] });
    for (const product of ["inference", "containers"] as const) {
      const offering = byCreated.filter((region) => region.capabilities.includes(product));
      expect(offering.length).toBeGreaterThan(0);
      expect(offering.length).toBeLessThan(regions.length);
      expect((await api.call("GET", `${REGIONS}?product=${product}`)).body).toEqual({ count: offering.length, results: offering.map((region) => shown(region)) });
    }
    const byName = [...regions].sort((a, b) => (a.displayName < b.displayName ? -1 : 1));
    expect((await api.call("GET", `${REGIONS}?order_by=display_name.desc`)).body.results.map((region: { id: number }) => region.id)).toEqual(byName.reverse().map((region) => region.id));
    expect((await api.call("GET", `${REGIONS}?order_by=created_at.desc&limit=1&offset=1`)).body).toEqual({ count: regions.length, results: [shown(byCreated.at(-2)!)] });
  });

  it("answers one region by id, and 404 for an id of none", async () => {
    for (const region of regions) {
      const reply = await api.call("GET", `${REGIONS}/${region.id}?show_volume_types=true`, { as: [2, "role-2-active"] });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toEqual(shown(region, true));
    }
    expect((await api.call("GET", `${REGIONS}/${regions[0]!.id}`)).body).toEqual(shown(regions[0]!));
    expectEnvelope(await api.call("GET", `${REGIONS}/999999`), 404, "not_found");
  });

  it.each([
    ["?limit=0", "query.limit"],
    ["?limit=1001", "query.limit"],
    ["?order_by=name.asc", "query.order_by"],
    ["?product=gpu", "query.product"],
    ["?show_volume_types=yes", "query.show_volume_types"],
    ["/0", "path.region_id"],
  ])("answers 400 for %s", async (suffix, field) => {
    expectEnvelope(await api.call("GET", `${REGIONS}${suffix}`), 400, "validation_error", [field]);
  });
});
