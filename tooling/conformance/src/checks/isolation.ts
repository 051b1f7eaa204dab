/** Accounts are apart (the guide's Authentication section): another account's ids answer 404 as ids that do not exist. */
import { casePath, type ConformanceCheck } from "../check.js";
import { expectEnvelope, expectEqual } from "../expect.js";

/** The path with its first id replaced by one that no account has. */
function missingPath(path: string): string {
  const numbered = path.replace(/\/\d+(?=\/|$|\?)/, "/2147483000");
  // A path whose only id is a UUID (a task) gets one no task has.
  return numbered !== path ? numbered : path.replace(/\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i, "/00000000-0000-4000-8000-000000000000");
}

export const isolationChecks: ConformanceCheck[] = [
  {
    name: "isolation: account 2's objects are 404 to account 1, alike to ids that do not exist",
    async run(context) {
      for (const route of context.cases.filter((candidate) => candidate.ownsObjects && !candidate.route.path.includes(":clientId"))) {
        const other = expectEnvelope(await context.client.call(route.route.method, await casePath(context, route, 2), { body: route.body?.(1) }), 404, "not_found");
        const missing = expectEnvelope(await context.client.call(route.route.method, missingPath(route.path(1)), { body: route.body?.(1) }), 404, "not_found");
        // The message must not tell an object of another account from one that does not exist.
        const shape = (message: unknown) => String(message).replace(/[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}/gi, "N").replace(/\d+/g, "N");
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
      // Other checks create objects, so a list holds the account's demo objects and maybe more, never another account's.
      const apps = await context.client.call("GET", "/edge/v1/apps?limit=1000", { as: [2, "role-1-active"] });
      const listed = new Set((apps.body as { apps: { id: number }[] }).apps.map((app) => app.id));
      const theirs = context.fixture.edgeApps.filter((app) => app.accountId === 2).map((app) => app.id);
      const ours = context.fixture.edgeApps.filter((app) => app.accountId === 1).map((app) => app.id);
      expectEqual(theirs.filter((id) => !listed.has(id)), [], "account 2's demo apps missing from its list", apps);
      expectEqual(ours.filter((id) => listed.has(id)), [], "account 1's apps in account 2's list", apps);
      const tokens = await context.client.call("GET", "/iam/clients/1/tokens");
      const listedTokens = tokens.body as { id: number; client_user: { client_id: number } }[];
      const tokenIds = new Set(listedTokens.map((token) => token.id));
      const demoTokens = context.fixture.apiTokens.filter((token) => token.accountId === 1).map((token) => token.id);
      expectEqual(demoTokens.filter((id) => !tokenIds.has(id)), [], "account 1's demo tokens missing from its list", tokens);
      expectEqual(listedTokens.filter((token) => token.client_user.client_id !== 1).map((token) => token.id), [], "other accounts' tokens", tokens);
    },
  },
];
