/**
 * Object storage: the CORS settings of S3 buckets (`client.storage.buckets`).
 */
import type { BucketCors } from "@cloudplane/contract";
import type { APIPromise } from "../core/api-promise.js";
import type { ClientOptions, RequestOptions } from "../core/options.js";
import { APIResource } from "../core/resource.js";
import { storageRoutes } from "../core/routes.generated.js";
import { Transport } from "../core/transport.js";

export class Buckets extends APIResource {
  /** `GET /storage/provisioning/v1/storage/{id}/s3/bucket/{name}/cors`: the origins allowed to call the bucket from browsers. */
  getCors(storageId: number, bucketName: string, options?: RequestOptions): APIPromise<BucketCors> {
    return this.transport.request(storageRoutes.getBucketCors, { params: { id: storageId, name: bucketName } }, options);
  }
}

/** The Object storage area. */
export class Storage {
  readonly buckets: Buckets;

  constructor(transport: Transport) {
    this.buckets = new Buckets(transport);
  }
}

/** A client of the Object storage area alone, for bundles that need nothing else. */
export function createStorageClient(options?: ClientOptions): Storage {
  return new Storage(new Transport(options));
}
