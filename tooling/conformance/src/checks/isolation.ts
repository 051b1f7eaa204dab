/** Accounts are apart (the guide's Authentication section): another account's ids answer 404 as ids that do not exist. */
import { casePath, type ConformanceCheck } from "../check.js";
import type { ConformanceAccount, ConformanceClient } from "../client.js";
import { arrayBody, expectEnvelope, expectEqual, expectStatus, expectTrue, objectBody } from "../expect.js";

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
        const otherPath = await casePath(context, route, 2);
        const other = expectEnvelope(await context.client.call(route.route.method, otherPath, { body: route.body?.(1) }), 404, "not_found");
        // The same path with an id no object has.
        const missing = expectEnvelope(await context.client.call(route.route.method, missingPath(otherPath), { body: route.body?.(1) }), 404, "not_found");
        // The message must not tell an object of another account from one that does not exist.
        const shape = (message: unknown) => String(message).replace(/[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}/gi, "N").replace(/\d+/g, "N");
        expectEqual(shape(other.message), shape(missing.message), `${route.id}: the message for another account's id and a missing one`);
      }
    },
  },
  {
    name: "isolation: a path naming another account is 403 permission_denied",
    async run(context) {
      const [ours, theirs] = await accountIds(context.client);
      expectEnvelope(await context.client.call("GET", `/iam/clients/${theirs}/tokens`), 403, "permission_denied");
      expectEnvelope(await context.client.call("GET", `/iam/clients/${ours}/tokens`, { as: [2, "role-1-active"] }), 403, "permission_denied");
    },
  },
  {
    name: "isolation: lists show the caller's account only",
    async run(context) {
      const appIds = async (account: ConformanceAccount) => {
        const reply = await context.client.call("GET", "/edge/v1/apps?limit=1000", { as: [account, "role-1-active"] });
        expectStatus(reply, 200);
        return (objectBody(reply) as { apps: { id: number }[] }).apps.map((app) => app.id);
      };
      const [ours, theirs] = [await appIds(1), await appIds(2)];
      expectTrue(ours.length > 0 && theirs.length > 0, "both accounts have edge apps");
      expectEqual(ours.filter((id) => theirs.includes(id)), [], "apps in both accounts' lists");
      const [accountId] = await accountIds(context.client);
      const tokens = await context.client.call("GET", `/iam/clients/${accountId}/tokens`);
      const listed = arrayBody(tokens) as { id: number; client_user: { client_id: number } }[];
      expectTrue(listed.length > 0, "the account's tokens are listed", tokens);
      expectEqual(listed.filter((token) => token.client_user.client_id !== accountId).map((token) => token.id), [], "other accounts' tokens", tokens);
    },
  },
];

/** The ids of the two accounts the suite calls, as each one's account overview gives it. */
async function accountIds(client: ConformanceClient): Promise<[number, number]> {
  const idOf = async (account: ConformanceAccount) => {
    const reply = await client.call("GET", "/iam/clients/me", { as: [account, "role-1-active"] });
    expectStatus(reply, 200);
    return (objectBody(reply) as { id: number }).id;
  };
  const ids: [number, number] = [await idOf(1), await idOf(2)];
  expectTrue(ids[0] !== ids[1], "the tokens of accounts 1 and 2 belong to two accounts");
  return ids;
}
