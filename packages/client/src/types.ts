/**
 * Names of request bodies, queries and fields that the contract has no schema of its own for, kept for
 * the code that imports them from the client.
 */
import type { CreateLogsUploaderPolicyBody, EdgeApp } from "./core/api.generated.js";
import type { Body, Query } from "./core/routes.js";

/** An edge app's status: 0 draft, 1 enabled, 2 disabled, 3 hourly and 4 daily call limit exceeded, 5 suspended. */
export type EdgeAppStatus = EdgeApp["status"];
/** The body that creates or replaces a logs uploader policy. */
export type LogsUploaderPolicyBody = CreateLogsUploaderPolicyBody;

/** The body of `client.cdn.resources.updateShielding`: `{ shielding_pop }`, null to switch shielding off. */
export type UpdateShieldingBody = Body<"cdn.updateResourceShielding">;
/** The body of `client.cdn.clientSettings.replace`. */
export type UpdateCdnClientSettingsBody = Body<"cdn.updateClientSettings">;
/** The query of `client.streaming.streams.list`. */
export type ListStreamsQuery = Query<"streaming.listStreams">;
/** The query of `client.storage.storages.list`. */
export type ListStoragesQuery = Query<"storage.listStorages">;
/** The query of `client.storage.s3.buckets.list`. */
export type ListBucketsQuery = Query<"storage.listBuckets">;
