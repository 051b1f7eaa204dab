/**
 * Integration tests of the API tokens' lifecycle: issued by Administrators (and only them), shown,
 * listed, used, revoked (refused from the next request), at the /iam and the /iam/v2 paths; and every
 * bad request answered in the envelope with nothing changed.
 */
import { demoFixture, demoToken, hashToken, sql, type DemoAccountId, type DemoTokenName } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { createHandler } from "../../src/index.js";
import { buildRequest, engines, expectEnvelope, replyOf, useApi, type CallOptions, type Handler } from "../harness.js";

const { users } = demoFixture;
const user = (id: number) => users.find((candidate) => candidate.id === id)!;
const userOf = (account: DemoAccountId, name: DemoTokenName) => user(demoToken(account, name).userId);

const ENGINEER = userOf(1, "role-5-active");
const ADMIN = userOf(1, "role-1-active");
const DELETED_USER = users.find((candidate) => candidate.accountId === 1 && candidate.deleted)!;
const OTHER_ACCOUNT_USER = userOf(2, "role-1-active");


/** A time shown by the IAM area since `since` (to the second) and no later than now. */
const shownSince = (since: number) =>
  expect.toSatisfy((value: unknown) => {
    if (typeof value !== "string") return false;
    const shown = Date.parse(`${value.slice(0, 10)}T${value.slice(11, 19)}Z`);
    return shown >= Math.floor(since / 1000) * 1000 && shown <= Date.now();
  });

const clientUserOf = (member: (typeof users)[number], roleName: string) => ({
  role: { id: member.roleId, name: roleName },
  deleted: false,
  user_id: member.id,
  user_name: member.name,
  user_email: member.email,
  client_id: member.accountId,
});

describe.each(engines())("API tokens' lifecycle on %s", (engine) => {
  const api = useApi(engine);
  /**
   * A handler of the harness's options whose replies are not recorded, with token lookups kept a minute: the
   * calls made with a token issued here go through it. A new token's one rightful appearance is its 201 answer,
   * which the secrets scan would count as a leak once the token is sent as a credential through a recorded handler.
   */
  let own: Handler;
  beforeAll(() => {
    own = createHandler(api.handlerOptions({ authCacheMs: 60_000 }));
  });

  const callOwn = async (method: string, path: string, options: CallOptions = {}) => replyOf(await own(buildRequest(method, path, options)));
  const withToken = (token: string, method: string, path: string) => callOwn(method, path, { authorization: `apikey ${token}` });
  const tokenCount = async () => (await selectRows<{ total: number }>(api.database.db, sql`select count(*)::int as total from api_tokens`))[0]!.total;

  async function create(body: Record<string, unknown>, options: { path?: string; as?: [DemoAccountId, DemoTokenName] } = {}) {
    const reply = await api.call("POST", options.path ?? "/iam/clients/1/tokens", { body, as: options.as ?? [1, "role-1-active"] });
    expect(reply.status, reply.text).toBe(201);
    return reply.body as { id: number; token: string } & Record<string, unknown>;
  }

  it("an Administrator issues a token for a user of the account; it is answered once with its value, works at once and is stored as its hash", async () => {
    const started = Date.now();
    const created = await create({
      name: "deploys",
      description: "Used by the deploy pipeline",
      exp_date: "2099-06-30T12:34:56.789+02:00",
      client_user: { user_id: ENGINEER.id, role: { id: 5, name: "engineers" } },
    });
    expect(created).toEqual({
      id: expect.any(Number),
      name: "deploys",
      description: "Used by the deploy pipeline",
      exp_date: "2099-06-30 10:34:56+00:00",
      created: shownSince(started),
      last_usage: null,
      deleted: false,
      expired: false,
      client_user: clientUserOf(ENGINEER, "Engineers"),
      token: expect.stringMatching(/^cp_[0-9a-f]{64}$/),
    });

    const [stored] = await selectRows(api.database.db, sql`select * from api_tokens where id = ${created.id}`);
    expect(stored!.token_hash).toBe(await hashToken(created.token));
    expect(JSON.stringify(stored)).not.toContain(created.token);

    // The token is the Engineer's: it lists that user's tokens only, the new one among them.
    const listed = await withToken(created.token, "GET", "/iam/clients/1/tokens");
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.map((token: { id: number }) => token.id)).toContain(created.id);
    expect(listed.body.every((token: { client_user: { user_id: number } }) => token.client_user.user_id === ENGINEER.id)).toBe(true);

    const { token, ...shown } = created;
    const got = await api.call("GET", `/iam/clients/1/tokens/${created.id}`);
    expect(got.status, got.text).toBe(200);
    expect(got.body).toEqual({ ...shown, last_usage: shownSince(started) });
    const all = await api.call("GET", "/iam/clients/1/tokens");
    expect(all.body.find((entry: { id: number }) => entry.id === created.id)).toEqual(got.body);
    for (const reply of [listed, got, all]) {
      expect(reply.text).not.toContain(token);
      expect(reply.text).not.toContain(await hashToken(token));
    }
  });

  it("defaults: the token is the caller's, with the caller's role, no expiry and an empty description", async () => {
    const created = await create({ name: "mine" });
    expect(created).toMatchObject({ name: "mine", description: "", exp_date: null, expired: false, client_user: clientUserOf(ADMIN, "Administrators") });
    const account = await withToken(created.token, "GET", "/iam/clients/me");
    expect(account.status, account.text).toBe(200);
    expect(account.body.currentUser).toBe(ADMIN.id);
  });

  it("takes exp_date with a space for the T, as the IAM area writes its times", async () => {
    const created = await create({ name: "spaced", exp_date: "2099-01-02 03:04:05+00:00" });
    expect(created.exp_date).toBe("2099-01-02 03:04:05+00:00");
  });

  it("revokes a token: the server that revoked it refuses it from the next request, though it had the lookup cached", async () => {
    const created = await create({ name: "short-lived", client_user: { user_id: ENGINEER.id } });
    expect((await withToken(created.token, "GET", "/cdn/clients/me/features")).status).toBe(200);

    const revoked = await callOwn("DELETE", `/iam/clients/1/tokens/${created.id}`);
    expect(revoked.status, revoked.text).toBe(204);
    expect(revoked.text).toBe("");

    const refused = await withToken(created.token, "GET", "/cdn/clients/me/features");
    expect(expectEnvelope(refused, 401, "token_not_valid").message).toBe("The API token was revoked.");
    const shown = await api.call("GET", `/iam/clients/1/tokens/${created.id}`);
    expect(shown.body).toMatchObject({ id: created.id, deleted: true });
    const deletedOnes = await api.call("GET", "/iam/clients/1/tokens?deleted=false");
    expect(deletedOnes.body.map((token: { id: number }) => token.id)).toContain(created.id);

    // Revoking it again changes nothing.
    expect((await api.call("DELETE", `/iam/clients/1/tokens/${created.id}`)).status).toBe(204);
    expect((await api.call("GET", `/iam/clients/1/tokens/${created.id}`)).body).toEqual(shown.body);
  });

  it("a token may revoke itself, and is refused from its next request", async () => {
    const created = await create({ name: "self-revoking" });
    expect((await withToken(created.token, "DELETE", `/iam/clients/1/tokens/${created.id}`)).status).toBe(204);
    expectEnvelope(await withToken(created.token, "GET", "/iam/clients/me"), 401, "token_not_valid");
  });

  it("serves the same operations at the platform's /iam/v2 paths", async () => {
    const created = await create({ name: "v2" }, { path: "/iam/v2/clients/1/tokens" });
    const got = await api.call("GET", `/iam/v2/clients/1/tokens/${created.id}`);
    expect(got.status, got.text).toBe(200);
    expect(got.body).toMatchObject({ id: created.id, name: "v2", deleted: false });
    const listed = await api.call("GET", "/iam/v2/clients/1/tokens?deleted=true");
    expect(listed.body).toEqual((await api.call("GET", "/iam/clients/1/tokens?deleted=true")).body);
    expect(listed.body.map((token: { id: number }) => token.id)).toContain(created.id);
    expect((await api.call("DELETE", `/iam/v2/clients/1/tokens/${created.id}`)).status).toBe(204);
    expectEnvelope(await withToken(created.token, "GET", "/iam/clients/me"), 401, "token_not_valid");
  });

  it.each([
    ["an Engineer", "role-5-active"],
    ["a User", "role-2-active"],
    ["a Purge and Prefetch user", "role-3009-active"],
  ] as const)("%s may not create a token: 403, and none is made", async (_who, name) => {
    const before = await tokenCount();
    const reply = await api.call("POST", "/iam/clients/1/tokens", { as: [1, name], body: { name: "not allowed" } });
    expectEnvelope(reply, 403, "permission_denied");
    expect(await tokenCount()).toBe(before);
  });

  it("an Engineer reaches only their own tokens: another user's token is 404 to get and to revoke, and stays as it was", async () => {
    const engineer: [DemoAccountId, DemoTokenName] = [1, "role-5-active"];
    const own = await api.call("GET", `/iam/clients/1/tokens/${demoToken(1, "role-5-active").id}`, { as: engineer });
    expect(own.status, own.text).toBe(200);
    const adminToken = demoToken(1, "role-1-active").id;
    expectEnvelope(await api.call("GET", `/iam/clients/1/tokens/${adminToken}`, { as: engineer }), 404, "not_found");
    expectEnvelope(await api.call("DELETE", `/iam/clients/1/tokens/${adminToken}`, { as: engineer }), 404, "not_found");
    expect((await api.call("GET", `/iam/clients/1/tokens/${adminToken}`)).body.deleted).toBe(false);
  });

  it("a User may see their own token but not revoke it (403)", async () => {
    const mine = demoToken(1, "role-2-active").id;
    expect((await api.call("GET", `/iam/clients/1/tokens/${mine}`, { as: [1, "role-2-active"] })).status).toBe(200);
    expectEnvelope(await api.call("DELETE", `/iam/clients/1/tokens/${mine}`, { as: [1, "role-2-active"] }), 403, "permission_denied");
    expect((await api.call("GET", `/iam/clients/1/tokens/${mine}`)).body.deleted).toBe(false);
  });

  it("another account: its clientId is 403, its tokens under our clientId are 404, and nothing of it changes", async () => {
    const theirs = demoToken(2, "role-1-active").id;
    const before = await tokenCount();
    expectEnvelope(await api.call("POST", "/iam/clients/2/tokens", { body: { name: "intruder" } }), 403, "permission_denied");
    expectEnvelope(await api.call("GET", `/iam/clients/2/tokens/${theirs}`), 403, "permission_denied");
    expectEnvelope(await api.call("DELETE", `/iam/clients/2/tokens/${theirs}`), 403, "permission_denied");
    const notFound = expectEnvelope(await api.call("GET", `/iam/clients/1/tokens/${theirs}`), 404, "not_found");
    const unknown = expectEnvelope(await api.call("GET", "/iam/clients/1/tokens/999999"), 404, "not_found");
    expect(notFound.message.replace(/\d+/g, "N")).toBe(unknown.message.replace(/\d+/g, "N"));
    expectEnvelope(await api.call("DELETE", `/iam/clients/1/tokens/${theirs}`), 404, "not_found");
    expect(await tokenCount()).toBe(before);
    const still = await api.call("GET", `/iam/clients/2/tokens/${theirs}`, { as: [2, "role-1-active"] });
    expect(still.body.deleted).toBe(false);
  });

  it.each([
    ["no name", {}, { name: ["This field is required."] }],
    ["an empty name", { name: "" }, ["name"]],
    ["a name of 256 characters", { name: "n".repeat(256) }, ["name"]],
    ["a description of 1001 characters", { name: "x", description: "d".repeat(1001) }, ["description"]],
    ["an exp_date in the past", { name: "x", exp_date: "2020-01-01T00:00:00Z" }, { exp_date: ["Must be in the future."] }],
    ["an exp_date that is not a date", { name: "x", exp_date: "tomorrow" }, ["exp_date"]],
    ["an unknown user", { name: "x", client_user: { user_id: 999999 } }, ["client_user.user_id"]],
    ["another account's user", { name: "x", client_user: { user_id: OTHER_ACCOUNT_USER.id } }, ["client_user.user_id"]],
    ["a deleted user", { name: "x", client_user: { user_id: DELETED_USER.id } }, ["client_user.user_id"]],
    ["a role id that does not exist", { name: "x", client_user: { role: { id: 7 } } }, ["client_user.role.id"]],
    ["a role other than the user's", { name: "x", client_user: { user_id: ENGINEER.id, role: { id: 1 } } }, ["client_user.role.id"]],
    ["a role name that is not the id's", { name: "x", client_user: { role: { id: 1, name: "Users" } } }, ["client_user.role.name"]],
    ["the read-only token field", { name: "x", token: "cp_mine" }, { token: ["Read-only field: it is set by the service and cannot be written."] }],
    ["an unknown field", { name: "x", scopes: ["all"] }, ["scopes"]],
    ["an unknown field in client_user", { name: "x", client_user: { email: "a@b.example" } }, ["client_user.email"]],
  ] as const)("creating with %s answers 400 naming the field, and makes nothing", async (_what, body, errors) => {
    const before = await tokenCount();
    expectEnvelope(await api.call("POST", "/iam/clients/1/tokens", { body }), 400, "validation_error", errors);
    expect(await tokenCount()).toBe(before);
  });

  it.each([
    ["GET", "abc"],
    ["GET", "0"],
    ["DELETE", "2147483648"],
  ])("%s of token id %s answers 400 path.tokenId", async (method, id) => {
    expectEnvelope(await api.call(method, `/iam/clients/1/tokens/${id}`), 400, "validation_error", ["path.tokenId"]);
  });
});
