/**
 * Integration tests of the SFTP storages at the current paths and the account's SSH keys on every engine:
 * the password (generated and shown once, or set, kept encrypted, never shown again), the SSH keys a
 * storage lets in (400 naming an unknown key, 409 deleting a key in use), changes and deletes.
 */
import { type SftpStorage, type SshKey } from "@cloudplane/contract";
import { sql } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi } from "../harness.js";

const SFTP = "/storage/v4/sftp_storages";
const KEYS = "/storage/v4/ssh_keys";
const PUBLIC_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB5d3e8Yk2Lm7Qp0Rs4Tv6Wx9Za1Bc3De5Fg7Hi9Jk0L test@acme.example";

describe.each(engines())("SFTP storages and SSH keys on %s", (engine) => {
  const api = useApi(engine);
  const call = (method: string, path: string, body?: unknown, as?: [1 | 2, "role-1-active" | "role-2-active"]) =>
    api.call(method, path, { ...(body === undefined ? {} : { body }), ...(as ? { as } : {}) });
  const storageRow = async (id: number) => (await selectRows<Record<string, unknown>>(api.database.db, sql`select * from storages where id = ${id}`))[0];

  it("makes SSH keys, lists them by name, shows one; a taken name, a bad key and another account's are refused", async () => {
    const made = await call("POST", KEYS, { name: "laptop", public_key: `  ${PUBLIC_KEY}\n` });
    expect(made.status, made.text).toBe(201);
    const key = made.body as SshKey;
    expect(key).toMatchObject({ name: "laptop", public_key: PUBLIC_KEY });
    expect((await call("GET", `${KEYS}/${key.id}`)).body).toEqual(key);
    const list = (await call("GET", `${KEYS}?name=LAP`)).body as { count: number; results: SshKey[] };
    expect(list).toEqual({ count: 1, results: [key] });
    expect(((await call("GET", `${KEYS}?order_by=-id&limit=1`)).body as { results: SshKey[] }).results).toEqual([key]);
    expect(((await call("GET", KEYS)).body as { results: SshKey[] }).results.map((entry) => entry.name)).toEqual(["acme-deploy", "laptop"]);
    expectEnvelope(await call("POST", KEYS, { name: "laptop", public_key: PUBLIC_KEY }), 409, "conflict");
    expectEnvelope(await call("POST", KEYS, { name: "", public_key: "-----BEGIN OPENSSH PRIVATE KEY-----", id: 4 }), 400, "validation_error", ["name", "public_key", "id"]);
    expectEnvelope(await call("GET", `${KEYS}/2`), 404, "not_found");
    expectEnvelope(await call("DELETE", `${KEYS}/2`), 404, "not_found");
    expectEnvelope(await call("POST", KEYS, { name: "user-key", public_key: PUBLIC_KEY }, [1, "role-2-active"]), 403, "permission_denied");
  });

  it("makes an SFTP storage with a generated password shown once and kept encrypted, with its SSH keys", async () => {
    const reply = await call("POST", SFTP, { name: "acme-drop", location_name: "fra", password_mode: "auto", ssh_key_ids: [1], server_alias: "Files.Acme.Example", expires: "30 days" });
    expect(reply.status, reply.text).toBe(201);
    const made = reply.body as SftpStorage;
    expect(made).toMatchObject({
      name: "acme-drop",
      full_name: "1-acme-drop",
      location_name: "fra",
      provisioning_status: "active",
      has_password: true,
      is_http_disabled: false,
      has_custom_config_file: false,
      server_alias: "files.acme.example",
      ssh_key_ids: [1],
    });
    expect(made.password).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(Math.abs(Date.parse(made.expires) - Date.now() - 30 * 86_400_000)).toBeLessThan(60_000);
    expect(JSON.stringify(await storageRow(made.id))).not.toContain(made.password!);
    const got = (await call("GET", `${SFTP}/${made.id}`)).body as SftpStorage;
    expect(got).toEqual({ ...made, password: null });
    const listed = await call("GET", `${SFTP}?name=acme-drop`);
    expect(listed.body).toEqual({ count: 1, results: [got] });
    expect(listed.text).not.toContain(made.password!);
    expect(api.logs.map((entry) => JSON.stringify(entry)).join("\n")).not.toContain(made.password!);
    // The older routes show it too, in their shape.
    expect((await call("GET", `/storage/provisioning/v1/storage/${made.id}`)).body).toMatchObject({ type: "sftp", server_alias: "files.acme.example" });
    // It is no object storage.
    expectEnvelope(await call("GET", `/storage/v4/object_storages/${made.id}`), 404, "not_found");
  });

  it("sets a password without echoing it; refuses bad bodies naming each field and changes nothing", async () => {
    const reply = await call("POST", SFTP, { name: "acme-set", location_name: "ams", password_mode: "set", sftp_password: "correct-horse-42" });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.text).not.toContain("correct-horse-42");
    expect(reply.body).toMatchObject({ has_password: true, ssh_key_ids: [], expires: "", server_alias: "", password: null });
    const before = await selectRows(api.database.db, sql`select count(*)::int as n from storages`);
    for (const [body, fields] of [
      [{ name: "a", location_name: "ams", password_mode: "set" }, ["sftp_password"]],
      [{ name: "a", location_name: "ams", password_mode: "none", sftp_password: "correct-horse-42" }, ["sftp_password"]],
      [{ name: "a", location_name: "s-ed1", password_mode: "magic" }, ["location_name", "password_mode"]],
      [{ name: "a", location_name: "ams", password_mode: "none", ssh_key_ids: [1, 2, 999] }, ["ssh_key_ids.1", "ssh_key_ids.2"]],
      [{ name: "a", location_name: "ams", password_mode: "none", expires: "yesterday", server_alias: "not a host", has_password: true }, ["expires", "server_alias", "has_password"]],
    ] as const) {
      const failed = await call("POST", SFTP, body);
      expectEnvelope(failed, 400, "validation_error", [...fields]);
      expect(failed.text).not.toContain("correct-horse-42");
    }
    expectEnvelope(await call("POST", SFTP, { name: "acme-set", location_name: "ams", password_mode: "none" }), 409, "conflict");
    expect(await selectRows(api.database.db, sql`select count(*)::int as n from storages`)).toEqual(before);
  });

  it("changes the fields given, regenerates or removes the password, replaces the SSH keys; a key in use cannot be deleted", async () => {
    const key = (await call("POST", KEYS, { name: "second", public_key: PUBLIC_KEY })).body as SshKey;
    const made = (await call("POST", SFTP, { name: "acme-change", location_name: "sin", password_mode: "none", ssh_key_ids: [1] })).body as SftpStorage;
    const changed = await call("PATCH", `${SFTP}/${made.id}`, { password_mode: "auto", ssh_key_ids: [key.id, 1], is_http_disabled: true, server_alias: "drop.acme.example" });
    expect(changed.status, changed.text).toBe(200);
    const body = changed.body as SftpStorage;
    expect(body).toMatchObject({ has_password: true, ssh_key_ids: [1, key.id], is_http_disabled: true, server_alias: "drop.acme.example" });
    expect(body.password).toMatch(/^[A-Za-z0-9]{20}$/);
    // A field at a time; the rest keep their values. Empty strings remove.
    const again = (await call("PATCH", `${SFTP}/${made.id}`, { server_alias: "", has_custom_config_file: true })).body as SftpStorage;
    expect(again).toEqual({ ...body, password: null, server_alias: "", has_custom_config_file: true });
    expect((await call("PATCH", `${SFTP}/${made.id}`, { password_mode: "none" })).body).toMatchObject({ has_password: false });

    // The key the storage lets in cannot be deleted: 409 naming the storage.
    const refused = expectEnvelope(await call("DELETE", `${KEYS}/${key.id}`), 409, "conflict");
    expect(refused.message).toContain(String(made.id));
    expect(((await call("PATCH", `${SFTP}/${made.id}`, { ssh_key_ids: [1] })).body as SftpStorage).ssh_key_ids).toEqual([1]);
    expect((await call("DELETE", `${KEYS}/${key.id}`)).status).toBe(204);
    expectEnvelope(await call("GET", `${KEYS}/${key.id}`), 404, "not_found");

    const row = await storageRow(made.id);
    expectEnvelope(await call("PATCH", `${SFTP}/${made.id}`, { password_mode: "set", sftp_password: "x", name: "y", ssh_key_ids: [2] }), 400, "validation_error", [
      "password_mode",
      "sftp_password",
      "name",
    ]);
    expectEnvelope(await call("PATCH", `${SFTP}/${made.id}`, { ssh_key_ids: [2] }), 400, "validation_error", ["ssh_key_ids.0"]);
    expect(await storageRow(made.id)).toEqual(row);
    // Another storage's alias is 409; another account's storage and an object storage are 404.
    const other = (await call("POST", SFTP, { name: "acme-other", location_name: "sin", password_mode: "none", server_alias: "taken.acme.example" })).body as SftpStorage;
    expectEnvelope(await call("PATCH", `${SFTP}/${made.id}`, { server_alias: "taken.acme.example" }), 409, "conflict");
    expectEnvelope(await call("PATCH", `${SFTP}/${other.id}`, { is_http_disabled: true }, [2, "role-1-active"]), 404, "not_found");
    expectEnvelope(await call("PATCH", `${SFTP}/1`, { is_http_disabled: true }), 404, "not_found");

    // Deleting the storage frees the key it let in.
    expect((await call("DELETE", `${SFTP}/${made.id}`)).status).toBe(204);
    expectEnvelope(await call("GET", `${SFTP}/${made.id}`), 404, "not_found");
    expectEnvelope(await call("DELETE", `${SFTP}/${made.id}`), 404, "not_found");
    expect(await selectRows(api.database.db, sql`select * from storage_ssh_key_links where storage_id = ${made.id}`)).toEqual([]);
    expectEnvelope(await call("DELETE", `${SFTP}/1`), 404, "not_found");
  });
});
