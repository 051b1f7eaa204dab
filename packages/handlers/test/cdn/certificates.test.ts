/**
 * Integration tests of SSL certificates (`/cdn/sslData`) and trusted CA certificates (`/cdn/sslCertificates`):
 * upload with the PEM's facts read, Let's Encrypt issuing and its status over time, renew and forced retry, the
 * filtered listing, replace, delete (409 while a resource uses one), and the private key never answered.
 */
import { ACME_CERTIFICATE_PEM, ACME_ORIGIN_CA_PEM, ACME_PRIVATE_KEY_PEM, DEMO_ISSUING_CA_PEM } from "@cloudplane/contract";
import { sql } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi } from "../harness.js";
import { OTHER_PRIVATE_KEY_PEM, RSA_CERTIFICATE_PEM, RSA_PRIVATE_KEY_PEM, TEST_CERTIFICATE_PEM, TEST_PRIVATE_KEY_PEM, TEST_PRIVATE_KEY_SEC1_PEM } from "./pems.js";

const TEST_CERTIFICATE = TEST_CERTIFICATE_PEM + DEMO_ISSUING_CA_PEM;

describe.each(engines())("SSL and CA certificates on %s", (engine) => {
  const api = useApi(engine);

  const upload = (body: Record<string, unknown>, account: 1 | 2 = 1) => api.call("POST", "/cdn/sslData", { body, as: [account, "role-1-active"] });

  /** Moves an automated certificate's latest attempt `seconds` into the past. */
  const age = (id: number, seconds: number) =>
    api.database.db.execute(sql`update certificates set le_started = le_started - make_interval(secs => ${seconds}) where id = ${id}`);

  describe("GET /cdn/sslData", () => {
    it("lists the account's SSL certificates by id, with the page links, without keys", async () => {
      const reply = await api.call("GET", "/cdn/sslData");
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toMatchObject({ count: 2, next: null, previous: null });
      expect(reply.body.results.map((item: { id: number }) => item.id)).toEqual([1, 5]);
      expect(reply.body.results[0]).toEqual({
        id: 1,
        name: "wildcard.acme.example",
        deleted: false,
        cert_issuer: "Demo Issuing CA R1",
        cert_subject_cn: "*.acme.example",
        cert_subject_alt: "*.acme.example,acme.example",
        validity_not_before: "2026-11-26T20:39:57.000Z",
        validity_not_after: "2027-12-31T20:39:57.000Z",
        hasRelatedResources: true,
        automated: false,
        sslCertificateChain: ACME_CERTIFICATE_PEM,
      });
      expect(reply.text).not.toContain("PRIVATE KEY");
    });

    it.each([
      ["automated=true", [5]],
      ["automated=false", [1]],
      ["resource_id=1", [1]],
      ["resource_id=3", []],
      ["resource_id=2", []],
      ["validity_not_after_lte=2027-12-31T20:39:57Z", [1]],
      ["validity_not_after_lte=2027-01-01T00:00:00Z", []],
      ["limit=1&offset=1", [5]],
    ])("filters by %s", async (query, ids) => {
      const reply = await api.call("GET", `/cdn/sslData?${query}`);
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body.results.map((item: { id: number }) => item.id)).toEqual(ids);
    });

    it("shows a certificate in use when a resource of the account serves HTTPS with it or connects to its origin with it", async () => {
      const used = async () =>
        ((await api.call("GET", "/cdn/sslData")).body.results as { id: number; hasRelatedResources: boolean }[]).map((item) => [item.id, item.hasRelatedResources]);
      expect(await used()).toEqual([
        [1, true],
        [5, false],
      ]);
      const [resource] = await selectRows<{ proxy_ssl_data_id: number | null }>(api.database.db, sql`select proxy_ssl_data_id from cdn_resources where id = 3`);
      await api.database.db.execute(sql`update cdn_resources set proxy_ssl_data_id = 5 where account_id = 1 and id = 3`);
      try {
        expect(await used()).toEqual([
          [1, true],
          [5, true],
        ]);
      } finally {
        await api.database.db.execute(sql`update cdn_resources set proxy_ssl_data_id = ${resource!.proxy_ssl_data_id} where id = 3`);
      }
      expect(await used()).toEqual([
        [1, true],
        [5, false],
      ]);
    });

    it("links the pages around", async () => {
      const reply = await api.call("GET", "/cdn/sslData?limit=1");
      expect(reply.body.count).toBe(2);
      expect(new URL(reply.body.next).searchParams.get("offset")).toBe("1");
      expect(reply.body.previous).toBeNull();
    });

    it.each([["automated=yes", "query.automated"], ["limit=0", "query.limit"], ["validity_not_after_lte=tomorrow", "query.validity_not_after_lte"], ["resource_id=x", "query.resource_id"]])(
      "answers 400 for %s",
      async (query, field) => {
        expectEnvelope(await api.call("GET", `/cdn/sslData?${query}`), 400, "validation_error", [field]);
      },
    );
  });

  describe("POST /cdn/sslData", () => {
    it("uploads a certificate: its facts read from the PEM, the key encrypted at rest and never answered", async () => {
      const reply = await upload({ name: "test-upload", sslCertificate: TEST_CERTIFICATE, sslPrivateKey: TEST_PRIVATE_KEY_SEC1_PEM, validate_root_ca: true });
      expect(reply.status, reply.text).toBe(201);
      expect(reply.body).toMatchObject({
        name: "test-upload",
        automated: false,
        cert_issuer: "Demo Issuing CA R1",
        cert_subject_cn: "cdn.test.example",
        cert_subject_alt: "cdn.test.example,img.test.example",
        hasRelatedResources: false,
        sslCertificateChain: TEST_CERTIFICATE,
      });
      expect(reply.text).not.toContain("PRIVATE KEY");
      expect((await api.call("GET", `/cdn/sslData/${reply.body.id}`)).body).toEqual(reply.body);
      const [key] = await selectRows<{ stored: string }>(api.database.db, sql`select private_key_encrypted as stored from certificate_keys where certificate_id = ${reply.body.id}`);
      expect(key!.stored).not.toContain("PRIVATE KEY");
      expect(key!.stored.length).toBeGreaterThan(100);
    });

    it.each([
      ["a PKCS#8 EC key", TEST_CERTIFICATE_PEM, TEST_PRIVATE_KEY_PEM],
      ["a PKCS#1 RSA key", RSA_CERTIFICATE_PEM, RSA_PRIVATE_KEY_PEM],
    ])("takes %s", async (_what, sslCertificate, sslPrivateKey) => {
      const reply = await upload({ name: `key-${sslPrivateKey.length}`, sslCertificate, sslPrivateKey });
      expect(reply.status, reply.text).toBe(201);
    });

    it.each([
      ["a text that is no PEM", { sslCertificate: "hello" }, "sslCertificate"],
      ["a key where the certificate goes", { sslCertificate: TEST_PRIVATE_KEY_PEM }, "sslCertificate"],
      ["a broken certificate", { sslCertificate: "-----BEGIN CERTIFICATE-----\nMIIBAAAA\n-----END CERTIFICATE-----" }, "sslCertificate"],
      ["another certificate's key", { sslPrivateKey: OTHER_PRIVATE_KEY_PEM }, "sslPrivateKey"],
      ["a certificate where the key goes", { sslPrivateKey: "-----BEGIN CERTIFICATE-----\nMIIBkey=\n-----END CERTIFICATE-----" }, "sslPrivateKey"],
      ["an RSA key for an EC certificate", { sslPrivateKey: RSA_PRIVATE_KEY_PEM }, "sslPrivateKey"],
      ["a self-signed certificate with validate_root_ca", { sslCertificate: RSA_CERTIFICATE_PEM, sslPrivateKey: RSA_PRIVATE_KEY_PEM, validate_root_ca: true }, "sslCertificate"],
      ["a chain out of order with validate_root_ca", { sslCertificate: DEMO_ISSUING_CA_PEM + TEST_CERTIFICATE_PEM, validate_root_ca: true }, "sslCertificate"],
      ["an unknown field", { id: 3 }, "id"],
      ["automated beside an upload", { automated: true }, "automated"],
    ])("answers 400 for %s, and keeps nothing", async (_what, fields, field) => {
      const before = await selectRows<{ total: number }>(api.database.db, sql`select count(*)::int as total from certificates`);
      const reply = await upload({ name: "refused", sslCertificate: TEST_CERTIFICATE, sslPrivateKey: TEST_PRIVATE_KEY_PEM, ...fields });
      expectEnvelope(reply, 400, "validation_error", [field]);
      expect(reply.text).not.toContain("PRIVATE KEY");
      expect(await selectRows(api.database.db, sql`select count(*)::int as total from certificates`)).toEqual(before);
    });

    it("answers 409 for a name the account's SSL certificates have, not for another account's", async () => {
      expectEnvelope(await upload({ name: "wildcard.acme.example", automated: true }), 409, "conflict");
      expect((await upload({ name: "www.globex.example", automated: true })).status).toBe(201);
      // A CA certificate's name is another kind's.
      expect((await upload({ name: "Acme origin CA", automated: true })).status).toBe(201);
    });
  });

  describe("Let's Encrypt issuing", () => {
    it("fails without a resource, retries on force-retry, and issues once a resource serves HTTPS with it", async () => {
      const made = await upload({ name: "le-issuing", automated: true });
      expect(made.status, made.text).toBe(201);
      const id = made.body.id as number;
      expect(made.body).toMatchObject({ automated: true, cert_issuer: null, validity_not_after: null, sslCertificateChain: null });

      let status = await api.call("GET", `/cdn/sslData/${id}/status`);
      expect(status.body).toMatchObject({ id, active: true, attempts_count: 1, finished: null, latest_status: null, statuses: [], resource: null });

      await age(id, 61);
      status = await api.call("GET", `/cdn/sslData/${id}/status`);
      expect(status.body).toMatchObject({ active: false, latest_status: { id: 1, status: "Failed", error: "NoResource" } });
      expect(status.body.statuses).toHaveLength(1);

      // Resource 3 (account 1's) serves HTTPS with it, then a retry issues it.
      const patched = await api.call("PATCH", "/cdn/resources/3", { body: { sslEnabled: true, sslData: id } });
      expect(patched.status, patched.text).toBe(200);
      expect((await api.call("POST", `/cdn/sslData/${id}/force-retry`)).status).toBe(204);
      // A second retry while the attempt is under way is that attempt.
      expect((await api.call("POST", `/cdn/sslData/${id}/force-retry`)).status).toBe(204);
      status = await api.call("GET", `/cdn/sslData/${id}/status?exclude=statuses&exclude=next_attempt_time`);
      expect(status.body).toMatchObject({ active: true, attempts_count: 2, resource: 3 });
      expect(status.body).not.toHaveProperty("statuses");
      expect(status.body).not.toHaveProperty("next_attempt_time");

      await age(id, 61);
      status = await api.call("GET", `/cdn/sslData/${id}/status`);
      expect(status.body.latest_status).toMatchObject({ id: 2, status: "Done", error: null });
      const issued = await api.call("GET", `/cdn/sslData/${id}`);
      expect(issued.body).toMatchObject({ cert_subject_cn: "downloads.acme.example", cert_issuer: "Let's Encrypt R11", hasRelatedResources: true });
      expect(Date.parse(issued.body.validity_not_after) - Date.parse(issued.body.validity_not_before)).toBe(90 * 86_400_000);

      // Issued: a forced retry is refused, a renew starts a third attempt.
      expectEnvelope(await api.call("POST", `/cdn/sslData/${id}/force-retry`), 409, "conflict");
      expect((await api.call("POST", `/cdn/sslData/${id}/renew`)).status).toBe(204);
      expect((await api.call("GET", `/cdn/sslData/${id}/status`)).body).toMatchObject({ active: true, attempts_count: 3 });

      // In use: the delete is refused, naming the resource.
      const refused = await api.call("DELETE", `/cdn/sslData/${id}`);
      expectEnvelope(refused, 409, "conflict");
      expect(refused.body.message).toContain("3");
      await api.call("PATCH", "/cdn/resources/3", { body: { sslEnabled: false, sslData: null } });
      expect((await api.call("DELETE", `/cdn/sslData/${id}`)).status).toBe(204);
      expectEnvelope(await api.call("GET", `/cdn/sslData/${id}`), 404, "not_found");
    });

    it("has no issuing for an uploaded certificate: status 404, renew and retry 409", async () => {
      expectEnvelope(await api.call("GET", "/cdn/sslData/1/status"), 404, "not_found");
      expectEnvelope(await api.call("POST", "/cdn/sslData/1/renew"), 409, "conflict");
      expectEnvelope(await api.call("POST", "/cdn/sslData/1/force-retry"), 409, "conflict");
    });

    it("answers 400 for an unknown excluded field", async () => {
      expectEnvelope(await api.call("GET", "/cdn/sslData/5/status?exclude=nope"), 400, "validation_error", ["query.exclude.0"]);
    });
  });

  describe("PUT and DELETE /cdn/sslData/{id}", () => {
    it("replaces the certificate and its key, and turns a Let's Encrypt one into an uploaded one", async () => {
      const made = await upload({ name: "le-replaced", automated: true });
      const reply = await api.call("PUT", `/cdn/sslData/${made.body.id}`, { body: { name: "replaced", sslCertificate: RSA_CERTIFICATE_PEM, sslPrivateKey: RSA_PRIVATE_KEY_PEM } });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toMatchObject({ id: made.body.id, name: "replaced", automated: false, cert_subject_cn: "rsa.test.example", cert_issuer: "rsa.test.example" });
      expectEnvelope(await api.call("GET", `/cdn/sslData/${made.body.id}/status`), 404, "not_found");
      expectEnvelope(
        await api.call("PUT", `/cdn/sslData/${made.body.id}`, { body: { name: "wildcard.acme.example", sslCertificate: RSA_CERTIFICATE_PEM, sslPrivateKey: RSA_PRIVATE_KEY_PEM } }),
        409,
        "conflict",
      );
      expectEnvelope(await api.call("PUT", `/cdn/sslData/${made.body.id}`, { body: { name: "x", sslCertificate: RSA_CERTIFICATE_PEM, sslPrivateKey: TEST_PRIVATE_KEY_PEM } }), 400, "validation_error", ["sslPrivateKey"]);
    });

    it("keeps another account's certificates out of reach (404)", async () => {
      for (const [method, path] of [["GET", "/cdn/sslData/2"], ["DELETE", "/cdn/sslData/2"], ["GET", "/cdn/sslData/6/status"], ["POST", "/cdn/sslData/6/renew"]] as const)
        expectEnvelope(await api.call(method, path), 404, "not_found");
      expectEnvelope(await api.call("PUT", "/cdn/sslData/2", { body: { name: "x", sslCertificate: ACME_CERTIFICATE_PEM, sslPrivateKey: ACME_PRIVATE_KEY_PEM } }), 404, "not_found");
      // A CA certificate is not an SSL certificate.
      expectEnvelope(await api.call("GET", "/cdn/sslData/3"), 404, "not_found");
    });

    it("deletes an unused certificate with its key", async () => {
      const made = await upload({ name: "to-delete", sslCertificate: TEST_CERTIFICATE, sslPrivateKey: TEST_PRIVATE_KEY_PEM });
      expect((await api.call("DELETE", `/cdn/sslData/${made.body.id}`)).status).toBe(204);
      expect(await selectRows(api.database.db, sql`select 1 from certificate_keys where certificate_id = ${made.body.id}`)).toEqual([]);
      expectEnvelope(await api.call("DELETE", "/cdn/sslData/1"), 409, "conflict");
    });
  });

  describe("/cdn/sslCertificates", () => {
    it("lists, creates, renames and deletes CA certificates; 409 while a resource verifies its origin with one", async () => {
      const list = await api.call("GET", "/cdn/sslCertificates");
      expect(list.status, list.text).toBe(200);
      expect(list.body.results.map((item: { id: number }) => item.id)).toEqual([3, 7]);
      expect(list.body.results[0]).toMatchObject({ name: "Acme origin CA", cert_subject_cn: "Acme Origin CA", hasRelatedResources: true, sslCertificateChain: ACME_ORIGIN_CA_PEM });
      expect((await api.call("GET", "/cdn/sslCertificates?resource_id=1")).body.results.map((item: { id: number }) => item.id)).toEqual([3]);
      expect((await api.call("GET", "/cdn/sslCertificates?automated=true")).body.count).toBe(0);

      const made = await api.call("POST", "/cdn/sslCertificates", { body: { name: "Test CA", sslCertificate: DEMO_ISSUING_CA_PEM } });
      expect(made.status, made.text).toBe(201);
      expect(made.body).toMatchObject({ name: "Test CA", cert_subject_cn: "Demo Issuing CA R1", cert_issuer: "Demo Issuing CA R1", hasRelatedResources: false });
      expectEnvelope(await api.call("POST", "/cdn/sslCertificates", { body: { name: "Test CA", sslCertificate: DEMO_ISSUING_CA_PEM } }), 409, "conflict");
      expectEnvelope(await api.call("POST", "/cdn/sslCertificates", { body: { name: "Bad CA", sslCertificate: "nope" } }), 400, "validation_error", ["sslCertificate"]);
      expectEnvelope(await api.call("POST", "/cdn/sslCertificates", { body: { name: "Keyed CA", sslCertificate: DEMO_ISSUING_CA_PEM, sslPrivateKey: "x" } }), 400, "validation_error", ["sslPrivateKey"]);

      const renamed = await api.call("PUT", `/cdn/sslCertificates/${made.body.id}`, { body: { name: "Renamed CA" } });
      expect(renamed.status, renamed.text).toBe(200);
      expect(renamed.body).toEqual({ ...made.body, name: "Renamed CA" });
      expectEnvelope(await api.call("PUT", `/cdn/sslCertificates/${made.body.id}`, { body: { name: "Acme origin CA" } }), 409, "conflict");
      expectEnvelope(await api.call("PUT", `/cdn/sslCertificates/${made.body.id}`, { body: { name: "x", sslCertificate: DEMO_ISSUING_CA_PEM } }), 400, "validation_error", ["sslCertificate"]);

      expectEnvelope(await api.call("DELETE", "/cdn/sslCertificates/3"), 409, "conflict");
      expect((await api.call("DELETE", `/cdn/sslCertificates/${made.body.id}`)).status).toBe(204);
      expectEnvelope(await api.call("GET", `/cdn/sslCertificates/${made.body.id}`), 404, "not_found");
      // Another account's, and an SSL certificate, are out of reach.
      expectEnvelope(await api.call("GET", "/cdn/sslCertificates/4"), 404, "not_found");
      expectEnvelope(await api.call("GET", "/cdn/sslCertificates/1"), 404, "not_found");
    });
  });
});
