/**
 * IAM routes: the account's API tokens, the caller's account and its users, one module per resource. The v2 paths
 * of the tokens are aliases, served by the same implementations (router.ts).
 */
import type { Contract, PrimaryRoutes } from "@cloudplane/contract";
import type { RouteDeps } from "../types.js";
import { iamAccount } from "./account.js";
import { iamTokens } from "./tokens.js";
import { iamUsers } from "./users.js";

export function iamRoutes(deps: RouteDeps) {
  return { ...iamTokens(deps), ...iamAccount(deps), ...iamUsers(deps) } satisfies Record<keyof PrimaryRoutes<Contract["iam"]>, unknown>;
}
