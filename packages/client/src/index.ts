/**
 * @cloudplane/client: the typed TypeScript client of the cloudplane cloud platform API, for every
 * runtime with fetch. Types come from @cloudplane/contract, the same contract the server runs.
 */
export { createClient, CloudplaneClient } from "./client.js";
export type { ClientOptions, RequestOptions, Fetch, HeadersOption, ResponseSchemas } from "./core/options.js";
export { APIPromise, type APIResponse } from "./core/api-promise.js";
export type { RouteId, RequestInput, ResponseBody } from "./core/routes.js";
export { Page, PagePromise } from "./core/pagination.js";
export {
  CloudplaneError,
  APIError,
  BadRequestError,
  AuthenticationError,
  PermissionDeniedError,
  NotFoundError,
  ConflictError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  UnprocessableEntityError,
  RateLimitError,
  InternalServerError,
  ServiceUnavailableError,
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  APIResponseValidationError,
  type APIErrorCode,
  type ClientErrorCode,
  type FieldErrors,
} from "./core/errors.js";
export { Iam, Tokens, createIamClient } from "./resources/iam.js";
export {
  Cdn,
  CdnResources,
  LogsUploader,
  LogsUploaderTargets,
  CdnClientSettingsResource,
  CdnFeaturesResource,
  OriginGroups,
  createCdnClient,
  type UpdateShieldingBody,
  type UpdateCdnClientSettingsBody,
} from "./resources/cdn.js";
export { Edge, EdgeApps, EdgeTemplates, EdgeSecrets, createEdgeClient } from "./resources/edge.js";
export { Streaming, Streams, createStreamingClient, type ListStreamsQuery } from "./resources/streaming.js";
export { Cloud, InferenceModels, GpuImages, CostReports, createCloudClient, type GpuImageList } from "./resources/cloud.js";
export { Security, SecurityProfiles, createSecurityClient } from "./resources/security.js";
export { Storage, Buckets, createStorageClient } from "./resources/storage.js";

// The API's resources and request bodies, as the contract defines them.
export type {
  ApiToken,
  BucketCors,
  CdnClientSettings,
  CdnFeatures,
  CdnResource,
  CdnResourceOptions,
  CdnResourceOptionsWrite,
  ClipRecording,
  CostReportTotals,
  CostReportTotalsBody,
  CreateClipRecordingBody,
  CreateEdgeAppSecretBody,
  CreateLogsUploaderTargetBody,
  EdgeApp,
  EdgeAppList,
  EdgeAppSecret,
  EdgeAppStatus,
  EdgeAppTemplate,
  ErrorCode,
  ErrorEnvelope,
  GpuImage,
  InferenceModel,
  InferenceModelList,
  ListApiTokensQuery,
  ListEdgeAppsQuery,
  ListInferenceModelsQuery,
  LogsUploaderTarget,
  OriginGroup,
  ReplaceCdnResourceBody,
  SecurityProfile,
  SecurityProfileTemplate,
  ShieldingSetting,
  Stream,
  UpdateCdnResourceBody,
  UpdateEdgeAppBody,
  UpdateSecurityProfileBody,
} from "@cloudplane/contract";
