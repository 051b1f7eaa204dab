/**
 * Integration tests of the Security profile templates an account may use: the common ones and its own.
 */
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi } from "../harness.js";
import { fixedOfAccount1, ownOfAccount2, templateAsShown, templates } from "./shared.js";

const TEMPLATES = "/security/iaas/profile-templates";

/** The templates account `account` may use, by id. */
const visibleTo = (account: number) => templates.filter((candidate) => candidate.accountId === null || candidate.accountId === account);

describe.each(engines())("security profile templates on %s", (engine) => {
  const api = useApi(engine);

  describe("GET /security/iaas/profile-templates", () => {
    it("lists the common templates and the account's own, by id, never another account's", async () => {
      for (const account of [1, 2] as const) {
        const reply = await api.call("GET", TEMPLATES, { as: [account, "role-2-active"] });
        expect(reply.status, reply.text).toBe(200);
        expect(reply.body).toEqual(visibleTo(account).map(templateAsShown));
      }
      expect(visibleTo(1).map((shown) => shown.id)).not.toContain(ownOfAccount2.id);
    });

    it("filters by accepts_ip_address and pages with limit and offset", async () => {
      const accepting = await api.call("GET", `${TEMPLATES}?accepts_ip_address=true`);
      expect(accepting.body.map((shown: { id: number }) => shown.id)).toEqual(visibleTo(1).filter((shown) => shown.acceptsIpAddress).map((shown) => shown.id));
      const fixed = await api.call("GET", `${TEMPLATES}?accepts_ip_address=false`);
      expect(fixed.body).toEqual([templateAsShown(fixedOfAccount1)]);
      const page = await api.call("GET", `${TEMPLATES}?limit=1&offset=1`);
      expect(page.body).toEqual([templateAsShown(visibleTo(1)[1]!)]);
    });

    it.each(["accepts_ip_address=yes", "limit=0", "limit=1001", "offset=-1"])("answers 400 for %s", async (query) => {
      const reply = await api.call("GET", `${TEMPLATES}?${query}`);
      expectEnvelope(reply, 400, "validation_error", [`query.${query.split("=")[0]}`]);
    });
  });
});
