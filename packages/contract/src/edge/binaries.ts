/**
 * Edge app binaries: compiled WebAssembly modules of the account, the raw upload's body (a module's
 * bytes, checked by its header), and the routes that list, read, upload and delete binaries.
 */
import { initContract } from "@ts-rest/core";
import { z } from "zod";
import { RAW_BODY, rawBytes, type RawBodyMetadata } from "../body.js";
import { errorEnvelope, errorResponses, idParam, integer, isoTimestamp, withBody } from "../common.js";
import * as examples from "../examples.js";
import { route } from "../route.js";
import { missingId } from "../route-case.js";
import { apiType, binaryOf, paging, read, write } from "./shared.js";

const c = initContract();

const BINARY_STATUS_TEXT =
  "0 pending, 1 compiled, 2 compilation failed (errors available), 3 compilation failed (errors not available), " +
  "4 the result exceeded the size limit, 5 unsupported source language";

const edgeBinarySchema = z
  .object({
    id: integer(),
    api_type: apiType,
    status: integer({ min: 0, max: 5 }).describe(`Status: ${BINARY_STATUS_TEXT}.`),
    source: integer({ min: 0, max: 3 }).describe("Source language: 0 unknown, 1 Rust, 2 JavaScript, 3 Go."),
    checksum: z.string().describe("Hex digest of the binary's content."),
    unref_since: isoTimestamp.nullable().describe("When the last app stopped running the binary; null while one runs it, or if none ever did."),
  })
  .strict()
  .describe("A compiled WebAssembly binary of the account.");
export interface EdgeBinarySchema extends EdgeBinarySchemaType {}
type EdgeBinarySchemaType = typeof edgeBinarySchema;
export const edgeBinary: EdgeBinarySchema = edgeBinarySchema;

export type EdgeBinary = z.infer<typeof edgeBinary>;

const edgeBinaryListSchema = z
  .object({
    binaries: z.array(edgeBinary),
    count: integer().describe("The number of the account's binaries, before limit and offset."),
  })
  .strict()
  .describe("A page of the account's binaries, and how many it has.");
export interface EdgeBinaryListSchema extends EdgeBinaryListSchemaType {}
type EdgeBinaryListSchemaType = typeof edgeBinaryListSchema;
export const edgeBinaryList: EdgeBinaryListSchema = edgeBinaryListSchema;

export type EdgeBinaryList = z.infer<typeof edgeBinaryList>;

const listEdgeBinariesQuerySchema = z.object(paging("binaries", 1000));
export interface ListEdgeBinariesQuerySchema extends ListEdgeBinariesQuerySchemaType {}
type ListEdgeBinariesQuerySchemaType = typeof listEdgeBinariesQuerySchema;
export const listEdgeBinariesQuery: ListEdgeBinariesQuerySchema = listEdgeBinariesQuerySchema;

export type ListEdgeBinariesQuery = z.input<typeof listEdgeBinariesQuery>;

/** The first 8 bytes of a WebAssembly module of version 1: the magic `\0asm`, then the version 1 (little-endian). */
export const WASM_MODULE_HEADER: readonly number[] = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];

/** The smallest WebAssembly module there is (the header alone): what the examples and the tests upload. */
export function emptyWasmModule(): Uint8Array {
  return Uint8Array.from(WASM_MODULE_HEADER);
}

const wasmModuleSchema = rawBytes((bytes, ctx) => {
  const at = (start: number, end: number) => [...bytes.subarray(start, end)];
  const same = (a: number[], b: readonly number[]) => a.length === b.length && a.every((byte, index) => byte === b[index]);
  if (bytes.byteLength === 0) ctx.addIssue({ code: z.ZodIssueCode.custom, message: "Must not be empty: send the compiled WebAssembly module." });
  else if (!same(at(0, 4), WASM_MODULE_HEADER.slice(0, 4)))
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: "Must be a compiled WebAssembly module: its first 4 bytes must be the magic \\0asm (00 61 73 6d)." });
  else if (!same(at(4, 8), WASM_MODULE_HEADER.slice(4)))
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: "Must be a WebAssembly module of version 1: bytes 5 to 8 must be 01 00 00 00." });
}).describe(
  "The compiled WebAssembly module, as raw bytes (Content-Type: application/octet-stream): at most 1 MiB, starting " +
    "with the magic `\\0asm` and the version 1 (`00 61 73 6d 01 00 00 00`).",
);
export interface EdgeBinaryUploadSchema extends EdgeBinaryUploadSchemaType {}
type EdgeBinaryUploadSchemaType = typeof wasmModuleSchema;
/** The body of a binary's upload: the module's bytes. */
export const edgeBinaryUpload: EdgeBinaryUploadSchema = wasmModuleSchema;

/** A write whose body is raw bytes, not JSON (see body.ts). */
const rawWrite: RawBodyMetadata = { access: "write", bodyType: RAW_BODY };

const binaryId = z.object({ id: idParam("The binary id.") });

// The examples' objects: the demo data's, of account 1.
const app = examples.edgeAppExample;
const binary = { id: app.binary!, api_type: app.api_type, status: 1, source: 2, checksum: "6f1ed002ab5595859014ebf0951522d9", unref_since: null };

/** The binaries' routes at the specification's paths; the platform's /fastedge/v1 paths are aliases of these (index.ts). */
export const edgeBinariesRoutes = {
  listBinaries: route({
    method: "GET",
    path: "/edge/v1/binaries",
    query: listEdgeBinariesQuery,
    responses: { 200: edgeBinaryList, ...errorResponses() },
    summary: "List edge app binaries",
    description:
      "The account's own binaries (not the platform's, behind public templates), by id ascending. Paged by `limit` " +
      "(default 1000, at most 1000) and `offset`; `count` is how many the account has.",
    metadata: read,
  }, {
    example: {
      query: { limit: 1000, offset: 0 },
      response: { binaries: [binary], count: 1 },
    },
    case: { path: () => "/edge/v1/binaries?limit=5", ownsObjects: false },
  }),
  getBinary: route({
    method: "GET",
    path: "/edge/v1/binaries/:id",
    pathParams: binaryId,
    responses: { 200: edgeBinary, ...errorResponses() },
    summary: "Get an edge app binary",
    description: "One binary of the account. The platform's binaries behind public templates are not the account's: 404.",
    metadata: read,
  }, {
    example: {
      pathParams: { id: binary.id },
      response: binary,
    },
    case: { path: (w) => `/edge/v1/binaries/${binaryOf(w).id}`, ownsObjects: true },
  }),
  uploadBinary: route({
    method: "POST",
    path: "/edge/v1/binaries/raw",
    body: edgeBinaryUpload,
    responses: {
      201: edgeBinary,
      ...errorResponses(withBody),
      415: errorEnvelope.describe("The body is not sent as application/octet-stream (`unsupported_media_type`): this route takes raw bytes, not JSON."),
    },
    summary: "Upload an edge app binary",
    description:
      "Stores a compiled WebAssembly module as a binary of the account, for apps and templates to run. The body is " +
      "the module's raw bytes, sent with `Content-Type: application/octet-stream` (any other content type, JSON " +
      "included, is 415): at most 1 MiB (413), not empty, and starting with the WebAssembly magic `\\0asm` and the " +
      "version 1 (400 on `body` otherwise). The module is not compiled again: the binary is `status` 1 (compiled), " +
      "`source` 0 (unknown), its `checksum` is the hex SHA-256 of the bytes, and `unref_since` is null until an app " +
      "has run it and stopped. Its `api_type` is read from the module, as the platform does (no parameter sets it): " +
      "proxy-wasm when the module exports a function or global whose name starts with `proxy_` (the Proxy-Wasm ABI's " +
      "`proxy_on_*` callbacks and `proxy_abi_version_*` marker), wasi-http otherwise. The same bytes uploaded twice " +
      "make two binaries. The bytes are stored and never returned. Answers 201 with the binary (the platform's SDKs " +
      "take any 2xx).",
    metadata: rawWrite,
  }, {
    example: {
      // The smallest module there is: its 8-byte header.
      body: emptyWasmModule(),
      response: {
        id: 1004,
        api_type: "wasi-http",
        status: 1,
        source: 0,
        checksum: "93a44bbb96c751218e4c00d479e4c14358122a389acca16205b1e4d0dc5f9476",
        unref_since: null,
      },
    },
    // Raw bytes, not JSON: the smallest WebAssembly module, its 8-byte header (sent as application/octet-stream).
    case: { path: () => "/edge/v1/binaries/raw", ownsObjects: false, body: () => emptyWasmModule() },
  }),
  deleteBinary: route({
    method: "DELETE",
    path: "/edge/v1/binaries/:id",
    pathParams: binaryId,
    responses: { 204: c.noBody(), ...errorResponses([409]) },
    summary: "Delete an edge app binary",
    description:
      "Deletes one of the account's binaries with its bytes. While an app runs it (its `binary`) or is offered it as " +
      "an upgrade (`upgradeable_to`), or a template is made from it (`binary_id`), it answers 409 and stays: change or " +
      "delete those first; there is no force. The platform's binaries behind public templates and the other " +
      "account's are 404. Answers 204 with no body.",
    metadata: write,
  }, {
    example: {
      // A binary of the demo data that no app or template uses (one that failed to compile).
      pathParams: { id: 13 },
    },
    case: {
      path: (w, made) => `/edge/v1/binaries/${made?.id ?? missingId(w.account)}`,
      ownsObjects: true,
      makes: "edge.uploadBinary",
    },
  }),
} as const;
