/**
 * Integration tests of the Cloud inference registry credentials: a project's logins (listed, made, read,
 * replaced, deleted), their passwords kept encrypted and never answered, and refused writes that change nothing.
 */
import { decryptSecret, demoFixture, sql } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi, type Reply } from "../harness.js";

const { inferenceRegistryCredentials: fixture } = demoFixture;
const base = (project: number) => `/cloud/v3/inference/${project}/registry_credentials`;

describe.each(engines())("cloud inference registry credentials on %s", (engine) => {
  const api = useApi(engine);

  const stored = () => selectRows<{ name: string; password_encrypted: string }>(api.database.db, sql`select * from inference_registry_credentials order by id`);

  async function expectRefusedUnchanged(send: () => Promise<Reply>): Promise<Reply> {
    const before = await stored();
    const reply = await send();
    expect(reply.status, reply.text).toBeGreaterThanOrEqual(400);
    expect(await stored()).toEqual(before);
    return reply;
  }

  it("lists each project's own, without passwords; another account's project is 404", async () => {
    for (const row of fixture) {
      const reply = await api.call("GET", base(row.projectId), { as: [row.accountId as 1 | 2, "role-2-active"] });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toEqual({ count: 1, results: [{ name: row.name, project_id: row.projectId, registry_url: row.registryUrl, username: row.username }] });
      expect(reply.text).not.toContain(row.password);
    }
    expectEnvelope(await api.call("GET", base(2)), 404, "not_found");
    expectEnvelope(await api.call("GET", `${base(2)}/globex-registry`), 404, "not_found");
  });

  it("makes, reads, replaces and deletes credentials, keeping the password encrypted", async () => {
    const password = "s3cr3t-registry-password-for-test";
    const made = await api.call("POST", base(1), { body: { name: "test-ghcr", registry_url: "ghcr.io", username: "robot", password } });
    expect(made.status, made.text).toBe(200);
    expect(made.body).toEqual({ name: "test-ghcr", project_id: 1, registry_url: "ghcr.io", username: "robot" });
    expect(made.text).not.toContain(password);
    const row = (await stored()).find((each) => each.name === "test-ghcr")!;
    expect(row.password_encrypted).not.toContain(password);
    expect(await decryptSecret(api.database.secretsKey, row.password_encrypted)).toBe(password);

    expect((await api.call("GET", `${base(1)}/test-ghcr`)).body).toEqual(made.body);
    expectEnvelope(await expectRefusedUnchanged(() => api.call("POST", base(1), { body: { name: "test-ghcr", registry_url: "x.io", username: "u", password: "p" } })), 409, "conflict");

    const replaced = await api.call("PUT", `${base(1)}/test-ghcr`, { body: { registry_url: "registry.example", username: "robot-2", password: "another-password-123" } });
    expect(replaced.body).toEqual({ name: "test-ghcr", project_id: 1, registry_url: "registry.example", username: "robot-2" });
    expect(await decryptSecret(api.database.secretsKey, (await stored()).find((each) => each.name === "test-ghcr")!.password_encrypted)).toBe("another-password-123");
    expectEnvelope(
      await expectRefusedUnchanged(() => api.call("PUT", `${base(1)}/test-ghcr`, { body: { name: "renamed", registry_url: "", username: "u" } })),
      400,
      "validation_error",
      ["name", "registry_url", "password"],
    );
    expectEnvelope(await expectRefusedUnchanged(() => api.call("PUT", `${base(1)}/test-ghcr`, { as: [1, "role-2-active"], body: { registry_url: "a.io", username: "u", password: "p" } })), 403, "permission_denied");

    const deleted = await api.call("DELETE", `${base(1)}/test-ghcr`);
    expect(deleted.status, deleted.text).toBe(204);
    expectEnvelope(await api.call("GET", `${base(1)}/test-ghcr`), 404, "not_found");
    expectEnvelope(await api.call("DELETE", `${base(1)}/test-ghcr`), 404, "not_found");
  });

  it("refuses a body that fails the contract, naming each field", async () => {
    const reply = await expectRefusedUnchanged(() => api.call("POST", base(1), { body: { name: "-bad", registry_url: "has space", username: "", project_id: 1 } }));
    expectEnvelope(reply, 400, "validation_error", ["name", "registry_url", "username", "password", "project_id"]);
    // The password is not echoed in an error either.
    const secret = "never-echo-this-password-1234";
    const refused = await api.call("POST", base(1), { body: { name: "x", registry_url: "r.io", username: "u", password: secret, extra: 1 } });
    expectEnvelope(refused, 400, "validation_error", ["extra"]);
    expect(refused.text).not.toContain(secret);
  });
});
