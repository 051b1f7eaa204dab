/**
 * Integration tests of the caller's account: the account, the calling user and the account's users with
 * their roles, to tokens of each role.
 */
import { demoFixture, demoToken } from "@cloudplane/db";
import { describe, expect, it } from "vitest";
import { engines, useApi } from "../harness.js";

const { users } = demoFixture;

describe.each(engines())("the caller's account on %s", (engine) => {
  const api = useApi(engine);

  it.each([
    [1, "role-1-active"],
    [1, "role-2-active"],
    [2, "role-5-active"],
  ] as const)("GET /iam/clients/me shows account %i to its %s token: the account, the calling user and its users", async (account, name) => {
    const reply = await api.call("GET", "/iam/clients/me", { as: [account, name] });
    expect(reply.status, reply.text).toBe(200);
    const members = users.filter((member) => member.accountId === account).sort((a, b) => a.id - b.id);
    const roleNames: Record<number, string> = { 1: "Administrators", 2: "Users", 5: "Engineers", 3009: "Purge and Prefetch only (API and Web)", 3022: "Purge and Prefetch only (API)" };
    expect(reply.body).toEqual({
      id: account,
      companyName: demoFixture.accounts.find((candidate) => candidate.id === account)!.name,
      currentUser: demoToken(account, name).userId,
      email: null,
      deleted: false,
      status: "active",
      has_active_admin: true,
      users: members.map((member) => ({
        id: member.id,
        name: member.name,
        email: member.email,
        deleted: member.deleted,
        client: account,
        groups: [{ id: member.roleId, name: roleNames[member.roleId] }],
      })),
    });
  });
});
