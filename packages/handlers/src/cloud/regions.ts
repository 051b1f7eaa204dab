/**
 * Cloud regions: the platform's regions, the same for every account, with what each offers.
 */
import { CLOUD_REGION_CAPABILITIES, cloudRegionsRoutes, type CloudRegion } from "@cloudplane/contract";
import { and, asc, count, desc, eq, schema, sql } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { notFound } from "../errors.js";
import { isoTime } from "../format.js";
import type { RequestExtension, RouteDeps } from "../types.js";
import { served } from "../served.js";

// The table under a name of its own: `cloudRegions` names this module's routes.
const { cloudRegions: cloudRegionsTable } = schema;

function toRegion(row: typeof cloudRegionsTable.$inferSelect, showVolumeTypes: boolean): CloudRegion {
  const capabilities = Object.fromEntries(CLOUD_REGION_CAPABILITIES.map((capability) => [`has_${capability}`, row.capabilities.includes(capability)])) as Pick<
    CloudRegion,
    `has_${(typeof CLOUD_REGION_CAPABILITIES)[number]}`
  >;
  return {
    id: row.id,
    display_name: row.displayName,
    slug: row.name,
    keystone_name: row.name,
    keystone_id: row.keystoneId,
    country: row.country,
    zone: row.zone as CloudRegion["zone"],
    access_level: row.accessLevel as CloudRegion["access_level"],
    state: row.state as CloudRegion["state"],
    endpoint_type: "public",
    coordinates: row.latitude === null || row.longitude === null ? null : { latitude: String(row.latitude), longitude: String(row.longitude) },
    available_volume_types: showVolumeTypes ? row.volumeTypes : null,
    file_share_types: row.fileShareTypes as CloudRegion["file_share_types"],
    ...capabilities,
    created_at: isoTime(row.created),
    created_on: isoTime(row.created),
    external_network_id: null,
    metrics_database_id: null,
    ddos_endpoint_id: null,
    vlan_physical_network: "",
    task_id: null,
  };
}

export function cloudRegions({ db }: RouteDeps) {
  return tsr.routerWithMiddleware(served("cloud", cloudRegionsRoutes))<RequestExtension>({
    listRegions: async ({ query }) => {
      const where = and(
        query.display_name === undefined ? undefined : sql`lower(${cloudRegionsTable.displayName}) = lower(${query.display_name})`,
        query.product === undefined ? undefined : sql`${cloudRegionsTable.capabilities} @> jsonb_build_array(${query.product}::text)`,
      );
      const [field, direction] = query.order_by.split(".") as ["created_at" | "display_name", "asc" | "desc"];
      const order = direction === "asc" ? asc : desc;
      const column = field === "display_name" ? sql`${cloudRegionsTable.displayName} collate "C"` : sql`${cloudRegionsTable.created}`;
      const [rows, [total]] = await Promise.all([
        db.select().from(cloudRegionsTable).where(where).orderBy(order(column), asc(cloudRegionsTable.id)).limit(query.limit).offset(query.offset),
        db.select({ total: count() }).from(cloudRegionsTable).where(where),
      ]);
      return { status: 200, body: { count: total?.total ?? 0, results: rows.map((row) => toRegion(row, query.show_volume_types === true)) } };
    },

    getRegion: async ({ params, query }) => {
      const [row] = await db.select().from(cloudRegionsTable).where(eq(cloudRegionsTable.id, params.region_id));
      if (!row) throw notFound(`Region ${params.region_id}`);
      return { status: 200, body: toRegion(row, query.show_volume_types === true) };
    },
  });
}
