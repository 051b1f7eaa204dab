/**
 * Names of request bodies and queries that the contract does not export under a name of its own, kept
 * for the code that imports them from the client.
 */
import type { Contract } from "@cloudplane/contract";
import type { Body, Query } from "./core/routes.js";

/** The body of `client.cdn.resources.updateShielding`: `{ shielding_pop }`, null to switch shielding off. */
export type UpdateShieldingBody = Body<Contract["cdn"]["updateResourceShielding"]>;
/** The body of `client.cdn.clientSettings.replace`. */
export type UpdateCdnClientSettingsBody = Body<Contract["cdn"]["updateClientSettings"]>;
/** The query of `client.streaming.streams.list`. */
export type ListStreamsQuery = Query<Contract["streaming"]["listStreams"]>;
/** The query of `client.storage.storages.list`. */
export type ListStoragesQuery = Query<Contract["storage"]["listStorages"]>;
/** The query of `client.storage.s3.buckets.list`. */
export type ListBucketsQuery = Query<Contract["storage"]["listBuckets"]>;
