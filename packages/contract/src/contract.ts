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
import { streamingContract } from "./streaming.js";

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
  cdn: "Content delivery: CDN resources and their options, origin groups, origin shielding, the logs uploader (targets, policies and configs), the account's CDN settings and features.",
  edge: "Edge apps: WebAssembly apps run at the edge, their binaries, templates and secrets (also served under /fastedge/v1).",
  streaming: "Video streaming: live streams and clips recorded from them.",
  cloud: "Cloud: the account's projects, the inference model catalogue, GPU images, and reservation cost reports.",
  security: "Security: DDoS protection profiles of IP addresses.",
  storage: "Object storage: storages, their S3 buckets and the buckets' CORS, lifecycle and public-read settings.",
} as const satisfies Record<keyof Contract, string>;
