/**
 * @cloudplane/client: the typed TypeScript client of the cloudplane cloud platform API, for every
 * runtime with fetch. Its types are plain TypeScript generated from the contract the server runs, so it
 * needs neither zod nor the contract.
 */
export { createClient, CloudplaneClient } from "./client.js";
export type { ClientOptions, RequestOptions, Fetch, HeadersOption, ResponseSchemas, Logger, LogFields, LogLevel } from "./core/options.js";
export { APIPromise, type Answered, type APIResponse, type WithRequestId } from "./core/api-promise.js";
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
export { Iam, createIamClient } from "./resources/iam.js";
export { Cdn, CdnResources, createCdnClient } from "./resources/cdn.js";
export { Edge, EdgeApps, EdgeTemplates, EdgeSecrets, createEdgeClient } from "./resources/edge.js";
export { Streaming, createStreamingClient } from "./resources/streaming.js";
export { Cloud, createCloudClient } from "./resources/cloud.js";
export { Security, SecurityProfiles, SecurityProfileTemplates, createSecurityClient } from "./resources/security.js";
export { Storage, createStorageClient } from "./resources/storage.js";
export type { EdgeAppStatus, LogsUploaderPolicyBody, UpdateShieldingBody, UpdateCdnClientSettingsBody, ListStreamsQuery, ListStoragesQuery, ListBucketsQuery } from "./types.js";

// The classes of 0.x under their former names; each generated class is named `<Area><Resource>`.
export { IamTokens as Tokens } from "./resources/iam.js";
export {
  CdnLogsUploader as LogsUploader,
  CdnLogsUploaderConfigs as LogsUploaderConfigs,
  CdnLogsUploaderPolicies as LogsUploaderPolicies,
  CdnLogsUploaderTargets as LogsUploaderTargets,
  CdnClientSettings as CdnClientSettingsResource,
  CdnFeatures as CdnFeaturesResource,
  CdnOriginGroups as OriginGroups,
} from "./resources/cdn.js";
export { StreamingStreams as Streams } from "./resources/streaming.js";
export { CloudInferenceModels as InferenceModels, CloudGpuImages as GpuImages, CloudTasks as Tasks, CloudCostReports as CostReports } from "./resources/cloud.js";
export { StorageStorages as Storages, StorageS3Buckets as Buckets } from "./resources/storage.js";

// The API's resources, request bodies and queries, by the contract's names, and every route's types by id.
export type { Routes } from "./core/api.generated.js";
export type { CostReportTotalsAnswer } from "./core/answers.js";
export type {
  ApiToken,
  Bucket,
  BucketCors,
  BucketList,
  CdnClientSettings,
  CdnFeatures,
  CdnResource,
  CdnResourceOptions,
  CdnResourceOptionsWrite,
  ClipRecording,
  CloudTask,
  CostReportTotals,
  CostReportTotalsBody,
  CreateClipRecordingBody,
  CreateSecurityProfileBody,
  CreateStorageBody,
  CreateStreamBody,
  CreateEdgeAppSecretBody,
  CreateLogsUploaderConfigBody,
  CreateLogsUploaderTargetBody,
  EdgeApp,
  EdgeAppList,
  EdgeAppSecret,
  EdgeAppTemplate,
  ErrorCode,
  ErrorEnvelope,
  GpuImage,
  GpuImageList,
  InferenceModel,
  InferenceModelList,
  ListApiTokensQuery,
  ListEdgeAppsQuery,
  ListGpuImagesQuery,
  ListInferenceModelsQuery,
  ListLogsUploaderConfigsQuery,
  ListLogsUploaderPoliciesQuery,
  ListLogsUploaderTargetsQuery,
  ListProfileTemplatesQuery,
  ListSecurityProfilesQuery,
  LogsUploaderConfig,
  LogsUploaderConfigList,
  LogsUploaderPolicy,
  LogsUploaderPolicyList,
  LogsUploaderTarget,
  LogsUploaderTargetList,
  LogsUploaderValidation,
  OriginGroup,
  ReplaceCdnResourceBody,
  ReplaceLogsUploaderTargetBody,
  SecurityProfile,
  SecurityProfileTemplate,
  SetBucketCorsBody,
  ShieldingSetting,
  Storage as StorageDetails,
  StorageList,
  Stream,
  TaskIdList,
  UpdateCdnResourceBody,
  UpdateEdgeAppBody,
  UpdateLogsUploaderConfigBody,
  UpdateLogsUploaderTargetBody,
  UpdateSecurityProfileBody,
  UpdateStreamBody,
  UploadGpuImageBody,
} from "./core/api.generated.js";
