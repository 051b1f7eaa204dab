/**
 * Integration tests of the Cloud inference API keys: a project's keys (listed, made with their secret shown
 * once, read, described, deleted), the deployments that take each, and refused writes that change nothing.
 */
import { demoFixture, sha256Hex, sql } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi, type Reply } from "../harness.js";

const { inferenceApiKeys: fixture, inferenceDeployments: deployments } = demoFixture;
const base = (project: number) => `/cloud/v3/inference/${project}/api_keys`;

describe.each(engines())("cloud inference API keys on %s", (engine) => {
  const api = useApi(engine);

  const stored = () => selectRows<{ name: string; secret_hash: string; description: string | null }>(api.database.db, sql`select * from inference_api_keys order by id`);

  async function expectRefusedUnchanged(send: () => Promise<Reply>): Promise<Reply> {
    const before = await stored();
    const reply = await send();
    expect(reply.status, reply.text).toBeGreaterThanOrEqual(400);
    expect(await stored()).toEqual(before);
    return reply;
  }

  it("lists a project's keys by name with the deployments that take them, never their secrets", async () => {
    const ours = fixture.filter((row) => row.projectId === 1).sort((a, b) => (a.name < b.name ? -1 : 1));
    const reply = await api.call("GET", base(1), { as: [1, "role-2-active"] });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toEqual({
      count: ours.length,
      results: ours.map((row) => ({
        name: row.name,
        description: row.description,
        expires_at: row.expiresAt,
        created_at: row.created,
        deployment_names: deployments.filter((deployment) => deployment.projectId === 1 && deployment.apiKeys.includes(row.name)).map((deployment) => deployment.name),
      })),
    });
    for (const row of fixture) expect(reply.text).not.toContain(row.secret);
    expectEnvelope(await api.call("GET", `${base(2)}/globex-key`), 404, "not_found");
    expectEnvelope(await api.call("GET", base(2)), 404, "not_found");
  });

  it("makes a key with its secret shown once and kept as its hash, describes it and deletes it", async () => {
    const made = await api.call("POST", base(1), { body: { name: "test-key", description: "For a test.", expires_at: "2099-01-01T00:00:00.000Z" } });
    expect(made.status, made.text).toBe(200);
    expect(made.body).toEqual({
      name: "test-key",
      description: "For a test.",
      expires_at: "2099-01-01T00:00:00.000Z",
      created_at: expect.any(String),
      deployment_names: [],
      secret: expect.stringMatching(/^cpik_[A-Za-z0-9_-]{43}$/),
    });
    const row = (await stored()).find((each) => each.name === "test-key")!;
    expect(row.secret_hash).toBe(await sha256Hex(made.body.secret));
    const read = await api.call("GET", `${base(1)}/test-key`);
    expect(read.body).toEqual({ ...made.body, secret: undefined });
    expect(Object.keys(read.body)).not.toContain("secret");
    expect(read.text).not.toContain(made.body.secret);

    const described = await api.call("PATCH", `${base(1)}/test-key`, { body: { description: null } });
    expect(described.body).toEqual({ ...read.body, description: null });
    expectEnvelope(await expectRefusedUnchanged(() => api.call("PATCH", `${base(1)}/test-key`, { body: { name: "x", expires_at: null, secret: "y" } })), 400, "validation_error", [
      "name",
      "expires_at",
      "secret",
    ]);
    expectEnvelope(await expectRefusedUnchanged(() => api.call("POST", base(1), { body: { name: "test-key" } })), 409, "conflict");
    expect((await api.call("DELETE", `${base(1)}/test-key`)).status).toBe(204);
    expectEnvelope(await api.call("GET", `${base(1)}/test-key`), 404, "not_found");
  });

  it("refuses an expiry in the past and a body that fails the contract, naming each field", async () => {
    expectEnvelope(await expectRefusedUnchanged(() => api.call("POST", base(1), { body: { name: "late-key", expires_at: "2020-01-01T00:00:00.000Z" } })), 400, "validation_error", ["expires_at"]);
    expectEnvelope(
      await expectRefusedUnchanged(() => api.call("POST", base(1), { body: { name: "9key", description: "x".repeat(1025), expires_at: "tomorrow", deployment_names: [] } })),
      400,
      "validation_error",
      ["name", "description", "expires_at", "deployment_names"],
    );
    expectEnvelope(await expectRefusedUnchanged(() => api.call("POST", base(1), { as: [1, "role-2-active"], body: { name: "users-key" } })), 403, "permission_denied");
  });

  it("keeps a key a deployment takes; taking it out frees it", async () => {
    const made = await api.call("POST", base(1), { body: { name: "taken-key" } });
    expect(made.status).toBe(200);
    expect((await api.call("PATCH", "/cloud/v3/inference/1/deployments/acme-whisper", { body: { api_keys: ["taken-key"] } })).status).toBe(200);
    expect((await api.call("GET", `${base(1)}/taken-key`)).body.deployment_names).toEqual(["acme-whisper"]);
    const refused = expectEnvelope(await expectRefusedUnchanged(() => api.call("DELETE", `${base(1)}/taken-key`)), 409, "conflict");
    expect(refused.message).toContain("acme-whisper");
    expect((await api.call("PATCH", "/cloud/v3/inference/1/deployments/acme-whisper", { body: { api_keys: [] } })).status).toBe(200);
    expect((await api.call("DELETE", `${base(1)}/taken-key`)).status).toBe(204);
  });
});
