/**
 * Edge apps area: a file per resource (apps, templates, secrets, binaries, KV stores, and the apps'
 * activity: logs, statistics, the account's overview); this one puts their routes together as the area's router.
 */
import type { Contract, PrimaryRoutes } from "@cloudplane/contract";
import type { RouteDeps } from "../types.js";
import { edgeApps } from "./apps.js";
import { edgeBinaries } from "./binaries.js";
import { edgeSecrets } from "./secrets.js";
import { edgeTemplates } from "./templates.js";
import { edgeKvStores } from "./kv-stores.js";
import { edgeActivity } from "./activity.js";

/** Every primary route of the edge area with its implementation; a route left out fails to compile. */
export function edgeRoutes(deps: RouteDeps) {
  return {
    ...edgeApps(deps),
    ...edgeTemplates(deps),
    ...edgeSecrets(deps),
    ...edgeBinaries(deps),
    ...edgeKvStores(deps),
    ...edgeActivity(deps),
  } satisfies Record<keyof PrimaryRoutes<Contract["edge"]>, unknown>;
}
