/**
 * Integration tests of the Object storage route: a bucket's CORS origins as the demo fixture has them,
 * scoped to the caller's account, with 404 for other accounts' storages and unknown buckets.
 */
import { demoFixture } from "@cloudplane/db";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi } from "../harness.js";

const { storages, buckets } = demoFixture;

function corsPath(storageId: number, bucketName: string): string {
  return `/storage/provisioning/v1/storage/${storageId}/s3/bucket/${bucketName}/cors`;
}

describe.each(engines())("Object storage routes on %s", (engine) => {
  const api = useApi(engine);

  it.each(buckets.map((bucket) => [bucket.accountId, bucket.storageId, bucket.name, bucket] as const))(
    "account %i reads the CORS of storage %i bucket %s as the fixture has it",
    async (accountId, storageId, name, bucket) => {
      const reply = await api.call("GET", corsPath(storageId, name), { as: [accountId as 1 | 2, "role-1-active"] });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toEqual({ data: { allowedOrigins: bucket.allowedOrigins } });
    },
  );

  it("a read-only User may read a bucket's CORS", async () => {
    const bucket = buckets.find((item) => item.accountId === 1 && item.allowedOrigins.length > 1)!;
    const reply = await api.call("GET", corsPath(bucket.storageId, bucket.name), { as: [1, "role-2-active"] });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.data.allowedOrigins).toEqual(bucket.allowedOrigins);
  });

  it("another account's storage answers 404, even for a bucket name the caller also has", async () => {
    const otherStorage = storages.find((storage) => storage.accountId === 2)!;
    const shared = buckets.find((bucket) => bucket.storageId === otherStorage.id && buckets.some((own) => own.accountId === 1 && own.name === bucket.name))!;
    expect(shared, "the fixture has a bucket name in both accounts").toBeDefined();
    const reply = await api.call("GET", corsPath(otherStorage.id, shared.name));
    expectEnvelope(reply, 404, "not_found");
    expect(reply.text).not.toContain(shared.allowedOrigins[0]!);
  });

  it("an unknown bucket, a bucket of another storage of the account, and an unknown storage answer 404 alike", async () => {
    const ownStorages = storages.filter((storage) => storage.accountId === 1);
    const [first, second] = ownStorages;
    const elsewhere = buckets.find((bucket) => bucket.storageId === second!.id)!;
    const replies = [
      await api.call("GET", corsPath(first!.id, "no-such-bucket")),
      await api.call("GET", corsPath(first!.id, elsewhere.name)),
      await api.call("GET", corsPath(999_999, "media-assets")),
      await api.call("GET", corsPath(2, "media-assets")),
    ];
    for (const reply of replies) {
      expectEnvelope(reply, 404, "not_found");
    }
  });

  it.each([
    ["upper case", "Media-Assets"],
    ["an underscore", "media_assets"],
    ["too short", "ab"],
    ["a leading hyphen", "-media"],
  ])("a bucket name with %s answers 400 path.name", async (_what, name) => {
    const reply = await api.call("GET", corsPath(1, name));
    expectEnvelope(reply, 400, "validation_error", ["path.name"]);
  });

  it("a storage id that is not a positive integer answers 400 path.id", async () => {
    const reply = await api.call("GET", corsPath(0, "media-assets"));
    expectEnvelope(reply, 400, "validation_error", ["path.id"]);
  });
});
