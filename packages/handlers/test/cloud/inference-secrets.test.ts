/**
 * Integration tests of the Cloud inference secrets: a project's AWS IAM key pairs (listed, made, read,
 * replaced, deleted), the secret key kept encrypted and shown only as a mask, and refused writes that
 * change nothing.
 */
import { HIDDEN_SECRET_VALUE } from "@cloudplane/contract";
import { decryptSecret, demoFixture, sql } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi, type Reply } from "../harness.js";

const { inferenceSecrets: fixture } = demoFixture;
const base = (project: number) => `/cloud/v3/inference/${project}/secrets`;

describe.each(engines())("cloud inference secrets on %s", (engine) => {
  const api = useApi(engine);

  const stored = () => selectRows<{ name: string; aws_secret_access_key_encrypted: string }>(api.database.db, sql`select * from inference_secrets order by id`);

  async function expectRefusedUnchanged(send: () => Promise<Reply>): Promise<Reply> {
    const before = await stored();
    const reply = await send();
    expect(reply.status, reply.text).toBeGreaterThanOrEqual(400);
    expect(await stored()).toEqual(before);
    return reply;
  }

  it("lists each project's own with the secret key masked; another account's project is 404", async () => {
    for (const row of fixture) {
      const reply = await api.call("GET", base(row.projectId), { as: [row.accountId as 1 | 2, "role-2-active"] });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toEqual({ count: 1, results: [{ name: row.name, type: "aws-iam", data: { aws_access_key_id: row.awsAccessKeyId, aws_secret_access_key: HIDDEN_SECRET_VALUE } }] });
      expect(reply.text).not.toContain(row.awsSecretAccessKey);
    }
    expectEnvelope(await api.call("GET", `${base(2)}/globex-sqs`), 404, "not_found");
  });

  it("makes, reads, replaces and deletes a secret, keeping the secret key encrypted and never showing it", async () => {
    const secretKey = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYTESTKEY1";
    const made = await api.call("POST", base(1), { body: { name: "test-sqs", type: "aws-iam", data: { aws_access_key_id: "AKIATESTKEY000000001", aws_secret_access_key: secretKey } } });
    expect(made.status, made.text).toBe(200);
    expect(made.body).toEqual({ name: "test-sqs", type: "aws-iam", data: { aws_access_key_id: "AKIATESTKEY000000001", aws_secret_access_key: HIDDEN_SECRET_VALUE } });
    expect(made.text).not.toContain(secretKey);
    const row = (await stored()).find((each) => each.name === "test-sqs")!;
    expect(await decryptSecret(api.database.secretsKey, row.aws_secret_access_key_encrypted)).toBe(secretKey);
    expect((await api.call("GET", `${base(1)}/test-sqs`)).body).toEqual(made.body);
    expectEnvelope(
      await expectRefusedUnchanged(() => api.call("POST", base(1), { body: { name: "test-sqs", type: "aws-iam", data: { aws_access_key_id: "AKIATESTKEY000000002", aws_secret_access_key: "x" } } })),
      409,
      "conflict",
    );

    const replaced = await api.call("PUT", `${base(1)}/test-sqs`, { body: { type: "aws-iam", data: { aws_access_key_id: "AKIATESTKEY000000003", aws_secret_access_key: "replaced-secret-key-value" } } });
    expect(replaced.body).toEqual({ name: "test-sqs", type: "aws-iam", data: { aws_access_key_id: "AKIATESTKEY000000003", aws_secret_access_key: HIDDEN_SECRET_VALUE } });
    expect(await decryptSecret(api.database.secretsKey, (await stored()).find((each) => each.name === "test-sqs")!.aws_secret_access_key_encrypted)).toBe("replaced-secret-key-value");

    // A trigger that names it holds it.
    const deployment = await api.call("POST", "/cloud/v3/inference/1/deployments", {
      body: {
        name: "sqs-scaled",
        image: "nginx:1.27",
        listening_port: 80,
        flavor_name: "inference-2vcpu-8gib-cpu",
        containers: [{ region_id: 1, scale: { min: 0, max: 3, triggers: { sqs: { activation_queue_length: 1, aws_region: "eu-west-1", queue_length: 5, queue_url: "https://sqs.eu-west-1.amazonaws.com/1/q", secret_name: "test-sqs" } } } }],
      },
    });
    expect(deployment.status, deployment.text).toBe(200);
    expect((await api.call("GET", "/cloud/v3/inference/1/deployments/sqs-scaled")).body.containers[0].scale.triggers.sqs).toEqual({
      activation_queue_length: 1,
      aws_endpoint: null,
      aws_region: "eu-west-1",
      queue_length: 5,
      queue_url: "https://sqs.eu-west-1.amazonaws.com/1/q",
      scale_on_delayed: false,
      scale_on_flight: false,
      secret_name: "test-sqs",
    });
    const held = expectEnvelope(await expectRefusedUnchanged(() => api.call("DELETE", `${base(1)}/test-sqs`)), 409, "conflict");
    expect(held.message).toContain("sqs-scaled");
    expect((await api.call("DELETE", "/cloud/v3/inference/1/deployments/sqs-scaled")).status).toBe(200);

    const deleted = await api.call("DELETE", `${base(1)}/test-sqs`);
    expect(deleted.status, deleted.text).toBe(204);
    expectEnvelope(await api.call("GET", `${base(1)}/test-sqs`), 404, "not_found");
  });

  it("refuses a body that fails the contract, naming each field, and echoes no secret key", async () => {
    const secretKey = "never-echo-this-secret-key-987";
    const reply = await expectRefusedUnchanged(() =>
      api.call("POST", base(1), { body: { name: "Bad", type: "gcp", data: { aws_access_key_id: "lower", aws_secret_access_key: secretKey, extra: 1 } } }),
    );
    expectEnvelope(reply, 400, "validation_error", ["name", "type", "data.aws_access_key_id", "data.extra"]);
    expect(reply.text).not.toContain(secretKey);
    expectEnvelope(await expectRefusedUnchanged(() => api.call("PUT", `${base(1)}/acme-sqs`, { body: { name: "x", type: "aws-iam" } })), 400, "validation_error", ["name", "data"]);
  });
});
