/**
 * IAM area: the API tokens of an account (issued, shown, revoked), the caller's account and its users, one
 * module per resource; the area's router, with the tokens' v2 aliases.
 */
import { initContract } from "@ts-rest/core";
import { alias } from "../alias.js";
import { iamAccountRoutes } from "./account.js";
import { iamTokensRoutes } from "./tokens.js";
import { iamUsersRoutes } from "./users.js";

export * from "./tokens.js";
export * from "./account.js";
export * from "./users.js";

const c = initContract();

export const iamContract = c.router({
  ...iamTokensRoutes,
  ...iamAccountRoutes,
  ...iamUsersRoutes,
  v2ListTokens: alias(iamTokensRoutes, "listTokens", { path: "/iam/v2/clients/:clientId/tokens" }),
  v2CreateToken: alias(iamTokensRoutes, "createToken", { path: "/iam/v2/clients/:clientId/tokens" }),
  v2GetToken: alias(iamTokensRoutes, "getToken", { path: "/iam/v2/clients/:clientId/tokens/:tokenId" }),
  v2DeleteToken: alias(iamTokensRoutes, "deleteToken", { path: "/iam/v2/clients/:clientId/tokens/:tokenId" }),
});
