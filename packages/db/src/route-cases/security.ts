/**
 * Route cases of the Security area: one valid request per route on the demo data (see ../route-cases.ts).
 */
import type { DemoFixture, DemoAccountId } from "../demo-fixture.js";
import { type AreaRouteCases, first } from "./case.js";

export function securityRouteCases(fixture: DemoFixture) {
  const { security } = fixture;
  const profile = (account: DemoAccountId) =>
    first(security.profiles, `live security profile of account ${account}`, (candidate) => candidate.account_id === account && candidate.deleted === null);
  /** The profile's own settings: valid against its template by construction. */
  const ownSettings = (account: DemoAccountId) => {
    const own = profile(account);
    return {
      profile_template: own.profile_template,
      ip_address: own.ip_address,
      site: own.site,
      fields: own.fields.map((field) => ({ base_field: field.base_field, field_value: field.field_value })),
    };
  };
  return {
    "security.listProfileTemplates": { path: () => "/security/iaas/profile-templates?accepts_ip_address=true", ownsObjects: false },
    "security.listProfiles": { path: () => "/security/iaas/v2/profiles?include_deleted=true&limit=10", ownsObjects: false },
    "security.getProfile": { path: (account) => `/security/iaas/v2/profiles/${profile(account).id}`, ownsObjects: true },
    "security.createProfile": {
      path: () => "/security/iaas/v2/profiles",
      ownsObjects: false,
      body: (account) => ownSettings(account),
    },
    "security.updateProfile": {
      path: (account) => `/security/iaas/v2/profiles/${profile(account).id}`,
      ownsObjects: true,
      body: (account) => ownSettings(account),
    },
    "security.deleteProfile": {
      path: (account, made) => `/security/iaas/v2/profiles/${made?.id ?? 2147483000 + account}`,
      ownsObjects: true,
      makes: "security.createProfile",
    },
  } satisfies AreaRouteCases<"security">;
}
