/**
 * Integration tests of the platform's shielding POPs: the listing, the same for every account, paged.
 */
import { demoFixture, type DemoAccountId } from "@cloudplane/db";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi } from "../harness.js";

const { shieldingPops } = demoFixture;

describe.each(engines())("shielding POPs on %s", (engine) => {
  const api = useApi(engine);

  const as = (account: DemoAccountId, role: "role-1-active" | "role-2-active" = "role-1-active") => ({ as: [account, role] as [DemoAccountId, typeof role] });

  describe("shielding", () => {
    it("GET /cdn/shieldingpop_v2 lists every POP by id, the same for every account, and pages", async () => {
      const all = [...shieldingPops].sort((a, b) => a.id - b.id).map(({ id, datacenter, country, city }) => ({ id, datacenter, country, city }));
      for (const account of [1, 2] as const) {
        const reply = await api.call("GET", "/cdn/shieldingpop_v2", as(account, "role-2-active"));
        expect(reply.status, reply.text).toBe(200);
        expect(reply.body).toEqual({ count: all.length, results: all });
      }
      const page = await api.call("GET", "/cdn/shieldingpop_v2?limit=1&offset=1");
      expect(page.body).toEqual({ count: all.length, results: [all[1]] });
      expectEnvelope(await api.call("GET", "/cdn/shieldingpop_v2?limit=1001"), 400, "validation_error", ["query.limit"]);
    });
  });
});
