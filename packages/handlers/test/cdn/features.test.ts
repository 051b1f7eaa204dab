/**
 * Integration tests of the account's CDN features, paid and free.
 */
import { demoFixture } from "@cloudplane/db";
import { describe, expect, it } from "vitest";
import { engines, useApi } from "../harness.js";

const { cdnFeatures: features } = demoFixture;

/** The CDN area's timestamp (`YYYY-MM-DD HH:MM:SS.ffffff+00:00`) of a fixture ISO time. */
function cdnTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)}000+00:00`;
}

describe.each(engines())("the account's CDN features on %s", (engine) => {
  const api = useApi(engine);

  describe("GET /cdn/clients/me/features", () => {
    it.each([1, 2] as const)("GET /cdn/clients/me/features lists account %i's paid and free features", async (accountId) => {
      const own = features.filter((feature) => feature.accountId === accountId).sort((a, b) => a.id - b.id);
      const reply = await api.call("GET", "/cdn/clients/me/features", { as: [accountId, "role-2-active"] });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toEqual({
        id: accountId,
        paid_features: own
          .filter((feature) => feature.paid)
          .map((feature) => ({ feature_id: feature.featureId, name: feature.name, paid_feature_id: feature.id, create_date: cdnTime(feature.created) })),
        free_features: own
          .filter((feature) => !feature.paid)
          .map((feature) => ({ feature_id: feature.featureId, name: feature.name, free_feature_id: feature.id, create_date: cdnTime(feature.created) })),
      });
      expect(reply.body.paid_features.length).toBeGreaterThan(0);
      expect(reply.body.free_features.length).toBeGreaterThan(0);
    });
  });
});
