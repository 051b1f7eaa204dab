/**
 * The concurrency walk: parallel creates, updates and deletes of objects that refer to one another
 * (edge apps, templates and their binaries, apps and their secrets, CDN resources and their origin
 * groups, streams and their CDN resources), each expecting exactly the answers some serial order of the same requests would give:
 * one winner per name, 409 where the serial loser would get it, never a 500 (a deadlock, 40P01, or a
 * foreign key that failed, 23503). PGlite runs one statement at a time; PostgreSQL runs them at once.
 */
import { sql } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi, type Reply } from "./harness.js";

/** A WebAssembly module of version 1 with no sections: a wasi-http binary, `salt` bytes of a custom section making each one distinct. */
function wasmModule(salt: number): Uint8Array<ArrayBuffer> {
  const note = new TextEncoder().encode(`walk-${salt}`);
  return new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x00, note.length + 1, note.length, ...note]);
}

const statuses = (replies: Reply[]) => replies.map((reply) => reply.status);

describe.each(engines())("concurrency walk on %s", (engine) => {
  const api = useApi(engine);

  const uploadBinary = async (salt: number): Promise<number> => {
    const reply = await api.call("POST", "/edge/v1/binaries/raw", { body: wasmModule(salt) });
    expect(reply.status, reply.text).toBe(201);
    return reply.body.id as number;
  };
  const unrefSince = async (binary: number) =>
    (await selectRows<{ unref: Date | string | null }>(api.database.db, sql`select unref_since as unref from edge_binaries where id = ${binary}`))[0]!.unref;

  it("edge apps: 8 creates naming one binary all succeed, 20 creates of one name have one winner and 19 × 409", async () => {
    const binary = await uploadBinary(1);
    const distinct = await Promise.all(Array.from({ length: 8 }, (_, n) => api.call("POST", "/edge/v1/apps", { body: { name: `race-${n}`, binary } })));
    expect(statuses(distinct), distinct.map((reply) => reply.text).join("\n")).toEqual(Array.from({ length: 8 }, () => 200));
    expect(new Set(distinct.map((reply) => reply.body.id)).size).toBe(8);
    expect(await unrefSince(binary)).toBeNull();

    const same = await Promise.all(Array.from({ length: 20 }, () => api.call("POST", "/edge/v1/apps", { body: { name: "race-same", binary } })));
    expect(statuses(same).filter((status) => status === 200)).toHaveLength(1);
    for (const reply of same) if (reply.status !== 200) expectEnvelope(reply, 409, "conflict");
    expect(await selectRows(api.database.db, sql`select count(*)::int as apps from edge_apps where name = 'race-same'`)).toEqual([{ apps: 1 }]);
  });

  it("edge apps: apps swapping two binaries at once, and deletes racing creates, all succeed and leave each binary's use right", async () => {
    const [first, second] = [await uploadBinary(2), await uploadBinary(3)];
    const made = await Promise.all(
      Array.from({ length: 6 }, (_, n) => api.call("POST", "/edge/v1/apps", { body: { name: `swap-${n}`, binary: n % 2 ? second : first } })),
    );
    expect(statuses(made)).toEqual(Array.from({ length: 6 }, () => 200));
    // Each app moves to the other binary, all at once, twice: every write locks both binaries.
    for (let round = 0; round < 2; round++) {
      const swapped = await Promise.all(
        made.map((reply, n) => api.call("PATCH", `/edge/v1/apps/${reply.body.id}`, { body: { binary: (n + round) % 2 ? first : second } })),
      );
      expect(statuses(swapped), swapped.map((reply) => reply.text).join("\n")).toEqual(Array.from({ length: 6 }, () => 200));
    }
    // The apps on `first` are deleted while new ones are made on it: it stays in use.
    const onFirst = made.filter((_, n) => n % 2 === 0);
    const raced = await Promise.all([
      ...onFirst.map((reply) => api.call("DELETE", `/edge/v1/apps/${reply.body.id}`)),
      ...onFirst.map((_, n) => api.call("POST", "/edge/v1/apps", { body: { name: `swap-new-${n}`, binary: first } })),
    ]);
    expect(statuses(raced), raced.map((reply) => reply.text).join("\n")).toEqual([...onFirst.map(() => 204), ...onFirst.map(() => 200)]);
    expect(await unrefSince(first)).toBeNull();
    // Every app on `second` deleted at once: it is unused from then on.
    const onSecond = made.filter((_, n) => n % 2 === 1);
    const deleted = await Promise.all(onSecond.map((reply) => api.call("DELETE", `/edge/v1/apps/${reply.body.id}`)));
    expect(statuses(deleted)).toEqual(onSecond.map(() => 204));
    expect(await unrefSince(second)).not.toBeNull();
  });

  it("edge apps: a create naming a binary that is being deleted answers as one order or the other", async () => {
    for (let round = 0; round < 5; round++) {
      const binary = await uploadBinary(100 + round);
      const [created, deleted] = await Promise.all([
        api.call("POST", "/edge/v1/apps", { body: { name: `orphan-${round}`, binary } }),
        api.call("DELETE", `/edge/v1/binaries/${binary}`),
      ]);
      if (created.status === 200) {
        // The create came first: the binary is in use.
        expectEnvelope(deleted, 409, "conflict");
      } else {
        expect(deleted.status, deleted.text).toBe(204);
        expectEnvelope(created, 400, "validation_error", { binary: [expect.any(String)] });
      }
    }
  });

  it("edge: a template made from a binary being deleted, and an app given a secret being deleted, answer as one order or the other", async () => {
    for (let round = 0; round < 5; round++) {
      const binary = await uploadBinary(200 + round);
      const [template, deleted] = await Promise.all([
        api.call("POST", "/edge/v1/template", { body: { name: `walk-template-${round}`, binary_id: binary, params: [] } }),
        api.call("DELETE", `/edge/v1/binaries/${binary}`),
      ]);
      if (template.status === 200) expectEnvelope(deleted, 409, "conflict");
      else {
        expect(deleted.status, deleted.text).toBe(204);
        expectEnvelope(template, 400, "validation_error", { binary_id: ["Must be a binary of the account."] });
      }
    }
    const app = await api.call("POST", "/edge/v1/apps", { body: { name: "walk-secrets", binary: await uploadBinary(300) } });
    expect(app.status, app.text).toBe(200);
    for (let round = 0; round < 5; round++) {
      const secret = await api.call("POST", "/edge/v1/secrets", { body: { name: `walk-secret-${round}`, secret_slots: [{ slot: 0, value: `walk-${round}` }] } });
      expect(secret.status, secret.text).toBe(200);
      const [given, deleted] = await Promise.all([
        api.call("PATCH", `/edge/v1/apps/${app.body.id}`, { body: { secrets: { WALK: { id: secret.body.id } } } }),
        api.call("DELETE", `/edge/v1/secrets/${secret.body.id}?force=true`),
      ]);
      // The delete answers 204 either way (force takes the secret out of the app); the app keeps no secret that is gone.
      expect(deleted.status, deleted.text).toBe(204);
      if (given.status !== 200) expectEnvelope(given, 400, "validation_error", { "secrets.WALK.id": ["Must be a secret of the account."] });
      const links = await selectRows(api.database.db, sql`select secret_id from edge_app_secrets where app_id = ${app.body.id}`);
      expect(links).toEqual([]);
    }
  });

  const createGroup = async (name: string): Promise<number> => {
    const reply = await api.call("POST", "/cdn/origin_groups", { body: { name, sources: [{ source: "origin.walk.example" }] } });
    expect(reply.status, reply.text).toBe(201);
    return reply.body.id as number;
  };
  let serial = 0;
  const createResource = (originGroup: number) =>
    api.call("POST", "/cdn/resources", { body: { cname: `walk-${engine}-${serial++}.cdn-walk.example`, originGroup, active: false } });

  it("CDN resources: a create naming an origin group that is being deleted answers as one order or the other", async () => {
    for (let round = 0; round < 10; round++) {
      const group = await createGroup(`walk-group-${round}`);
      const [created, deleted] = await Promise.all([createResource(group), api.call("DELETE", `/cdn/origin_groups/${group}`)]);
      if (created.status === 201) {
        expectEnvelope(deleted, 409, "conflict");
        expect(deleted.body.message).toContain(`(${created.body.id})`);
      } else {
        expect(deleted.status, deleted.text).toBe(204);
        expectEnvelope(created, 400, "validation_error", { originGroup: ["Must be an origin group of the account."] });
      }
    }
  });

  it("streams: a CDN resource a stream names is not deleted (409) until the stream lets it go, and a race answers as one order or the other", async () => {
    const group = await createGroup("walk-streams");
    const resource = await createResource(group);
    expect(resource.status, resource.text).toBe(201);
    const stream = await api.call("POST", "/streaming/streams", { body: { name: "walk-stream", cdn_id: resource.body.id } });
    expect(stream.status, stream.text).toBe(201);
    const refused = await api.call("DELETE", `/cdn/resources/${resource.body.id}`);
    expectEnvelope(refused, 409, "conflict");
    expect(refused.body.message).toContain(`delivers streams (${stream.body.id})`);
    expect((await api.call("GET", `/streaming/streams/${stream.body.id}`)).body.cdn_id).toBe(resource.body.id);
    expect((await api.call("GET", `/cdn/resources/${resource.body.id}`)).status).toBe(200);
    const released = await api.call("PATCH", `/streaming/streams/${stream.body.id}`, { body: { stream: { cdn_id: null } } });
    expect(released.status, released.text).toBe(200);
    expect((await api.call("DELETE", `/cdn/resources/${resource.body.id}`)).status).toBe(204);

    for (let round = 0; round < 10; round++) {
      const raced = await createResource(group);
      expect(raced.status, raced.text).toBe(201);
      const [created, deleted] = await Promise.all([
        api.call("POST", "/streaming/streams", { body: { name: `walk-race-${round}`, cdn_id: raced.body.id } }),
        api.call("DELETE", `/cdn/resources/${raced.body.id}`),
      ]);
      if (created.status === 201) {
        expectEnvelope(deleted, 409, "conflict");
        expect((await api.call("GET", `/cdn/resources/${raced.body.id}`)).status).toBe(200);
      } else {
        expect(deleted.status, deleted.text).toBe(204);
        expectEnvelope(created, 400, "validation_error", { cdn_id: ["Must be a CDN resource of the account."] });
      }
    }
    // No stream names a resource that is gone.
    const orphans = await selectRows(
      api.database.db,
      sql`select s.id from streams s where s.cdn_id is not null and not exists (select 1 from cdn_resources r where r.account_id = s.account_id and r.id = s.cdn_id)`,
    );
    expect(orphans).toEqual([]);
  });
});
