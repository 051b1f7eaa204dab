/**
 * What the docs show for each operation beyond its route: the @cloudplane/client method that calls it
 * and the example request and response, taken from the contract's `examples`. The tests parse every
 * example with the route's own schemas, so none can drift from the contract.
 */
import { examples, type Contract } from "@cloudplane/contract";

export interface OperationDocs {
  /**
   * The client method, below `client.`: its arguments are the path parameters in path order, then
   * the query or the body.
   */
  client: string;
  /** The name of the variable the snippet assigns the result to. */
  result: string;
  /** Example path parameters, by name. */
  pathParams?: Record<string, string | number>;
  /** Example query parameters; only the ones worth showing. */
  query?: Record<string, string | number | boolean>;
  /** Example body, for routes that take one. */
  body?: unknown;
  /** Example of the success response's body. */
  response: unknown;
  /** Response headers of the success response besides `x-request-id`, with what they carry. */
  responseHeaders?: Record<string, { description: string; example: string | number; type: "integer" | "string" }>;
}

/** Every operation of the contract, by area and route name; typed so that none is left out. */
export type OperationTable = { [Area in keyof Contract]: { [Route in keyof Contract[Area]]: OperationDocs } };

export const OPERATIONS: OperationTable = {
  iam: {
    listTokens: {
      client: "iam.tokens.list",
      result: "tokens",
      pathParams: { clientId: examples.apiTokenExample.client_user.client_id },
      query: { role: examples.apiTokenExample.client_user.role.id, deleted: true },
      response: [examples.apiTokenExample],
    },
  },
  cdn: {
    updateResource: {
      client: "cdn.resources.update",
      result: "resource",
      pathParams: { resource_id: examples.cdnResourceExample.id },
      body: examples.updateCdnResourceExample,
      response: examples.cdnResourceExample,
    },
    replaceResource: {
      client: "cdn.resources.replace",
      result: "resource",
      pathParams: { resource_id: examples.cdnResourceExample.id },
      body: examples.replaceCdnResourceExample,
      response: examples.cdnResourceExample,
    },
    updateResourceShielding: {
      client: "cdn.resources.updateShielding",
      result: "shielding",
      pathParams: { resource_id: examples.cdnResourceExample.id },
      body: examples.shieldingSettingExample,
      response: examples.shieldingSettingExample,
    },
    createLogsUploaderTarget: {
      client: "cdn.logsUploader.targets.create",
      result: "target",
      body: examples.createLogsUploaderTargetExample,
      response: examples.logsUploaderTargetExample,
    },
    getClientFeatures: {
      client: "cdn.features.get",
      result: "features",
      response: examples.cdnFeaturesExample,
    },
    updateClientSettings: {
      client: "cdn.clientSettings.update",
      result: "settings",
      body: { utilization_level: examples.cdnClientSettingsExample.utilization_level },
      response: examples.cdnClientSettingsExample,
    },
    getOriginGroup: {
      client: "cdn.originGroups.get",
      result: "originGroup",
      pathParams: { origin_group_id: examples.originGroupExample.id },
      response: examples.originGroupExample,
    },
  },
  edge: {
    listApps: {
      client: "edge.apps.list",
      result: "page",
      query: { name: "image", status: examples.edgeAppExample.status, limit: 25, offset: 0, ordering: "name" },
      response: { apps: [examples.edgeAppExample], count: 1 },
    },
    updateApp: {
      client: "edge.apps.update",
      result: "app",
      pathParams: { id: examples.edgeAppExample.id },
      body: examples.updateEdgeAppExample,
      response: { ...examples.edgeAppExample, status: examples.updateEdgeAppExample.status! },
    },
    getTemplate: {
      client: "edge.templates.get",
      result: "template",
      pathParams: { id: examples.edgeAppTemplateExample.id },
      response: examples.edgeAppTemplateExample,
    },
    createSecret: {
      client: "edge.secrets.create",
      result: "secret",
      body: examples.createEdgeAppSecretExample,
      response: examples.edgeAppSecretExample,
    },
  },
  streaming: {
    listStreams: {
      client: "streaming.streams.list",
      result: "streams",
      query: { page: 1 },
      response: [examples.streamExample],
      responseHeaders: {
        "X-Total-Count": { description: "The total number of the account's streams, on every page.", example: 1, type: "integer" },
      },
    },
    getStream: {
      client: "streaming.streams.get",
      result: "stream",
      pathParams: { stream_id: examples.streamExample.id },
      response: examples.streamExample,
    },
    createClipRecording: {
      client: "streaming.streams.createClip",
      result: "clip",
      pathParams: { stream_id: examples.streamExample.id },
      body: examples.createClipRecordingExample,
      response: examples.clipRecordingExample,
    },
  },
  cloud: {
    listInferenceModels: {
      client: "cloud.inferenceModels.list",
      result: "models",
      query: { limit: 100, offset: 0, order_by: "name.asc" },
      response: { count: 1, results: [examples.inferenceModelExample] },
    },
    listGpuImages: {
      client: "cloud.gpuImages.list",
      result: "images",
      // The examples hold no project; region 1 is the region of the cost report example.
      pathParams: { project_id: 1, region_id: examples.costReportTotalsExample.results[0]!.region_id },
      response: { count: 1, results: [examples.gpuImageExample] },
    },
    getReservationCostReportTotals: {
      client: "cloud.costReports.totals",
      result: "report",
      body: examples.costReportTotalsRequestExample,
      response: examples.costReportTotalsExample,
    },
  },
  security: {
    updateProfile: {
      client: "security.profiles.update",
      result: "profile",
      pathParams: { id: examples.securityProfileExample.id },
      body: examples.updateSecurityProfileExample,
      response: examples.securityProfileExample,
    },
  },
  storage: {
    getBucketCors: {
      client: "storage.buckets.getCors",
      result: "cors",
      // The examples hold no storage or bucket; these are valid ones.
      pathParams: { id: 1, name: "assets" },
      response: examples.bucketCorsExample,
    },
  },
};
