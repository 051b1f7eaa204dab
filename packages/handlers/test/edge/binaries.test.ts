/**
 * Integration tests of edge app binaries on every engine: the listing, get, the raw upload (api_type
 * read from the module, raw bytes only) and delete while apps or templates use them.
 */
import { createHash } from "node:crypto";
import type { EdgeApp, EdgeBinary, EdgeBinaryList } from "@cloudplane/contract";
import { demoFixture, sql, type DemoAccountId, type DemoRow, type DemoTokenName } from "@cloudplane/db";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi } from "../harness.js";
import { edgeHelpers } from "./shared.js";

const { edgeApps, edgeTemplates, edgeBinaries } = demoFixture;

type DemoEdgeBinary = DemoRow<"edgeBinaries">;

const ADMIN_2: [DemoAccountId, DemoTokenName] = [2, "role-1-active"];
const USER_1: [DemoAccountId, DemoTokenName] = [1, "role-2-active"];

function sha256(text: string | Uint8Array): string {
  return createHash("sha256").update(text).digest("hex");
}

/**
 * A WebAssembly module of version 1: a custom section (which readers skip), then an export section
 * naming `exports` (no code: enough for the API, which reads no further than the exports).
 */
function wasmModule(exports: string[] = [], padding = 0): Uint8Array<ArrayBuffer> {
  const header = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
  const custom = [0x00, 0x05, 0x04, ...Buffer.from("note")];
  const entries = exports.flatMap((name, index) => [name.length, ...Buffer.from(name), 0x00, index]);
  const exportSection = exports.length ? [0x07, entries.length + 1, exports.length, ...entries] : [];
  const bytes = new Uint8Array(header.length + custom.length + exportSection.length + padding);
  bytes.set([...header, ...custom, ...exportSection]);
  return bytes;
}

const binariesOf = (account: number | null) => edgeBinaries.filter((binary) => binary.accountId === account);

const appsOf = (account: number) => edgeApps.filter((app) => app.accountId === account);

/** The demo binary as the API shows it. */
function binaryView(binary: DemoEdgeBinary): EdgeBinary {
  const { id, apiType, status, source, checksum, unrefSince } = binary;
  return { id, api_type: apiType, status, source, checksum, unref_since: unrefSince };
}

/** A binary of account 1 that no app runs and no template uses. */
const unusedBinary = binariesOf(1).find(
  (binary) => !edgeApps.some((app) => app.binaryId === binary.id) && !edgeTemplates.some((template) => template.binaryId === binary.id),
)!;

describe.each(engines())("edge lifecycles on %s", (engine) => {
  const api = useApi(engine);

  const { rows, edgeCounts, expectNoContent, createApp, createTemplate } = edgeHelpers(api);






  /** Uploads `bytes` (a wasm module) as account 1's administrator, answered 201 with the binary. */
  async function uploadBinary(bytes: Uint8Array<ArrayBuffer>, path = "/edge/v1/binaries/raw"): Promise<EdgeBinary> {
    const reply = await api.call("POST", path, { body: bytes });
    expect(reply.status, reply.text).toBe(201);
    return reply.body as EdgeBinary;
  }

  describe("binaries", () => {
    it.each([1, 2] as const)("account %s lists its own binaries by id (not the platform's), paged", async (account) => {
      const as: [DemoAccountId, DemoTokenName] = [account, "role-1-active"];
      const own = binariesOf(account).sort((a, b) => a.id - b.id);
      expect((await api.call("GET", "/edge/v1/binaries", { as })).body).toEqual({ binaries: own.map(binaryView), count: own.length } satisfies EdgeBinaryList);
      expect((await api.call("GET", "/fastedge/v1/binaries?limit=1&offset=1", { as })).body).toEqual({ binaries: [binaryView(own[1]!)], count: own.length });
    });

    it("get shows one of the account's binaries; the platform's and the other account's are 404", async () => {
      for (const binary of binariesOf(1)) expect((await api.call("GET", `/edge/v1/binaries/${binary.id}`)).body).toEqual(binaryView(binary));
      expect(binariesOf(1).some((binary) => binary.status !== 1)).toBe(true);
      expectEnvelope(await api.call("GET", `/edge/v1/binaries/${binariesOf(null)[0]!.id}`), 404, "not_found");
      expectEnvelope(await api.call("GET", `/fastedge/v1/binaries/${binariesOf(2)[0]!.id}`), 404, "not_found");
    });

    it("upload → get → listed → an app runs it → delete 409 → delete the app → delete 204 → get 404", async () => {
      const bytes = wasmModule(["_start", "memory"]);
      const binary = await uploadBinary(bytes);
      expect(binary).toEqual({ id: expect.any(Number) as number, api_type: "wasi-http", status: 1, source: 0, checksum: sha256(bytes), unref_since: null });
      // The bytes are stored as they came, and never answered.
      const [stored] = await rows(sql`select account_id, content from edge_binaries where id = ${binary.id}`);
      expect(stored!.account_id).toBe(1);
      expect(Buffer.from(stored!.content as Uint8Array).equals(Buffer.from(bytes))).toBe(true);

      expect((await api.call("GET", `/edge/v1/binaries/${binary.id}`)).body).toEqual(binary);
      const listed = (await api.call("GET", "/edge/v1/binaries")).body as EdgeBinaryList;
      expect(listed.binaries.at(-1)).toEqual(binary);
      expect(listed.count).toBe(binariesOf(1).length + 1);

      const app = await createApp({ name: "runs-uploaded", binary: binary.id });
      expect(app).toMatchObject({ binary: binary.id, api_type: "wasi-http" });
      const inUse = await api.call("DELETE", `/edge/v1/binaries/${binary.id}`);
      expectEnvelope(inUse, 409, "conflict");
      expect(inUse.body.message).toContain("1 app(s)");
      expect((await api.call("GET", `/edge/v1/binaries/${binary.id}`)).status).toBe(200);

      expectNoContent(await api.call("DELETE", `/edge/v1/apps/${app.id}`));
      expect(((await api.call("GET", `/edge/v1/binaries/${binary.id}`)).body as EdgeBinary).unref_since).not.toBeNull();
      expectNoContent(await api.call("DELETE", `/edge/v1/binaries/${binary.id}`));
      expectEnvelope(await api.call("GET", `/edge/v1/binaries/${binary.id}`), 404, "not_found");
      expectEnvelope(await api.call("DELETE", `/edge/v1/binaries/${binary.id}`), 404, "not_found");
      expect(await rows(sql`select id from edge_binaries where id = ${binary.id}`)).toEqual([]);
    });

    it("a binary a template is made from is 409 to delete until the template goes; the /fastedge/v1 aliases upload and delete", async () => {
      const binary = await uploadBinary(wasmModule(), "/fastedge/v1/binaries/raw");
      const template = await createTemplate({ binary_id: binary.id, name: "From an upload", params: [] });
      expect(template.api_type).toBe(binary.api_type);
      const inUse = await api.call("DELETE", `/fastedge/v1/binaries/${binary.id}`);
      expectEnvelope(inUse, 409, "conflict");
      expect(inUse.body.message).toContain("1 template(s)");
      expectNoContent(await api.call("DELETE", `/edge/v1/template/${template.id}`));
      expectNoContent(await api.call("DELETE", `/fastedge/v1/binaries/${binary.id}`));
      expectEnvelope(await api.call("GET", `/fastedge/v1/binaries/${binary.id}`), 404, "not_found");
    });

    it("a binary an app is offered as an upgrade (upgradeable_to) is 409 to delete", async () => {
      const binary = await uploadBinary(wasmModule());
      const app = appsOf(1)[0]!;
      await api.database.db.execute(sql`update edge_apps set upgradeable_to = ${binary.id} where id = ${app.id}`);
      expectEnvelope(await api.call("DELETE", `/edge/v1/binaries/${binary.id}`), 409, "conflict");
      await api.database.db.execute(sql`update edge_apps set upgradeable_to = ${app.upgradeableTo} where id = ${app.id}`);
      expectNoContent(await api.call("DELETE", `/edge/v1/binaries/${binary.id}`));
    });

    it("the api_type is read from the module: proxy-wasm when it exports a proxy_ name, else wasi-http", async () => {
      const cases: [Uint8Array<ArrayBuffer>, EdgeBinary["api_type"]][] = [
        [wasmModule(["proxy_abi_version_0_2_1", "proxy_on_request_headers", "memory"]), "proxy-wasm"],
        [wasmModule(["memory", "proxy_on_context_create"]), "proxy-wasm"],
        [wasmModule(["_start", "memory", "wasi:http/incoming-handler"]), "wasi-http"],
        [wasmModule(["proxy"]), "wasi-http"],
        [wasmModule(), "wasi-http"],
        // A module cut short in its export section is read as far as it goes.
        [wasmModule(["proxy_on_tick"]).slice(0, 20), "wasi-http"],
      ];
      for (const [bytes, apiType] of cases) {
        const binary = await uploadBinary(bytes);
        expect(binary.api_type, Buffer.from(bytes).toString("hex")).toBe(apiType);
        expectNoContent(await api.call("DELETE", `/edge/v1/binaries/${binary.id}`));
      }
    });

    it.each([
      ["no bytes", new Uint8Array(0), "Must not be empty"],
      ["text", new Uint8Array(Buffer.from("hello, world")), "magic"],
      ["too short for the magic", new Uint8Array([0x00, 0x61, 0x73]), "magic"],
      ["the magic alone", new Uint8Array([0x00, 0x61, 0x73, 0x6d]), "version 1"],
      ["a component (version 0x0d)", new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x0d, 0x00, 0x01, 0x00]), "version 1"],
      ["version 2", new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x02, 0x00, 0x00, 0x00]), "version 1"],
    ])("%s is 400 naming body, and nothing is stored", async (_what, bytes, message) => {
      const before = await edgeCounts();
      const reply = await api.call("POST", "/edge/v1/binaries/raw", { rawBody: bytes, headers: { "content-type": "application/octet-stream" } });
      expectEnvelope(reply, 400, "validation_error", ["body"]);
      expect(reply.body.errors!.body!.join(" ")).toContain(message);
      expect(await edgeCounts()).toEqual(before);
    });

    it("takes raw bytes only: a JSON body, text or no content type is 415 (nothing stored); a body over 1 MiB is 413", async () => {
      const before = await edgeCounts();
      // JSON is the wrong type here, whatever it holds: 415, not 400.
      expectEnvelope(await api.call("POST", "/edge/v1/binaries/raw", { body: { binary: "AGFzbQEAAAA=" } }), 415, "unsupported_media_type");
      expectEnvelope(await api.call("POST", "/fastedge/v1/binaries/raw", { body: { binary: "AGFzbQEAAAA=" } }), 415, "unsupported_media_type");
      expectEnvelope(await api.call("POST", "/edge/v1/binaries/raw", { rawBody: "\0asm", headers: { "content-type": "text/plain" } }), 415, "unsupported_media_type");
      expectEnvelope(await api.call("POST", "/edge/v1/binaries/raw", { rawBody: wasmModule(), headers: { "content-type": "application/wasm" } }), 415, "unsupported_media_type");
      expectEnvelope(await api.call("POST", "/edge/v1/binaries/raw", { rawBody: wasmModule() }), 415, "unsupported_media_type");
      expectEnvelope(await api.call("POST", "/edge/v1/binaries/raw", { body: wasmModule([], 1024 * 1024) }), 413, "payload_too_large");
      expect(await edgeCounts()).toEqual(before);
      // The content type's case and parameters do not matter.
      const binary = await uploadBinary(wasmModule());
      const typed = await api.call("POST", "/edge/v1/binaries/raw", { rawBody: wasmModule(), headers: { "content-type": "Application/Octet-Stream; charset=binary" } });
      expect(typed.status, typed.text).toBe(201);
      for (const id of [binary.id, (typed.body as EdgeBinary).id]) expectNoContent(await api.call("DELETE", `/edge/v1/binaries/${id}`));
    });

    it("every other route still takes JSON only: raw bytes to a JSON route are 415 and change nothing", async () => {
      const before = await edgeCounts();
      expectEnvelope(await api.call("POST", "/edge/v1/secrets", { body: wasmModule() }), 415, "unsupported_media_type");
      expectEnvelope(await api.call("PATCH", `/edge/v1/apps/${appsOf(1)[0]!.id}`, { body: wasmModule() }), 415, "unsupported_media_type");
      // An unknown path below the upload's is held to JSON too.
      expectEnvelope(await api.call("POST", "/edge/v1/binaries/raw/more", { body: wasmModule() }), 415, "unsupported_media_type");
      expect(await edgeCounts()).toEqual(before);
    });

    it("the other account's binary and the platform's are 404 to delete, and stay; Users may neither upload nor delete", async () => {
      for (const binary of [binariesOf(2)[0]!, binariesOf(null)[0]!]) {
        expectEnvelope(await api.call("DELETE", `/edge/v1/binaries/${binary.id}`), 404, "not_found");
        expect(await rows(sql`select id from edge_binaries where id = ${binary.id}`)).toEqual([{ id: binary.id }]);
      }
      const before = await edgeCounts();
      expectEnvelope(await api.call("POST", "/edge/v1/binaries/raw", { as: USER_1, body: wasmModule() }), 403, "permission_denied");
      expectEnvelope(await api.call("DELETE", `/edge/v1/binaries/${unusedBinary.id}`, { as: USER_1 }), 403, "permission_denied");
      expect(await edgeCounts()).toEqual(before);
      // Account 2's upload is its own.
      const theirs = await api.call("POST", "/edge/v1/binaries/raw", { as: ADMIN_2, body: wasmModule() });
      expect(theirs.status, theirs.text).toBe(201);
      const id = (theirs.body as EdgeBinary).id;
      expectEnvelope(await api.call("GET", `/edge/v1/binaries/${id}`), 404, "not_found");
      expectEnvelope(await api.call("DELETE", `/edge/v1/binaries/${id}`), 404, "not_found");
      expectNoContent(await api.call("DELETE", `/edge/v1/binaries/${id}`, { as: ADMIN_2 }));
    });

    it("a delete racing an app that takes the binary ends in 204 and 400, or 409 and 200, never a 5xx", async () => {
      for (let round = 0; round < 5; round += 1) {
        const binary = await uploadBinary(wasmModule());
        const [deleted, made] = await Promise.all([
          api.call("DELETE", `/edge/v1/binaries/${binary.id}`),
          api.call("POST", "/edge/v1/apps", { body: { name: `raced-binary-${round}`, binary: binary.id } }),
        ]);
        expect([deleted.status, made.status], `${deleted.text} ${made.text}`).toSatisfy(
          ([del, create]: number[]) => (del === 204 && create === 400) || (del === 409 && create === 200),
        );
        if (made.status === 200) {
          expectNoContent(await api.call("DELETE", `/edge/v1/apps/${(made.body as EdgeApp).id}`));
          expectNoContent(await api.call("DELETE", `/edge/v1/binaries/${binary.id}`));
        }
      }
    });
  });
});
