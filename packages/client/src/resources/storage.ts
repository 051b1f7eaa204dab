/**
 * Object storage: the account's storages (`client.storage.storages`) and their S3 buckets with each
 * bucket's CORS origins, lifecycle and public-read policy (`client.storage.buckets`).
 */
import type {
  Bucket,
  BucketCors,
  BucketList,
  BucketPolicy,
  Contract,
  CreateStorageBody,
  SetBucketCorsBody,
  SetBucketLifecycleBody,
  Storage as StorageDetails,
  StorageList,
  UpdateStorageBody,
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

  /**
   * `PATCH /storage/provisioning/v2/storage/{id}`: changes the SFTP storage's `expires` and `server_alias` given
   * (empty or null removes them) and resolves to the storage. A value for an S3 storage is UnprocessableEntityError;
   * an alias another storage has is ConflictError.
   */
  update(storageId: number, body: UpdateStorageBody, options?: RequestOptions): APIPromise<StorageDetails> {
    return this.transport.request(storageRoutes.updateStorage, { params: { id: storageId }, body }, options);
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

  /** `POST /storage/provisioning/v1/storage/{id}/s3/bucket/{name}/lifecycle`: makes the bucket's objects expire after `expiration_days`; resolves to the bucket. */
  setLifecycle(storageId: number, bucketName: string, body: SetBucketLifecycleBody, options?: RequestOptions): APIPromise<Bucket> {
    return this.transport.request(storageRoutes.setBucketLifecycle, { params: { id: storageId, name: bucketName }, body }, options);
  }

  /** `DELETE /storage/provisioning/v1/storage/{id}/s3/bucket/{name}/lifecycle`: the bucket's objects no longer expire; resolves with no value. */
  deleteLifecycle(storageId: number, bucketName: string, options?: RequestOptions): APIPromise<void> {
    return this.transport.request(storageRoutes.deleteBucketLifecycle, { params: { id: storageId, name: bucketName } }, options);
  }

  /** `GET /storage/provisioning/v1/storage/{id}/s3/bucket/{name}/policy`: whether anyone may read the bucket's objects without credentials. */
  getPolicy(storageId: number, bucketName: string, options?: RequestOptions): APIPromise<BucketPolicy> {
    return this.transport.request(storageRoutes.getBucketPolicy, { params: { id: storageId, name: bucketName } }, options);
  }

  /** `POST /storage/provisioning/v1/storage/{id}/s3/bucket/{name}/policy`: makes the bucket public-read; resolves to `true`. */
  setPolicy(storageId: number, bucketName: string, options?: RequestOptions): APIPromise<BucketPolicy> {
    return this.transport.request(storageRoutes.setBucketPolicy, { params: { id: storageId, name: bucketName }, body: undefined }, options);
  }

  /** `DELETE /storage/provisioning/v1/storage/{id}/s3/bucket/{name}/policy`: makes the bucket private again; resolves with no value. */
  deletePolicy(storageId: number, bucketName: string, options?: RequestOptions): APIPromise<void> {
    return this.transport.request(storageRoutes.deleteBucketPolicy, { params: { id: storageId, name: bucketName } }, options);
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
