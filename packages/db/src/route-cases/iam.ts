/**
 * Route cases of the IAM area: one valid request per route on the demo data (see ../route-cases.ts).
 */
import type { DemoAccountId, DemoFixture } from "../demo-fixture.js";
import { type AreaRouteCases, first, uniqueName } from "./case.js";

export function iamRouteCases(fixture: DemoFixture) {
  const adminToken = (account: DemoAccountId) =>
    first(fixture.apiTokens, `role-1-active token of account ${account}`, (token) => token.accountId === account && token.name === "role-1-active");
  return {
    "iam.listTokens": { path: (account) => `/iam/clients/${account}/tokens`, ownsObjects: true },
    "iam.createToken": {
      path: (account) => `/iam/clients/${account}/tokens`,
      ownsObjects: true,
      body: () => ({ name: uniqueName("route-case"), description: "Made by the route cases", exp_date: "2099-01-01T00:00:00Z" }),
      // Only Administrators create tokens.
      roleStatus: { 5: 403 },
    },
    // The administrator's own token: other roles see only the tokens issued for themselves.
    "iam.getToken": { path: (account) => `/iam/clients/${account}/tokens/${adminToken(account).id}`, ownsObjects: true, roleStatus: { 2: 404, 5: 404 } },
    "iam.deleteToken": {
      path: (account, made) => `/iam/clients/${account}/tokens/${made?.id ?? 2147483000 + account}`,
      ownsObjects: true,
      makes: "iam.createToken",
      roleStatus: { 5: 404 },
    },
    "iam.getAccount": { path: () => "/iam/clients/me", ownsObjects: false },
  } satisfies AreaRouteCases<"iam">;
}
