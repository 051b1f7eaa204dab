/**
 * Integration tests of the account's users: listed and shown to every role that may read; changed,
 * invited and deleted by Administrators alone; a deleted user's tokens refused; the last Administrator
 * kept; and every bad request answered in the envelope with nothing changed.
 */
import { routeExample } from "@cloudplane/contract";
import { demoFixture, sql } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { createHandler } from "../../src/index.js";
import { buildRequest, engines, expectEnvelope, replyOf, useApi, type Handler } from "../harness.js";

const accountOne = demoFixture.users.filter((user) => user.accountId === 1).sort((a, b) => a.id - b.id);

describe.each(engines())("the account's users on %s", (engine) => {
  const api = useApi(engine);
  const usersTable = () => selectRows<Record<string, unknown>>(api.database.db, sql`select * from users order by id`);
  /**
   * A handler whose replies are not recorded, with token lookups kept a minute: the calls with a token issued
   * here go through it (the secrets scan would count a new token sent as a credential through a recorded
   * handler as a leak of its 201 answer).
   */
  let own: Handler;
  beforeAll(() => {
    own = createHandler(api.handlerOptions({ authCacheMs: 60_000 }));
  });
  const withToken = async (token: string, method: string, path: string) => replyOf(await own(buildRequest(method, path, { authorization: `apikey ${token}` })));

  it("lists the account's users by id, deleted ones included, paged by limit and offset, to every role that may read", async () => {
    const all = await api.call("GET", "/iam/users", { as: [1, "role-2-active"] });
    expect(all.status, all.text).toBe(200);
    const { count, results } = all.body as { count: number; results: Array<{ id: number; name: string; deleted: boolean; is_active: boolean; client: number }> };
    expect(count).toBe(accountOne.length);
    expect(results.map((user) => [user.id, user.name, user.deleted, user.is_active, user.client])).toEqual(
      accountOne.map((user) => [user.id, user.name, user.deleted, !user.deleted, 1]),
    );
    const page = await api.call("GET", "/iam/users?limit=2&offset=3");
    expect(page.body).toEqual({ count: accountOne.length, results: results.slice(3, 5) });
    const past = await api.call("GET", "/iam/users?offset=100");
    expect(past.body).toEqual({ count: accountOne.length, results: [] });
    // Another account sees its own.
    const other = await api.call("GET", "/iam/users", { as: [2, "role-1-active"] });
    expect((other.body as { results: Array<{ client: number }> }).results.every((user) => user.client === 2)).toBe(true);
  });

  it("shows one user with every field of the platform's model, as the reference's example shows it", async () => {
    const example = routeExample("iam.getUser")!;
    const reply = await api.call("GET", `/iam/users/${String(example.pathParams!.userId)}`);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toEqual(example.response);
  });

  it("answers 404 for a user of another account or an unknown id, and 400 for an id that is no id", async () => {
    const otherAccountUser = demoFixture.users.find((user) => user.accountId === 2)!;
    expectEnvelope(await api.call("GET", `/iam/users/${otherAccountUser.id}`), 404, "not_found");
    expectEnvelope(await api.call("GET", "/iam/users/999999"), 404, "not_found");
    expectEnvelope(await api.call("GET", "/iam/users/abc"), 400, "validation_error", { "path.userId": expect.any(Array) });
    expectEnvelope(await api.call("GET", "/iam/users?limit=0"), 400, "validation_error", { "query.limit": expect.any(Array) });
  });

  it("an Administrator changes the fields the body names; the others keep their values", async () => {
    const before = (await api.call("GET", "/iam/users/3")).body as Record<string, unknown>;
    const reply = await api.call("PATCH", "/iam/users/3", {
      body: { name: "Bob Reader-Smith", phone: "+44 20 7946 0000", company: "Acme Media Ltd", lang: "de", auth_types: ["password", "sso"] },
    });
    expect(reply.status, reply.text).toBe(200);
    const changed = { ...before, name: "Bob Reader-Smith", phone: "+44 20 7946 0000", company: "Acme Media Ltd", lang: "de", auth_types: ["password", "sso"], sso_auth: true };
    expect(reply.body).toEqual(changed);
    expect((await api.call("GET", "/iam/users/3")).body).toEqual(changed);
    // null removes the phone; a field left out keeps its value; an empty body changes nothing.
    const cleared = await api.call("PATCH", "/iam/users/3", { body: { phone: null } });
    expect(cleared.body).toEqual({ ...changed, phone: null });
    const same = await api.call("PATCH", "/iam/users/3", { body: {} });
    expect(same.status, same.text).toBe(200);
    expect(same.body).toEqual({ ...changed, phone: null });
  });

  it("refuses bad bodies naming each field, a taken email (409), a deleted user (409) and other roles (403), changing nothing", async () => {
    const before = await usersTable();
    expectEnvelope(
      await api.call("PATCH", "/iam/users/5", { body: { lang: "fr", auth_types: [], email: "not-an-email", id: 9, groups: [{ id: 1 }], nickname: "x", name: " " } }),
      400,
      "validation_error",
      { lang: expect.any(Array), auth_types: expect.any(Array), email: expect.any(Array), id: expect.any(Array), groups: expect.any(Array), nickname: expect.any(Array), name: expect.any(Array) },
    );
    expectEnvelope(await api.call("PATCH", "/iam/users/5", { body: { auth_types: ["password", "password"] } }), 400, "validation_error", { auth_types: expect.any(Array) });
    // The email of a user of another account: emails are unique over the service.
    const taken = expectEnvelope(await api.call("PATCH", "/iam/users/5", { body: { email: "hana@globex.example", phone: "1" } }), 409, "conflict");
    expect(taken.message).toContain("hana@globex.example");
    const deleted = accountOne.find((user) => user.deleted)!;
    expectEnvelope(await api.call("PATCH", `/iam/users/${deleted.id}`, { body: { phone: "1" } }), 409, "conflict");
    expectEnvelope(await api.call("PATCH", "/iam/users/5", { body: { phone: "1" }, as: [1, "role-5-active"] }), 403, "permission_denied");
    expectEnvelope(await api.call("PATCH", "/iam/users/5", { body: { phone: "1" }, as: [1, "role-2-active"] }), 403, "permission_denied");
    expectEnvelope(await api.call("PATCH", "/iam/users/2", { body: { phone: "1" } }), 404, "not_found");
    expect(await usersTable()).toEqual(before);
  });

  it("an Administrator invites a user: it exists at once, not yet activated, with its role, and may be given a token", async () => {
    const reply = await api.call("POST", "/iam/clients/invite_user", {
      body: { client_id: 1, email: "nina@acme.example", user_role: { id: 5, name: "Engineers" }, name: "Nina Engineer", lang: "zh" },
    });
    expect(reply.status, reply.text).toBe(201);
    const { user_id: id, status } = reply.body as { user_id: number; status: string };
    expect(status).toBe("invited");
    const shown = await api.call("GET", `/iam/users/${id}`);
    expect(shown.body).toMatchObject({ id, name: "Nina Engineer", email: "nina@acme.example", lang: "zh", activated: false, is_active: true, deleted: false, groups: [{ id: 5, name: "Engineers" }], client: 1 });
    // Defaults: the name is the email's local part, the language English.
    const plain = await api.call("POST", "/iam/clients/invite_user", { body: { client_id: 1, email: "otto.b@acme.example", user_role: { id: 2 } } });
    expect(plain.status, plain.text).toBe(201);
    expect((await api.call("GET", `/iam/users/${(plain.body as { user_id: number }).user_id}`)).body).toMatchObject({ name: "otto.b", lang: "en", groups: [{ id: 2, name: "Users" }] });
    const token = await api.call("POST", "/iam/clients/1/tokens", { body: { name: "nina", client_user: { user_id: id } } });
    expect(token.status, token.text).toBe(201);
    expect((token.body as { client_user: { role: { id: number } } }).client_user.role.id).toBe(5);
  });

  it("refuses an invitation to a taken email (409), another account (403), from other roles (403) and bad bodies (400), making nobody", async () => {
    const before = await usersTable();
    const body = { client_id: 1, email: "zoe@acme.example", user_role: { id: 2 } };
    expectEnvelope(await api.call("POST", "/iam/clients/invite_user", { body: { ...body, email: "carol@acme.example" } }), 409, "conflict");
    expectEnvelope(await api.call("POST", "/iam/clients/invite_user", { body: { ...body, client_id: 2 } }), 403, "permission_denied");
    expectEnvelope(await api.call("POST", "/iam/clients/invite_user", { body, as: [1, "role-5-active"] }), 403, "permission_denied");
    expectEnvelope(await api.call("POST", "/iam/clients/invite_user", { body, as: [1, "role-2-active"] }), 403, "permission_denied");
    expectEnvelope(
      await api.call("POST", "/iam/clients/invite_user", { body: { client_id: 1, email: "zoe", user_role: { id: 4, name: "x" }, lang: "fr", role: 1 } }),
      400,
      "validation_error",
      { email: expect.any(Array), "user_role.id": expect.any(Array), lang: expect.any(Array), role: expect.any(Array) },
    );
    expectEnvelope(
      await api.call("POST", "/iam/clients/invite_user", { body: { ...body, user_role: { id: 1, name: "Users" } } }),
      400,
      "validation_error",
      { "user_role.name": ["Must be the name of role 1: Administrators."] },
    );
    expectEnvelope(await api.call("POST", "/iam/clients/invite_user", { body: { email: "zoe@acme.example" } }), 400, "validation_error", {
      client_id: expect.any(Array),
      user_role: expect.any(Array),
    });
    expect(await usersTable()).toEqual(before);
  });

  it("deletes a user: it stays listed as deleted, its tokens are refused from the next request, and deleting it again answers 204", async () => {
    const invited = await api.call("POST", "/iam/clients/invite_user", { body: { client_id: 1, email: "temp@acme.example", user_role: { id: 5 } } });
    const id = (invited.body as { user_id: number }).user_id;
    const issued = await api.call("POST", "/iam/clients/1/tokens", { body: { name: "temp", client_user: { user_id: id } } });
    const token = (issued.body as { token: string }).token;
    // The lookup of the token is kept by the handler that serves it: the deletion must drop it there.
    expect((await withToken(token, "GET", "/iam/users")).status).toBe(200);

    expectEnvelope(await api.call("DELETE", `/iam/clients/1/client-users/${id}`, { as: [1, "role-5-active"] }), 403, "permission_denied");
    expectEnvelope(await api.call("DELETE", `/iam/clients/2/client-users/${id}`), 403, "permission_denied");
    expect((await api.call("GET", `/iam/users/${id}`)).body).toMatchObject({ deleted: false });

    const reply = await replyOf(await own(buildRequest("DELETE", `/iam/clients/1/client-users/${id}`, { as: [1, "role-1-active"] })));
    expect(reply.status, reply.text).toBe(204);
    expect(reply.text).toBe("");
    expect((await api.call("GET", `/iam/users/${id}`)).body).toMatchObject({ id, deleted: true, is_active: false });
    expectEnvelope(await withToken(token, "GET", "/iam/users"), 401, "token_not_valid");
    expect((await api.call("DELETE", `/iam/clients/1/client-users/${id}`)).status).toBe(204);
    // A deleted user can be given no token.
    expectEnvelope(await api.call("POST", "/iam/clients/1/tokens", { body: { name: "late", client_user: { user_id: id } } }), 400, "validation_error");
    expectEnvelope(await api.call("DELETE", "/iam/clients/1/client-users/999999"), 404, "not_found");
    const otherAccountUser = demoFixture.users.find((user) => user.accountId === 2)!;
    expectEnvelope(await api.call("DELETE", `/iam/clients/1/client-users/${otherAccountUser.id}`), 404, "not_found");
  });

  it("keeps the account's last Administrator: deleting it is 409 and changes nothing", async () => {
    // Account 2's Administrators: the demo's two; the one whose token calls deletes the other, then itself.
    const admins = demoFixture.users.filter((user) => user.accountId === 2 && user.roleId === 1 && !user.deleted);
    expect(admins).toHaveLength(2);
    const [caller, other] = [admins.find((user) => user.name === "Hana Admin")!, admins.find((user) => user.name !== "Hana Admin")!];
    expect((await api.call("DELETE", `/iam/clients/2/client-users/${other.id}`, { as: [2, "role-1-active"] })).status).toBe(204);
    const before = await usersTable();
    const refused = expectEnvelope(await api.call("DELETE", `/iam/clients/2/client-users/${caller.id}`, { as: [2, "role-1-active"] }), 409, "conflict");
    expect(refused.message).toContain("last Administrator");
    expect(await usersTable()).toEqual(before);
  });
});
