/** Accounts are apart (the guide's Authentication section): another account's ids answer 404 as ids that do not exist. */
import { type ConformanceCheck } from "../check.js";
import { expectEnvelope, expectEqual } from "../expect.js";

/** The path with its first id replaced by one that no account has. */
function missingPath(path: string): string {
  return path.replace(/\/\d+(?=\/|$|\?)/, "/2147483000");
}

export const isolationChecks: ConformanceCheck[] = [
  {
    name: "isolation: account 2's objects are 404 to account 1, alike to ids that do not exist",
    async run(context) {
      for (const route of context.cases.filter((candidate) => candidate.ownsObjects && candidate.id !== "iam.listTokens")) {
        const other = expectEnvelope(await context.client.call(route.route.method, route.path(2), { body: route.body?.(1) }), 404, "not_found");
        const missing = expectEnvelope(await context.client.call(route.route.method, missingPath(route.path(1)), { body: route.body?.(1) }), 404, "not_found");
        // The message must not tell an object of another account from one that does not exist.
        const shape = (message: unknown) => String(message).replace(/\d+/g, "N");
        expectEqual(shape(other.message), shape(missing.message), `${route.id}: the message for another account's id and a missing one`);
      }
    },
  },
  {
    name: "isolation: a path naming another account is 403 permission_denied",
    async run(context) {
      expectEnvelope(await context.client.call("GET", "/iam/clients/2/tokens"), 403, "permission_denied");
      expectEnvelope(await context.client.call("GET", "/iam/clients/1/tokens", { as: [2, "role-1-active"] }), 403, "permission_denied");
    },
  },
  {
    name: "isolation: lists show the caller's account only",
    async run(context) {
      const apps = await context.client.call("GET", "/edge/v1/apps?limit=1000", { as: [2, "role-1-active"] });
      const theirs = context.fixture.edge.apps.filter((app) => app.account_id === 2).map((app) => app.id);
      expectEqual((apps.body as { apps: { id: number }[] }).apps.map((app) => app.id), theirs, "account 2's apps", apps);
      const tokens = await context.client.call("GET", "/iam/clients/1/tokens");
      const ids = (tokens.body as { id: number }[]).map((token) => token.id).sort((a, b) => a - b);
      const ours = context.fixture.iam.api_tokens.filter((token) => token.account_id === 1).map((token) => token.id).sort((a, b) => a - b);
      expectEqual(ids, ours, "account 1's tokens", tokens);
    },
  },
];
