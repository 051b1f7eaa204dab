/**
 * Example calls of the Object storage area's routes, keyed by route id (see ../route-examples.ts).
 */
import * as examples from "../examples.js";
import type { Storage } from "../storage.js";
import type { AreaRouteExamples } from "./example.js";

/** Storage 1 of the demo data. */
const luxStorage: Storage = {
  id: 1,
  name: "acme-s3-lux",
  type: "s3",
  location: "s-ed1",
  address: "s-ed1.storage.cloudplane.example",
  client_id: 1,
  created_at: "2026-01-21T09:00:00.000Z",
  provisioning_status: "active",
  can_restore: false,
  deleted_at: null,
  expires: null,
  server_alias: null,
  disable_http: false,
  custom_config_file: false,
  rewrite_rules: null,
  reseller_id: null,
};

/** The SFTP storage the createStorage example makes. */
const acmeFiles: Storage = {
  ...luxStorage,
  id: 4,
  name: "acme-files",
  type: "sftp",
  location: "ams",
  address: "ams.storage.cloudplane.example",
  created_at: "2026-11-23T19:30:00.000Z",
};

export const storageRouteExamples = {
  "storage.getBucketCors": {
    // Storage 1 of the demo data and its bucket media-assets, whose CORS origins bucketCorsExample shows.
    pathParams: { id: 1, name: "media-assets" },
    response: examples.bucketCorsExample,
  },
  "storage.setBucketCors": {
    pathParams: { id: 1, name: "backups" },
    body: { allowedOrigins: ["https://admin.acme.example"] },
    response: { data: { allowedOrigins: ["https://admin.acme.example"] } },
  },
  "storage.setBucketLifecycle": {
    pathParams: { id: 1, name: "backups" },
    body: { expiration_days: 30 },
    response: { name: "backups", lifecycle: 30 },
  },
  "storage.deleteBucketLifecycle": {
    // The lifecycle setBucketLifecycle's example sets.
    pathParams: { id: 1, name: "backups" },
  },
  "storage.getBucketPolicy": {
    pathParams: { id: 1, name: "media-assets" },
    response: false,
  },
  "storage.setBucketPolicy": {
    pathParams: { id: 1, name: "media-assets" },
    body: {},
    response: true,
  },
  "storage.deleteBucketPolicy": {
    pathParams: { id: 1, name: "media-assets" },
  },
  "storage.createBucket": {
    pathParams: { id: 1, name: "press-kit" },
    body: {},
    response: { name: "press-kit", lifecycle: null },
  },
  "storage.listBuckets": {
    pathParams: { id: 1 },
    query: { limit: 100, offset: 0 },
    response: {
      count: 2,
      results: [
        { name: "backups", lifecycle: null },
        { name: "media-assets", lifecycle: null },
      ],
    },
  },
  "storage.deleteBucket": {
    // The bucket createBucket's example makes.
    pathParams: { id: 1, name: "press-kit" },
    // A 204 has no body; the example type asks for one (reported to the lead).
  },
  "storage.listStorages": {
    query: { limit: 100, offset: 0, type: "s3", order_by: "name" },
    response: {
      count: 2,
      results: [
        { ...luxStorage, id: 3, name: "acme-s3-ams", location: "s-ams1", address: "s-ams1.storage.cloudplane.example", created_at: "2026-01-22T09:00:00.000Z" },
        luxStorage,
      ],
    },
  },
  "storage.getStorage": {
    pathParams: { id: 1 },
    response: luxStorage,
  },
  "storage.updateStorage": {
    // The SFTP storage createStorage's example makes.
    pathParams: { id: 4 },
    body: { expires: "1 year", server_alias: "files.acme.example" },
    response: { ...acmeFiles, expires: "2027-11-23T19:45:00.000Z", server_alias: "files.acme.example" },
  },
  "storage.createStorage": {
    body: { name: "acme-files", type: "sftp", location: "ams" },
    response: acmeFiles,
  },
  "storage.deleteStorage": {
    pathParams: { id: 3 },
    // A 204 has no body; the example type asks for one (reported to the lead).
  },
} satisfies AreaRouteExamples<"storage">;
