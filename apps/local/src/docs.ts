/**
 * Serves the built docs site (apps/docs/dist) at /docs: static files with their content types,
 * index.html for folders. The site's URLs are relative, so /docs itself redirects to /docs/. Its
 * openapi.json names this server's API first, so the reference's Test Request goes to the API that
 * serves the page, on whatever host and port it is reached, and on the demo data it holds the demo key.
 */
import { readFile, stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, extname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

export const DOCS_PATH = "/docs";

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".yaml": "application/yaml; charset=utf-8",
  ".yml": "application/yaml; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".md": "text/markdown; charset=utf-8",
  ".xml": "application/xml; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".ico": "image/x-icon",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".ttf": "font/ttf",
  ".otf": "font/otf",
  ".wasm": "application/wasm",
  ".webmanifest": "application/manifest+json",
};

export function contentType(path: string): string {
  return CONTENT_TYPES[extname(path).toLowerCase()] ?? "application/octet-stream";
}

/** The docs build of the `@cloudplane/docs` workspace package, built or not. */
export function defaultDocsDirectory(): string {
  const require = createRequire(import.meta.url);
  try {
    return join(dirname(require.resolve("@cloudplane/docs/package.json")), "dist");
  } catch {
    // Its exports map may not list package.json; the workspace layout is the fallback.
    return fileURLToPath(new URL("../../docs/dist", import.meta.url));
  }
}

/** Whether the folder holds a built site (its index.html). */
export async function isDocsBuilt(directory: string): Promise<boolean> {
  return (await stat(join(directory, "index.html")).catch(() => undefined))?.isFile() ?? false;
}

export function isDocsPath(pathname: string): boolean {
  return pathname === DOCS_PATH || pathname.startsWith(`${DOCS_PATH}/`);
}

const NOT_BUILT = `<!doctype html>
<meta charset="utf-8"><title>cloudplane docs are not built</title>
<p>The docs are not built yet. Build them with <code>pnpm --filter @cloudplane/docs build</code>
(<code>pnpm start</code> does it) and reload this page. The API itself is running.</p>
`;

function textResponse(status: number, body: string, headers: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-cache", ...headers } });
}

/** The file a request path names inside `root`, or undefined when it would leave it. */
function filePath(root: string, pathname: string): string | undefined {
  let relative: string;
  try {
    relative = decodeURIComponent(pathname.slice(DOCS_PATH.length));
  } catch {
    return undefined;
  }
  if (relative.includes("\0")) return undefined;
  const path = resolve(root, `.${relative.startsWith("/") ? relative : `/${relative}`}`);
  return path === root || path.startsWith(`${root}${sep}`) ? path : undefined;
}

async function fileAt(path: string): Promise<"file" | "directory" | undefined> {
  const found = await stat(path).catch(() => undefined);
  if (found?.isFile()) return "file";
  if (found?.isDirectory()) return "directory";
  return undefined;
}

/** The OpenAPI document of the site: Scalar reads it, relative to the reference page. */
const OPENAPI_FILE = "openapi.json";

/**
 * The site's OpenAPI document with this server's API as the first server, which the reference's Test
 * Request uses: a path alone (`/`, or the API's base path), which Scalar resolves against the page's own
 * origin. The document's own servers follow, for a deployment elsewhere.
 */
export function withThisServer(document: string, apiBasePath = "", demoApiKey?: string): string {
  const parsed = JSON.parse(document) as { servers?: unknown[]; components?: { securitySchemes?: Record<string, object> } };
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("The OpenAPI document is not a JSON object.");
  const path = `/${apiBasePath.replace(/^\/+|\/+$/g, "")}`;
  const thisServer = { url: path, description: "This server: the API that serves these docs (the local app, `pnpm start`)." };
  const served: typeof parsed = { ...parsed, servers: [thisServer, ...(parsed.servers ?? [])] };
  const apikey = parsed.components?.securitySchemes?.apikey;
  // On the demo data, the reference's Test Request works at the first click: its Authentication field holds the demo
  // administrator's key (the one the banner prints, a key of the committed demo fixture, never a provisioned account's).
  if (demoApiKey && apikey)
    served.components = { ...parsed.components, securitySchemes: { ...parsed.components!.securitySchemes, apikey: { ...apikey, "x-scalar-secret-token": `apikey ${demoApiKey}` } } };
  return `${JSON.stringify(served, null, 2)}\n`;
}

/** The served openapi.json: with this server first, or as it is when it is not a JSON object. */
function openApiForThisServer(file: Uint8Array<ArrayBuffer>, options: DocsHandlerOptions): Uint8Array<ArrayBuffer> {
  try {
    return new TextEncoder().encode(withThisServer(new TextDecoder().decode(file), options.apiBasePath, options.demoApiKey));
  } catch {
    return file;
  }
}

export interface DocsHandlerOptions {
  /** The base path the API is served under on this server (CLOUDPLANE_BASE_PATH); default: the root. */
  apiBasePath?: string | undefined;
  /** The demo administrator's key, when the database holds the demo data: the reference's Authentication holds it at first. */
  demoApiKey?: string | undefined;
}

/** A fetch handler for /docs and everything under it, serving files from `directory`. */
export function docsHandler(directory: string, options: DocsHandlerOptions = {}): (request: Request) => Promise<Response> {
  const root = resolve(directory);
  return async (request) => {
    const url = new URL(request.url);
    if (request.method !== "GET" && request.method !== "HEAD") return textResponse(405, "Method not allowed.\n", { allow: "GET, HEAD" });
    if (!(await isDocsBuilt(root))) return textResponse(404, NOT_BUILT);
    // Relative URLs in the site resolve against /docs/, not /.
    if (url.pathname === DOCS_PATH) return new Response(null, { status: 301, headers: { location: `${DOCS_PATH}/${url.search}` } });

    let path = filePath(root, url.pathname);
    if (!path) return textResponse(404, "Not found.\n");
    let kind = await fileAt(path);
    if (kind === "directory") {
      if (!url.pathname.endsWith("/")) return new Response(null, { status: 301, headers: { location: `${url.pathname}/${url.search}` } });
      path = join(path, "index.html");
      kind = await fileAt(path);
    } else if (kind === undefined && extname(path) === "") {
      // Pretty URLs: /docs/guide for guide.html.
      kind = await fileAt(`${path}.html`);
      if (kind) path = `${path}.html`;
    }
    if (kind !== "file") return textResponse(404, "Not found.\n");

    const file = await readFile(path);
    const body = path === join(root, OPENAPI_FILE) ? openApiForThisServer(file, options) : file;
    return new Response(request.method === "HEAD" ? null : body, {
      status: 200,
      headers: {
        "content-type": contentType(path),
        "content-length": String(body.byteLength),
        // A rebuild of the docs shows at the next reload.
        "cache-control": "no-cache",
        "x-content-type-options": "nosniff",
      },
    });
  };
}
