/**
 * IAM routes: the account's API tokens and the caller's account, one module per resource. The v2 paths
 * of the tokens are aliases, served by the same implementations (router.ts).
 */
import type { Contract, PrimaryRoutes } from "@cloudplane/contract";
import type { RouteDeps } from "../types.js";
import { iamAccount } from "./account.js";
import { iamTokens } from "./tokens.js";

export function iamRoutes(deps: RouteDeps) {
  return { ...iamTokens(deps), ...iamAccount(deps) } satisfies Record<keyof PrimaryRoutes<Contract["iam"]>, unknown>;
}
