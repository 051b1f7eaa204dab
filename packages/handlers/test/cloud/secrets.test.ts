/**
 * Integration tests of the Cloud secrets: a project's TLS certificates in a region, listed and read
 * without their payload, uploaded and deleted with the tasks they answer, and refused writes that change
 * nothing; the private key is stored encrypted and never answered.
 */
import { DEMO_SSL_CERTIFICATES } from "@cloudplane/contract";
import { demoFixture, sql, type DemoRow } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi, type Reply } from "../harness.js";

const { cloudSecrets: secrets, cloudProjects: projects } = demoFixture;
const NO_SUCH_UUID = "00000000-0000-4000-8000-000000000000";
const acme = DEMO_SSL_CERTIFICATES.acme;
const globex = DEMO_SSL_CERTIFICATES.globex;

function shown(secret: DemoRow<"cloudSecrets">) {
  return {
    id: secret.id,
    name: secret.name,
    secret_type: secret.secretType,
    status: secret.status,
    algorithm: secret.algorithm,
    bit_length: secret.bitLength,
    mode: secret.mode,
    content_types: secret.contentTypes,
    created: secret.created,
    expiration: secret.expiration,
  };
}

const listPath = (project: number, region: number) => `/cloud/v1/secrets/${project}/${region}`;
const uploadPath = (project: number, region: number) => `/cloud/v2/secrets/${project}/${region}`;
const ours = secrets.find((secret) => secret.accountId === 1)!;
const theirs = secrets.find((secret) => secret.accountId === 2)!;
const upload = { name: "shop-acme-example-tls", payload: { certificate: acme.pem, certificate_chain: "", private_key: acme.key }, expiration: "2030-01-01T00:00:00Z" };

describe.each(engines())("cloud secrets on %s", (engine) => {
  const api = useApi(engine);

  const stored = async () => ({
    secrets: await selectRows(api.database.db, sql`select * from cloud_secrets order by id`),
    tasks: await selectRows(api.database.db, sql`select * from cloud_tasks order by id`),
  });

  async function expectRefusedUnchanged(send: () => Promise<Reply>): Promise<Reply> {
    const before = await stored();
    const reply = await send();
    expect(reply.status, reply.text).toBeGreaterThanOrEqual(400);
    expect(await stored()).toEqual(before);
    return reply;
  }

  it("lists and answers each account's secrets, and 404 for another account's project or secret", async () => {
    for (const secret of [ours, theirs]) {
      const as = [secret.accountId as 1 | 2, "role-2-active"] as [1 | 2, "role-2-active"];
      const list = await api.call("GET", listPath(secret.projectId, secret.regionId), { as });
      expect(list.status, list.text).toBe(200);
      expect(list.body).toEqual({ count: 1, results: [shown(secret)] });
      const one = await api.call("GET", `${listPath(secret.projectId, secret.regionId)}/${secret.id}`, { as });
      expect(one.body).toEqual(shown(secret));
    }
    expectEnvelope(await api.call("GET", listPath(theirs.projectId, theirs.regionId)), 404, "not_found");
    expectEnvelope(await api.call("GET", `${listPath(theirs.projectId, theirs.regionId)}/${theirs.id}`), 404, "not_found");
    // Our secret at another region of the project, or an unknown id: 404.
    expectEnvelope(await api.call("GET", `${listPath(ours.projectId, 2)}/${ours.id}`), 404, "not_found");
    expectEnvelope(await api.call("GET", `${listPath(ours.projectId, ours.regionId)}/${NO_SUCH_UUID}`), 404, "not_found");
    expectEnvelope(await api.call("GET", `${listPath(ours.projectId, 999)}`), 404, "not_found");
    expect((await api.call("GET", listPath(3, 1))).body).toEqual({ count: 0, results: [] });
  });

  it("uploads a certificate, answering the task named as the secret, then lists, pages and deletes it with a task", async () => {
    const reply = await api.call("POST", uploadPath(ours.projectId, ours.regionId), { body: upload, as: [1, "role-5-active"] });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toEqual({ tasks: [expect.stringMatching(/^[0-9a-f-]{36}$/)] });
    const [secretId] = reply.body.tasks as string[];
    const task = await api.call("GET", `/cloud/v1/tasks/${secretId}`);
    expect(task.body).toMatchObject({ task_type: "create_secret", state: "RUNNING", project_id: ours.projectId, region_id: ours.regionId, created_resources: { secrets: [secretId] }, data: { name: upload.name } });

    const secret = await api.call("GET", `${listPath(ours.projectId, ours.regionId)}/${secretId}`);
    expect(secret.body).toEqual({
      id: secretId,
      name: upload.name,
      secret_type: "certificate",
      status: "ACTIVE",
      algorithm: null,
      bit_length: null,
      mode: null,
      content_types: { default: "text/plain" },
      created: task.body.created_on,
      expiration: "2030-01-01T00:00:00.000Z",
    });
    // Ordered by name: the new one ("shop-…") before the demo one ("www-…").
    const list = await api.call("GET", `${listPath(ours.projectId, ours.regionId)}?limit=1&offset=1`);
    expect(list.body).toEqual({ count: 2, results: [shown(ours)] });
    // The key is kept encrypted: not in any row, nor in any answer.
    const keyBody = acme.key.split("\n")[1]!;
    expect(JSON.stringify(await stored())).not.toContain(keyBody);
    expect(reply.text + secret.text + list.text).not.toContain("PRIVATE KEY");

    const deleted = await api.call("DELETE", `${listPath(ours.projectId, ours.regionId)}/${secretId}`);
    expect(deleted.status, deleted.text).toBe(200);
    const deleteTask = await api.call("GET", `/cloud/v1/tasks/${deleted.body.tasks[0]}`);
    expect(deleteTask.body).toMatchObject({ task_type: "delete_secret", created_resources: null, data: { secret_id: secretId } });
    expectEnvelope(await api.call("GET", `${listPath(ours.projectId, ours.regionId)}/${secretId}`), 404, "not_found");
    expectEnvelope(await api.call("DELETE", `${listPath(ours.projectId, ours.regionId)}/${secretId}`), 404, "not_found");
  });

  it("takes an upload without expiration or with a zone-less time (UTC)", async () => {
    const never = await api.call("POST", uploadPath(3, 2), { body: { ...upload, expiration: undefined } });
    expect(never.status, never.text).toBe(200);
    expect((await api.call("GET", `${listPath(3, 2)}/${never.body.tasks[0]}`)).body.expiration).toBeNull();
    const local = await api.call("POST", uploadPath(3, 2), { body: { ...upload, expiration: "2031-06-01T12:00:00" } });
    expect((await api.call("GET", `${listPath(3, 2)}/${local.body.tasks[0]}`)).body.expiration).toBe("2031-06-01T12:00:00.000Z");
  });

  describe("refused writes change nothing", () => {
    it.each<[string, Record<string, unknown>, string[]]>([
      ["no name", { payload: upload.payload }, ["name"]],
      ["no payload", { name: "x" }, ["payload"]],
      ["an empty certificate", { name: "x", payload: { ...upload.payload, certificate: "" } }, ["payload.certificate"]],
      ["a certificate that is no PEM", { name: "x", payload: { ...upload.payload, certificate: "hello" } }, ["payload.certificate"]],
      ["another certificate's key", { name: "x", payload: { ...upload.payload, private_key: globex.key } }, ["payload.private_key"]],
      ["a chain that is no PEM", { name: "x", payload: { ...upload.payload, certificate_chain: "nope" } }, ["payload.certificate_chain"]],
      ["a past expiration", { ...upload, expiration: "2020-01-01T00:00:00Z" }, ["expiration"]],
      ["an expiration that is no time", { ...upload, expiration: "soon" }, ["expiration"]],
      ["an unknown payload field", { name: "x", payload: { ...upload.payload, passphrase: "p" } }, ["payload.passphrase"]],
      ["a read-only field", { ...upload, status: "ACTIVE" }, ["status"]],
    ])("upload with %s: 400 naming the field", async (_what, body, fields) => {
      const reply = await expectRefusedUnchanged(() => api.call("POST", uploadPath(ours.projectId, ours.regionId), { body }));
      expectEnvelope(reply, 400, "validation_error", fields);
      expect(reply.text).not.toContain("PRIVATE KEY");
    });

    it("answers 404 for another account's project, an unknown region or secret; 403 for readers", async () => {
      const theirProject = projects.find((project) => project.accountId === 2)!;
      for (const path of [uploadPath(theirProject.id, 1), uploadPath(1, 999)])
        expectEnvelope(await expectRefusedUnchanged(() => api.call("POST", path, { body: upload })), 404, "not_found");
      expectEnvelope(await expectRefusedUnchanged(() => api.call("DELETE", `${listPath(theirs.projectId, theirs.regionId)}/${theirs.id}`)), 404, "not_found");
      for (const token of ["role-2-active", "role-3022-active"] as const) {
        expectEnvelope(await expectRefusedUnchanged(() => api.call("POST", uploadPath(1, 1), { body: upload, as: [1, token] })), 403, "permission_denied");
        expectEnvelope(await expectRefusedUnchanged(() => api.call("DELETE", `${listPath(ours.projectId, ours.regionId)}/${ours.id}`, { as: [1, token] })), 403, "permission_denied");
      }
    });
  });
});
