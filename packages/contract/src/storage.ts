/**
 * Object storage area: the CORS settings of an S3 bucket.
 */
import { initContract } from "@ts-rest/core";
import { z } from "zod";
import { errorResponses, idParam } from "./common.js";

const c = initContract();

export const bucketName = z
  .string()
  .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "Must be a bucket name: 3 to 63 lower-case letters, digits, dots and hyphens.");

const bucketCorsSchema = z
  .object({
    data: z
      .object({ allowedOrigins: z.array(z.string()).describe("Origins allowed to call the bucket from browsers; `*` for any.") })
      .strict()
      .describe("The bucket's CORS settings."),
  })
  .strict()
  .describe("The CORS settings of a bucket.");
export interface BucketCorsSchema extends BucketCorsSchemaType {}
type BucketCorsSchemaType = typeof bucketCorsSchema;
export const bucketCors: BucketCorsSchema = bucketCorsSchema;

export type BucketCors = z.infer<typeof bucketCors>;

export const storageContract = c.router({
  getBucketCors: {
    method: "GET",
    path: "/storage/provisioning/v1/storage/:id/s3/bucket/:name/cors",
    pathParams: z.object({ id: idParam("The storage id; it must belong to the account."), name: bucketName.describe("The bucket name.") }),
    responses: { 200: bucketCors, ...errorResponses() },
    summary: "Get the CORS settings of a bucket",
    description:
      "The origins allowed to call the bucket from browsers. A body sent with this GET is ignored (fetch cannot send one). " +
      "404 when the storage is not the account's or has no such bucket.",
    metadata: { access: "read" },
  },
});
