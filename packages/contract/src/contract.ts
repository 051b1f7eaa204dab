/**
 * The whole API as one ts-rest router, nested by area, and the areas themselves.
 */
import { initContract } from "@ts-rest/core";
import { authorizationHeaders } from "./common.js";
import { cdnContract } from "./cdn/index.js";
import { cloudContract } from "./cloud/index.js";
import { edgeContract } from "./edge/index.js";
import { iamContract } from "./iam/index.js";
import { securityContract } from "./security/index.js";
import { storageContract } from "./storage/index.js";
import { streamingContract } from "./streaming/index.js";

const c = initContract();

/** The whole API, nested by area: `contract.cdn.updateResource`, `contract.edge.listApps`, … */
export const contract = c.router(
  {
    iam: iamContract,
    cdn: cdnContract,
    edge: edgeContract,
    streaming: streamingContract,
    cloud: cloudContract,
    security: securityContract,
    storage: storageContract,
  },
  { baseHeaders: authorizationHeaders, strictStatusCodes: true },
);

export type Contract = typeof contract;

/** The areas of the API, each the first path segment of its routes, with what each covers. */
export const AREAS = {
  iam: "Identity and access: the account's API tokens (created, read and revoked) and the caller's account.",
  cdn: "Content delivery: CDN resources, their options and rules, rule templates and presets, origin groups, origin shielding, SSL and trusted CA certificates, purge and prefetch, statistics, metrics, raw logs and the audit log, the logs uploader (targets, policies and configs), the account's CDN settings, features and limits, regions and the CDN's addresses.",
  edge: "Edge apps: WebAssembly apps run at the edge, their binaries, templates, secrets and KV stores, their logs and call statistics, and the account's overview (also served under /fastedge/v1).",
  streaming: "Video streaming: live streams and clips recorded from them.",
  cloud: "Cloud: the account's projects, the platform's regions, the inference model catalogue, GPU images for virtual and bare-metal clusters, secrets, the tasks that change them, and cost and usage reports.",
  security: "Security: DDoS protection profiles of IP addresses, the attacks seen on them (events) and their BGP announces.",
  storage: "Object storage: S3-compatible and SFTP storages at the current /storage/v4 paths (the older paths kept), their buckets with CORS, lifecycle and public-read settings, access keys, SSH keys, locations and usage statistics.",
} as const satisfies Record<keyof Contract, string>;
