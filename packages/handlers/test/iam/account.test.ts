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
    const listed = await api.call("GET", "/iam/users", { as: [account, name] });
    expect(listed.status, listed.text).toBe(200);
    const { results } = listed.body as { results: unknown[] };
    expect(results).toHaveLength(members.length);
    const features = demoFixture.cdnFeatures.filter((feature) => feature.accountId === account).sort((a, b) => a.id - b.id);
    const entry = (feature: (typeof features)[number]) => ({
      feature_id: feature.featureId,
      name: feature.name,
      create_date: expect.stringMatching(new RegExp(`^${feature.created.slice(0, 10)} ${feature.created.slice(11, 19)}`)),
      service: "CDN",
    });
    const none = { STORAGE: [], STREAMING: [], DNS: [], DDOS: [], CLOUD: [] };
    const active = { enabled: true, status: "active" };
    expect(reply.body).toEqual({
      id: account,
      companyName: demoFixture.accounts.find((candidate) => candidate.id === account)!.name,
      name: members.find((member) => member.roleId === 1)!.name,
      phone: null,
      email: members.find((member) => member.roleId === 1)!.email,
      website: null,
      country_code: null,
      custom_id: null,
      signup_process: null,
      entryBaseDomain: null,
      currentUser: demoToken(account, name).userId,
      deleted: false,
      status: "active",
      is_test: false,
      bill_type: "postpay",
      has_active_admin: true,
      capabilities: ["CDN", "STORAGE", "STREAMING", "DDOS", "CLOUD"],
      serviceStatuses: { CDN: active, STORAGE: active, STREAMING: active, DDOS: active, CLOUD: active, DNS: { enabled: false, status: "new" } },
      paidFeatures: { ...none, CDN: features.filter((feature) => feature.paid).map((feature) => ({ ...entry(feature), paid_feature_id: feature.id })) },
      freeFeatures: { ...none, CDN: features.filter((feature) => !feature.paid).map((feature) => ({ ...entry(feature), free_feature_id: feature.id })) },
      // The users as the users' listing shows them, with their roles.
      users: results,
    });
    expect((reply.body as { users: Array<{ id: number; groups: unknown }> }).users.map((user) => [user.id, user.groups])).toEqual(
      members.map((member) => [member.id, [{ id: member.roleId, name: roleNames[member.roleId] }]]),
    );
  });
});
