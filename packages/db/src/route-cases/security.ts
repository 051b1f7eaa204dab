/**
 * Route cases of the Security area: one valid request per route on the demo data (see ../route-cases.ts).
 */
import type { DemoFixture, DemoAccountId } from "../demo-fixture.js";
import { type AreaRouteCases, first } from "./case.js";

export function securityRouteCases(fixture: DemoFixture) {
  const profile = (account: DemoAccountId) =>
    first(fixture.securityProfiles, `live security profile of account ${account}`, (candidate) => candidate.accountId === account && candidate.deleted === null);
  /** The profile's own settings: valid against its template by construction. */
  const ownSettings = (account: DemoAccountId) => {
    const own = profile(account);
    return {
      profile_template: own.templateId,
      ip_address: own.ipAddress,
      site: own.site,
      fields: fixture.securityProfileFields
        .filter((field) => field.profileId === own.id)
        .map((field) => ({ base_field: field.baseFieldId, field_value: field.fieldValue })),
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
