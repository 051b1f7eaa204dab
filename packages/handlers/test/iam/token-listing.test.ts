/**
 * Integration tests of the IAM token listing: who sees which tokens, the role and issuer filters, the
 * inverted `deleted` filter and `expired`, checked against the demo fixture's tokens and users.
 */
import { demoFixture, hashToken, type DemoAccountId, type DemoRow, type DemoTokenName } from "@cloudplane/db";

type DemoApiToken = DemoRow<"apiTokens">;
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi } from "../harness.js";

const { users, apiTokens: tokens } = demoFixture;

/** The role names, as the guide's Roles section shows them. */
const ROLE_NAMES: Record<number, string> = {
  1: "Administrators",
  2: "Users",
  5: "Engineers",
  3009: "Purge and Prefetch only (API and Web)",
  3022: "Purge and Prefetch only (API)",
};

/** `YYYY-MM-DD HH:MM:SS+00:00` from the fixture's ISO time (the IAM area's time format). */
function iamTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}+00:00`;
}

const testsStarted = Date.now();

/** `last_usage` of a token used by these tests: a time since they started (shown to the second). */
const recentUse = expect.toSatisfy(
  (value: unknown) => typeof value === "string" && Date.parse(`${value.slice(0, 10)}T${value.slice(11, 19)}Z`) >= Math.floor(testsStarted / 1000) * 1000,
);

/**
 * A token as the listing shows it. `used` holds the ids of the tokens the suite has called with:
 * each call is a use, so their `last_usage` is recent.
 */
function expectedToken(token: DemoApiToken, used: ReadonlySet<number>) {
  const user = users.find((candidate) => candidate.id === token.userId)!;
  return {
    id: token.id,
    name: token.name,
    description: token.description,
    exp_date: token.expDate === null ? null : iamTime(token.expDate),
    created: iamTime(token.created),
    last_usage: used.has(token.id) ? recentUse : token.lastUsage === null ? null : iamTime(token.lastUsage),
    deleted: token.deleted,
    expired: token.expDate !== null && Date.parse(token.expDate) <= Date.now(),
    client_user: {
      role: { id: user.roleId, name: ROLE_NAMES[user.roleId] },
      deleted: user.deleted,
      user_id: user.id,
      user_name: user.name,
      user_email: user.email,
      client_id: user.accountId,
    },
  };
}

function tokensOf(accountId: number, used: ReadonlySet<number>, keep: (token: DemoApiToken) => boolean = () => true) {
  return tokens
    .filter((token) => token.accountId === accountId && keep(token))
    .sort((a, b) => a.id - b.id)
    .map((token) => expectedToken(token, used));
}

function tokenOf(accountId: DemoAccountId, name: DemoTokenName): DemoApiToken {
  return tokens.find((token) => token.accountId === accountId && token.name === name)!;
}

describe.each(engines())("IAM routes on %s", (engine) => {
  const api = useApi(engine);
  const used = new Set<number>();

  /** A call that notes the token it used. */
  function call(path: string, as: [DemoAccountId, DemoTokenName] = [1, "role-1-active"]) {
    used.add(tokenOf(...as).id);
    return api.call("GET", path, { as });
  }

  async function list(accountId: DemoAccountId, query = "", as: DemoTokenName = "role-1-active") {
    const reply = await call(`/iam/clients/${accountId}/tokens${query}`, [accountId, as]);
    expect(reply.status, reply.text).toBe(200);
    return reply;
  }

  const expectTokens = (accountId: number, keep?: (token: DemoApiToken) => boolean) => tokensOf(accountId, used, keep);

  it.each([1, 2] as const)("an Administrator of account %i sees every token of the account and no other", async (accountId) => {
    const reply = await list(accountId);
    expect(reply.body).toEqual(expectTokens(accountId));
  });

  it("the calling token's last_usage is the time of this call; the others keep the fixture's", async () => {
    const caller = tokenOf(1, "role-1-ci");
    expect(used.has(caller.id)).toBe(false);
    const reply = await list(1, "", "role-1-ci");
    expect(reply.body).toEqual(expectTokens(1));
    expect(reply.body.find((token: { id: number }) => token.id === caller.id).last_usage).not.toBe(iamTime(caller.lastUsage!));
  });

  it.each([
    ["an Engineer", "role-5-active"],
    ["a User", "role-2-active"],
  ] as const)("%s sees only the tokens issued for themselves", async (_who, name) => {
    const caller = tokenOf(1, name);
    const reply = await list(1, "", name);
    expect(reply.body).toEqual(expectTokens(1, (token) => token.userId === caller.userId));
    expect(reply.body.length).toBeGreaterThan(1);
  });

  it("a User's filters apply inside their own tokens only", async () => {
    const caller = tokenOf(1, "role-2-active");
    const admin = tokenOf(1, "role-1-active");
    expect((await list(1, `?issued_by=${admin.userId}`, "role-2-active")).body).toEqual([]);
    expect((await list(1, "?role=1", "role-2-active")).body).toEqual([]);
    expect((await list(1, "?deleted=false", "role-2-active")).body).toEqual(
      expectTokens(1, (token) => token.userId === caller.userId && token.deleted),
    );
  });

  it.each([1, 2, 5, 3009, 3022])("role=%i lists the tokens of users with that role", async (role) => {
    const reply = await list(1, `?role=${role}`);
    expect(reply.body).toEqual(expectTokens(1, (token) => users.find((user) => user.id === token.userId)!.roleId === role));
    expect(reply.body.length).toBeGreaterThan(0);
  });

  it("issued_by and not_issued_by split the account's tokens by the user they were issued for", async () => {
    const engineer = tokenOf(1, "role-5-active").userId;
    const issued = await list(1, `?issued_by=${engineer}`);
    const notIssued = await list(1, `?not_issued_by=${engineer}`);
    expect(issued.body).toEqual(expectTokens(1, (token) => token.userId === engineer));
    expect(issued.body.length).toBeGreaterThan(1);
    expect(notIssued.body).toEqual(expectTokens(1, (token) => token.userId !== engineer));
    expect(notIssued.body.length).toBeGreaterThan(1);
  });

  it("issued_by a user of another account lists nothing", async () => {
    const otherUser = users.find((user) => user.accountId === 2)!;
    expect((await list(1, `?issued_by=${otherUser.id}`)).body).toEqual([]);
  });

  it("deleted is inverted, as its description says: true lists the tokens NOT deleted, false the deleted ones, absent both", async () => {
    const notDeleted = await list(1, "?deleted=true");
    const deleted = await list(1, "?deleted=false");
    const both = await list(1);
    expect(notDeleted.body).toEqual(expectTokens(1, (token) => !token.deleted));
    expect(deleted.body).toEqual(expectTokens(1, (token) => token.deleted));
    expect(deleted.body.length).toBeGreaterThan(0);
    expect(deleted.body.every((token: { deleted: boolean }) => token.deleted)).toBe(true);
    expect(both.body).toEqual(expectTokens(1));
  });

  it("filters combine", async () => {
    const reply = await list(1, "?role=2&deleted=false");
    expect(reply.body).toEqual(
      expectTokens(1, (token) => token.deleted && users.find((user) => user.id === token.userId)!.roleId === 2),
    );
    expect(reply.body).toHaveLength(1);
  });

  it("expired is computed from exp_date: past dates are expired, future and null ones are not", async () => {
    const reply = await list(1);
    const expired = tokenOf(1, "role-5-expired");
    const future = tokenOf(1, "role-2-active");
    const never = tokenOf(1, "role-1-active");
    const byId = new Map(reply.body.map((token: { id: number; expired: boolean }) => [token.id, token.expired]));
    expect(Date.parse(expired.expDate!)).toBeLessThan(Date.now());
    expect(byId.get(expired.id)).toBe(true);
    expect(byId.get(future.id)).toBe(false);
    expect(never.expDate).toBeNull();
    expect(byId.get(never.id)).toBe(false);
  });

  it("token values and their hashes never appear in the listing", async () => {
    const reply = await list(1);
    for (const token of tokens) {
      expect(reply.text).not.toContain(token.plaintext);
      expect(reply.text).not.toContain(await hashToken(token.plaintext));
    }
  });

  it.each([
    ["an Administrator", "role-1-active"],
    ["an Engineer", "role-5-active"],
    ["a User", "role-2-active"],
  ] as const)("%s naming another account's clientId gets 403 permission_denied", async (_who, name) => {
    const reply = await call("/iam/clients/2/tokens", [1, name]);
    expectEnvelope(reply, 403, "permission_denied");
  });

  it.each([
    ["role=abc", "query.role"],
    ["role=7", "query.role"],
    ["role=1.5", "query.role"],
    ["deleted=yes", "query.deleted"],
    ["deleted=1", "query.deleted"],
    ["issued_by=-1", "query.issued_by"],
    ["not_issued_by=x", "query.not_issued_by"],
  ])("?%s answers 400 with %s", async (query, field) => {
    const reply = await call(`/iam/clients/1/tokens?${query}`);
    expectEnvelope(reply, 400, "validation_error", [field]);
  });

  it("a clientId that is not a positive integer answers 400 path.clientId", async () => {
    const reply = await call("/iam/clients/abc/tokens");
    expectEnvelope(reply, 400, "validation_error", ["path.clientId"]);
  });
});
