/**
 * An edge binary's upload through the client, against the real handler: the bytes go as they are
 * (application/octet-stream, never JSON), from a Uint8Array, an ArrayBuffer or a Blob, and what is
 * not a WebAssembly module comes back as the validation error it is.
 */
import { createHash } from "node:crypto";
import { sql } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { BadRequestError, ConflictError, NotFoundError } from "../src/index.js";
import { engines, useClientApi } from "./api.js";

/** A WebAssembly module of version 1 exporting `exports`, with bytes that are no UTF-8 in a custom section. */
function wasmModule(exports: string[] = []): Uint8Array<ArrayBuffer> {
  const header = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
  const custom = [0x00, 0x04, 0x01, 0x78, 0xff, 0xfe];
  const entries = exports.flatMap((name, index) => [name.length, ...Buffer.from(name), 0x00, index]);
  const exportSection = exports.length ? [0x07, entries.length + 1, exports.length, ...entries] : [];
  return Uint8Array.from([...header, ...custom, ...exportSection]);
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

describe.each(engines())("edge binaries through the client on %s", (engine) => {
  const api = useClientApi(engine);

  it("uploads a Uint8Array, an ArrayBuffer and a Blob as their bytes (application/octet-stream), and deletes them", async () => {
    const { client } = api;
    const bytes = wasmModule(["proxy_on_request_headers", "memory"]);
    const sent: Array<{ type: string | null; body: Uint8Array }> = [];
    const recording = api.clientFor([1, "role-1-active"], {
      fetch: async (input, init) => {
        const request = new Request(input, init);
        sent.push({ type: request.headers.get("content-type"), body: new Uint8Array(await request.clone().arrayBuffer()) });
        return api.handler(request);
      },
    });
    for (const body of [bytes, bytes.buffer.slice(0), new Blob([bytes], { type: "text/plain" })]) {
      const binary = await recording.edge.binaries.upload(body);
      expect(binary).toEqual({ id: expect.any(Number) as number, api_type: "proxy-wasm", status: 1, source: 0, checksum: sha256(bytes), unref_since: null });
      const [row] = await selectRows<{ content: Uint8Array }>(api.database.db, sql`select content from edge_binaries where id = ${binary.id}`);
      expect(Buffer.from(row!.content).equals(Buffer.from(bytes))).toBe(true);
      expect(await client.edge.binaries.get(binary.id)).toEqual(binary);
      expect(await client.edge.binaries.delete(binary.id)).toBeUndefined();
      await expect(client.edge.binaries.get(binary.id)).rejects.toBeInstanceOf(NotFoundError);
    }
    expect(sent.map(({ type }) => type)).toEqual(["application/octet-stream", "application/octet-stream", "application/octet-stream"]);
    for (const { body } of sent) expect(Buffer.from(body).equals(Buffer.from(bytes))).toBe(true);
  });

  it("uploads through client.request by the route's id too, and a JSON route still gets JSON", async () => {
    const { client } = api;
    const binary = await client.request("edge.uploadBinary", { body: wasmModule() });
    expect(binary.api_type).toBe("wasi-http");
    const app = await client.edge.apps.create({ name: "client-runs-upload", binary: binary.id });
    expect(await client.edge.apps.update(app.id, { comment: "patched" })).toEqual({ ...app, comment: "patched" });
    await expect(client.edge.binaries.delete(binary.id)).rejects.toBeInstanceOf(ConflictError);
    await client.edge.apps.delete(app.id);
    await client.request("edge.deleteBinary", { params: { id: binary.id } });
  });

  it("answers bytes that are no WebAssembly module with a BadRequestError naming the body", async () => {
    const error = await api.client.edge.binaries.upload(new TextEncoder().encode("not wasm")).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).errors).toEqual({ body: [expect.stringContaining("WebAssembly") as string] });
  });
});
