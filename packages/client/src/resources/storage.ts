/**
 * Object storage: the account's storages (`client.storage.storages`) and their S3 buckets with each
 * bucket's CORS origins (`client.storage.buckets`).
 */
import type {
  Bucket,
  BucketCors,
  BucketList,
  Contract,
  CreateStorageBody,
  SetBucketCorsBody,
  Storage as StorageDetails,
  StorageList,
} from "@cloudplane/contract";
import type { APIPromise } from "../core/api-promise.js";
import type { ClientOptions, RequestOptions } from "../core/options.js";
import { offsetPaging, type PagePromise } from "../core/pagination.js";
import { APIResource } from "../core/resource.js";
import type { Query } from "../core/routes.js";
import { storageRoutes } from "../core/routes.generated.js";
import { Transport } from "../core/transport.js";

export type ListStoragesQuery = Query<Contract["storage"]["listStorages"]>;
export type ListBucketsQuery = Query<Contract["storage"]["listBuckets"]>;

const storagesPaging = /* @__PURE__ */ offsetPaging<StorageDetails, StorageList, ListStoragesQuery>((list) => list.results);
const bucketsPaging = /* @__PURE__ */ offsetPaging<Bucket, BucketList, ListBucketsQuery>((list) => list.results);

export class Storages extends APIResource {
  /**
   * `GET /storage/provisioning/v3/storage`: the account's storages that match every filter given, a page of
   * `limit` (default 100) from `offset`; `for await` over the result goes through every storage of every page.
   */
  list(query?: ListStoragesQuery, options?: RequestOptions): PagePromise<StorageDetails, StorageList> {
    return this.transport.list(storageRoutes.listStorages, { query }, options, storagesPaging);
  }

  /** `GET /storage/provisioning/v1/storage/{id}`: one storage, without its credentials. */
  get(storageId: number, options?: RequestOptions): APIPromise<StorageDetails> {
    return this.transport.request(storageRoutes.getStorage, { params: { id: storageId } }, options);
  }

  /** `POST /storage/provisioning/v2/storage`: a new, empty storage. A name the account has is ConflictError. */
  create(body: CreateStorageBody, options?: RequestOptions): APIPromise<StorageDetails> {
    return this.transport.request(storageRoutes.createStorage, { body }, options);
  }

  /** `DELETE /storage/provisioning/v1/storage/{id}`: deletes the storage with its buckets; resolves with no value. */
  delete(storageId: number, options?: RequestOptions): APIPromise<void> {
    return this.transport.request(storageRoutes.deleteStorage, { params: { id: storageId } }, options);
  }
}

export class Buckets extends APIResource {
  /** `GET /storage/provisioning/v2/storage/{id}/s3/buckets`: a page of the storage's buckets by name; `for await` goes through all. */
  list(storageId: number, query?: ListBucketsQuery, options?: RequestOptions): PagePromise<Bucket, BucketList> {
    return this.transport.list(storageRoutes.listBuckets, { params: { id: storageId }, query }, options, bucketsPaging);
  }

  /**
   * `POST /storage/provisioning/v1/storage/{id}/s3/bucket/{name}`: an empty bucket. A name the storage has is
   * ConflictError; an SFTP storage is UnprocessableEntityError.
   */
  create(storageId: number, bucketName: string, options?: RequestOptions): APIPromise<Bucket> {
    return this.transport.request(storageRoutes.createBucket, { params: { id: storageId, name: bucketName }, body: undefined }, options);
  }

  /** `DELETE /storage/provisioning/v1/storage/{id}/s3/bucket/{name}`: deletes the bucket with its contents; resolves with no value. */
  delete(storageId: number, bucketName: string, options?: RequestOptions): APIPromise<void> {
    return this.transport.request(storageRoutes.deleteBucket, { params: { id: storageId, name: bucketName } }, options);
  }

  /** `GET /storage/provisioning/v1/storage/{id}/s3/bucket/{name}/cors`: the origins allowed to call the bucket from browsers. */
  getCors(storageId: number, bucketName: string, options?: RequestOptions): APIPromise<BucketCors> {
    return this.transport.request(storageRoutes.getBucketCors, { params: { id: storageId, name: bucketName } }, options);
  }

  /** `POST /storage/provisioning/v1/storage/{id}/s3/bucket/{name}/cors`: replaces the bucket's CORS origins; resolves to them. */
  setCors(storageId: number, bucketName: string, body: SetBucketCorsBody, options?: RequestOptions): APIPromise<BucketCors> {
    return this.transport.request(storageRoutes.setBucketCors, { params: { id: storageId, name: bucketName }, body }, options);
  }
}

/** The Object storage area. */
export class Storage {
  readonly storages: Storages;
  readonly buckets: Buckets;

  constructor(transport: Transport) {
    this.storages = new Storages(transport);
    this.buckets = new Buckets(transport);
  }
}

/** A client of the Object storage area alone, for bundles that need nothing else. */
export function createStorageClient(options?: ClientOptions): Storage {
  return new Storage(new Transport(options));
}
