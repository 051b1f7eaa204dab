/**
 * Edge app binaries: the account's compiled WebAssembly modules, uploaded as raw bytes (their api_type
 * read from the module), listed, read and deleted while nothing uses them.
 */
import { edgeBinariesRoutes, type EdgeBinary } from "@cloudplane/contract";
import { and, asc, count, eq, or, schema, type SQL } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { conflict, notFound } from "../errors.js";
import { isoTime } from "../format.js";
import type { RequestExtension, RouteDeps } from "../types.js";
import { served } from "../served.js";


const { edgeApps, edgeBinaries, edgeTemplates } = schema;

/** A binary's columns but its bytes, which are stored and never read back. */
const binaryColumns = {
  id: edgeBinaries.id,
  apiType: edgeBinaries.apiType,
  status: edgeBinaries.status,
  source: edgeBinaries.source,
  checksum: edgeBinaries.checksum,
  unrefSince: edgeBinaries.unrefSince,
};

type BinaryRow = Pick<typeof edgeBinaries.$inferSelect, keyof typeof binaryColumns>;

/** The account's own binary `id` (not the platform's). */
function ownBinary(accountId: number, id: number): SQL | undefined {
  return and(eq(edgeBinaries.accountId, accountId), eq(edgeBinaries.id, id));
}

/** The hex SHA-256 of `bytes`. */
async function sha256HexOf(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** `proxy_`: the prefix of every name the Proxy-Wasm ABI has a module export (`proxy_on_*`, `proxy_abi_version_*`). */
const PROXY_WASM_PREFIX = [0x70, 0x72, 0x6f, 0x78, 0x79, 0x5f];
const EXPORT_SECTION = 7;

/**
 * The api_type of a WebAssembly module (its 8-byte header already checked), as the contract says:
 * proxy-wasm when its export section names anything starting with `proxy_`, wasi-http otherwise. The
 * sections are walked by their sizes to the export section; a module cut short or malformed is read as
 * far as it goes (a runtime would refuse it, but that is for a deployment to find, as on the platform).
 */
export function wasmApiType(bytes: Uint8Array): EdgeBinary["api_type"] {
  let offset = 8;
  /** An unsigned LEB128 number of at most 32 bits, or undefined past the end. */
  const u32 = (): number | undefined => {
    let value = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      if (offset >= bytes.length) return undefined;
      const byte = bytes[offset++]!;
      value += (byte & 0x7f) * 2 ** shift;
      if (!(byte & 0x80)) return value;
    }
    return undefined;
  };
  while (offset < bytes.length) {
    const id = bytes[offset++]!;
    const size = u32();
    if (size === undefined) break;
    const end = offset + size;
    if (id !== EXPORT_SECTION) {
      offset = end;
      continue;
    }
    const exports = u32() ?? 0;
    for (let index = 0; index < exports && offset < Math.min(end, bytes.length); index++) {
      const length = u32();
      if (length === undefined) break;
      const name = bytes.subarray(offset, offset + length);
      if (name.length >= PROXY_WASM_PREFIX.length && PROXY_WASM_PREFIX.every((byte, at) => name[at] === byte)) return "proxy-wasm";
      offset += length + 1; // the name, then its kind
      if (u32() === undefined) break; // its index
    }
    break;
  }
  return "wasi-http";
}

function toEdgeBinary(binary: BinaryRow): EdgeBinary {
  return {
    id: binary.id,
    api_type: binary.apiType,
    status: binary.status,
    source: binary.source,
    checksum: binary.checksum,
    unref_since: binary.unrefSince ? isoTime(binary.unrefSince) : null,
  };
}

/** The binaries' routes; exported as `edgeBinaries`, the name this file gives the binaries' table. */
function edgeBinariesRouter({ db }: RouteDeps) {
  return tsr.routerWithMiddleware(served("edge", edgeBinariesRoutes))<RequestExtension>({
    listBinaries: async ({ query }, { request: { caller } }) => {
      const where = eq(edgeBinaries.accountId, caller.accountId);
      const [rows, [total]] = await Promise.all([
        db.select(binaryColumns).from(edgeBinaries).where(where).orderBy(asc(edgeBinaries.id)).limit(query.limit).offset(query.offset),
        db.select({ total: count() }).from(edgeBinaries).where(where),
      ]);
      return { status: 200, body: { binaries: rows.map(toEdgeBinary), count: total?.total ?? 0 } };
    },

    getBinary: async ({ params }, { request: { caller } }) => {
      const [binary] = await db.select(binaryColumns).from(edgeBinaries).where(ownBinary(caller.accountId, params.id));
      if (!binary) throw notFound(`Binary ${params.id}`);
      return { status: 200, body: toEdgeBinary(binary) };
    },

    uploadBinary: async ({ body }, { request: { caller } }) => {
      // The contract checked the header; the bytes are the route's, read as they came.
      const bytes = body as Uint8Array<ArrayBuffer>;
      const checksum = await sha256HexOf(bytes);
      const [binary] = await db
        .insert(edgeBinaries)
        .values({ accountId: caller.accountId, apiType: wasmApiType(bytes), checksum, status: 1, source: 0, content: bytes })
        .returning(binaryColumns);
      return { status: 201, body: toEdgeBinary(binary!) };
    },

    deleteBinary: async ({ params }, { request: { caller } }) => {
      await db.transaction(async (tx) => {
        // Locked for update: a write that would make an app or a template use it (which share-locks it) waits, or sees it gone.
        const [binary] = await tx.select({ id: edgeBinaries.id }).from(edgeBinaries).where(ownBinary(caller.accountId, params.id)).for("update");
        if (!binary) throw notFound(`Binary ${params.id}`);
        const [{ apps }] = (await tx
          .select({ apps: count() })
          .from(edgeApps)
          .where(or(eq(edgeApps.binaryId, params.id), eq(edgeApps.upgradeableTo, params.id)))) as [{ apps: number }];
        const [{ templates }] = (await tx.select({ templates: count() }).from(edgeTemplates).where(eq(edgeTemplates.binaryId, params.id))) as [
          { templates: number },
        ];
        if (apps > 0 || templates > 0) {
          const users = [apps > 0 ? `${apps} app(s) run it or are offered it as an upgrade` : "", templates > 0 ? `${templates} template(s) are made from it` : ""];
          throw conflict(`Binary ${params.id} is in use: ${users.filter(Boolean).join(" and ")}. Change or delete those first.`);
        }
        await tx.delete(edgeBinaries).where(eq(edgeBinaries.id, params.id));
      });
      return { status: 204, body: undefined };
    },
  });
}

export { edgeBinariesRouter as edgeBinaries };
