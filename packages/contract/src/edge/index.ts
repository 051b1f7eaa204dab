/**
 * Edge apps area: apps (their lifecycle and status moves), templates, secrets and binaries, at the
 * specification's /edge/v1 paths and, as aliases, at the platform's current /fastedge/v1 paths, and so are
 * KV stores, the apps' logs and statistics and the account's overview. Each
 * resource's schemas and routes are in its own module; this one puts them together as the area's router.
 */
import { initContract } from "@ts-rest/core";
import { alias } from "../alias.js";
import { edgeAppsRoutes } from "./apps.js";
import { edgeBinariesRoutes } from "./binaries.js";
import { edgeSecretsRoutes } from "./secrets.js";
import { edgeTemplatesRoutes } from "./templates.js";
import { edgeKvStoresRoutes } from "./kv-stores.js";
import { edgeActivityRoutes } from "./activity.js";

export * from "./apps.js";
export * from "./templates.js";
export * from "./secrets.js";
export * from "./binaries.js";
export * from "./kv-stores.js";
export * from "./activity.js";
export { EDGE_API_TYPES } from "./shared.js";

const c = initContract();

/** The edge area's routes at the specification's paths, then the platform's /fastedge/v1 paths as their aliases. */
export const edgeContract = c.router({
  ...edgeAppsRoutes,
  ...edgeTemplatesRoutes,
  ...edgeSecretsRoutes,
  ...edgeBinariesRoutes,
  ...edgeKvStoresRoutes,
  ...edgeActivityRoutes,
  fastedgeListApps: alias(edgeAppsRoutes, "listApps", { path: "/fastedge/v1/apps" }),
  fastedgeCreateApp: alias(edgeAppsRoutes, "createApp", { path: "/fastedge/v1/apps" }),
  fastedgeGetApp: alias(edgeAppsRoutes, "getApp", { path: "/fastedge/v1/apps/:id" }),
  fastedgeUpdateApp: alias(edgeAppsRoutes, "updateApp", { path: "/fastedge/v1/apps/:id" }),
  fastedgePatchApp: alias(edgeAppsRoutes, "patchApp", { path: "/fastedge/v1/apps/:id" }),
  fastedgeDeleteApp: alias(edgeAppsRoutes, "deleteApp", { path: "/fastedge/v1/apps/:id" }),
  fastedgeListTemplates: alias(edgeTemplatesRoutes, "listTemplates", { path: "/fastedge/v1/template" }),
  fastedgeCreateTemplate: alias(edgeTemplatesRoutes, "createTemplate", { path: "/fastedge/v1/template" }),
  fastedgeGetTemplate: alias(edgeTemplatesRoutes, "getTemplate", { path: "/fastedge/v1/template/:id" }),
  fastedgeReplaceTemplate: alias(edgeTemplatesRoutes, "replaceTemplate", { path: "/fastedge/v1/template/:id" }),
  fastedgeDeleteTemplate: alias(edgeTemplatesRoutes, "deleteTemplate", { path: "/fastedge/v1/template/:id" }),
  fastedgeListSecrets: alias(edgeSecretsRoutes, "listSecrets", { path: "/fastedge/v1/secrets" }),
  fastedgeCreateSecret: alias(edgeSecretsRoutes, "createSecret", { path: "/fastedge/v1/secrets" }),
  fastedgeGetSecret: alias(edgeSecretsRoutes, "getSecret", { path: "/fastedge/v1/secrets/:id" }),
  fastedgeUpdateSecret: alias(edgeSecretsRoutes, "updateSecret", { path: "/fastedge/v1/secrets/:id" }),
  fastedgeReplaceSecret: alias(edgeSecretsRoutes, "replaceSecret", { path: "/fastedge/v1/secrets/:id" }),
  fastedgeDeleteSecret: alias(edgeSecretsRoutes, "deleteSecret", { path: "/fastedge/v1/secrets/:id" }),
  fastedgeListBinaries: alias(edgeBinariesRoutes, "listBinaries", { path: "/fastedge/v1/binaries" }),
  fastedgeGetBinary: alias(edgeBinariesRoutes, "getBinary", { path: "/fastedge/v1/binaries/:id" }),
  fastedgeUploadBinary: alias(edgeBinariesRoutes, "uploadBinary", { path: "/fastedge/v1/binaries/raw" }),
  fastedgeDeleteBinary: alias(edgeBinariesRoutes, "deleteBinary", { path: "/fastedge/v1/binaries/:id" }),
  fastedgeListKvStores: alias(edgeKvStoresRoutes, "listKvStores", { path: "/fastedge/v1/kv" }),
  fastedgeCreateKvStore: alias(edgeKvStoresRoutes, "createKvStore", { path: "/fastedge/v1/kv" }),
  fastedgeGetKvStore: alias(edgeKvStoresRoutes, "getKvStore", { path: "/fastedge/v1/kv/:id" }),
  fastedgeReplaceKvStore: alias(edgeKvStoresRoutes, "replaceKvStore", { path: "/fastedge/v1/kv/:id" }),
  fastedgeDeleteKvStore: alias(edgeKvStoresRoutes, "deleteKvStore", { path: "/fastedge/v1/kv/:id" }),
  fastedgeListAppLogs: alias(edgeActivityRoutes, "listAppLogs", { path: "/fastedge/v1/apps/:app_id/logs" }),
  fastedgeGetCallSeries: alias(edgeActivityRoutes, "getCallSeries", { path: "/fastedge/v1/stats/calls" }),
  fastedgeGetDurationSeries: alias(edgeActivityRoutes, "getDurationSeries", { path: "/fastedge/v1/stats/app_duration" }),
  fastedgeGetEdgeAccount: alias(edgeActivityRoutes, "getEdgeAccount", { path: "/fastedge/v1/me" }),
});
