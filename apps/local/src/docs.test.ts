/**
 * The docs server on a real folder: content types, folders and their index.html, no way out of the
 * folder, and an openapi.json that names this server's API first.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { docsHandler, withThisServer } from "./docs.js";

const BASE = "http://127.0.0.1:8787";
/** The site's document, as the docs build writes it (shortened). */
const SITE_DOCUMENT = { openapi: "3.1.0", info: { title: "cloudplane API" }, servers: [{ url: "{base_url}", description: "A deployment of the API." }] };

describe("docs server", () => {
  let parent: string;
  let site: string;
  let serveDocs: (request: Request) => Promise<Response>;
  const get = (path: string, init?: RequestInit) => serveDocs(new Request(`${BASE}${path}`, init));

  beforeAll(async () => {
    parent = await mkdtemp(join(tmpdir(), "cloudplane-docs-"));
    site = join(parent, "dist");
    await mkdir(join(site, "assets"), { recursive: true });
    await mkdir(join(site, "areas", "cdn"), { recursive: true });
    await writeFile(join(site, "index.html"), "<!doctype html><html><title>Reference</title></html>");
    await writeFile(join(site, "guide.html"), "<!doctype html><html><title>Guide</title></html>");
    await writeFile(join(site, "assets", "app.js"), "console.log('docs');");
    await writeFile(join(site, "assets", "style.css"), "body{}");
    await writeFile(join(site, "assets", "logo.svg"), "<svg/>");
    await writeFile(join(site, "assets", "font.woff2"), new Uint8Array([1, 2, 3]));
    await writeFile(join(site, "openapi.json"), JSON.stringify(SITE_DOCUMENT));
    await writeFile(join(site, "areas", "cdn", "index.html"), "<html>CDN</html>");
    await writeFile(join(parent, "secret.txt"), "outside the site");
    serveDocs = docsHandler(site);
  });
  afterAll(async () => {
    await rm(parent, { recursive: true, force: true });
  });

  it("redirects /docs to /docs/, where the site's relative URLs resolve, keeping the query", async () => {
    const reply = await get("/docs?tab=cdn");
    expect(reply.status).toBe(301);
    expect(reply.headers.get("location")).toBe("/docs/?tab=cdn");
  });

  it("answers index.html for /docs/", async () => {
    const reply = await get("/docs/");
    expect(reply.status).toBe(200);
    expect(reply.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await reply.text()).toContain("<title>Reference</title>");
  });

  it.each([
    ["/docs/assets/app.js", "text/javascript; charset=utf-8", "console.log('docs');"],
    ["/docs/assets/style.css", "text/css; charset=utf-8", "body{}"],
    ["/docs/assets/logo.svg", "image/svg+xml", "<svg/>"],
    ["/docs/guide.html", "text/html; charset=utf-8", "<!doctype html><html><title>Guide</title></html>"],
    ["/docs/guide", "text/html; charset=utf-8", "<!doctype html><html><title>Guide</title></html>"],
    ["/docs/areas/cdn/", "text/html; charset=utf-8", "<html>CDN</html>"],
  ])("serves %s as %s", async (path, type, body) => {
    const reply = await get(path);
    expect(reply.status).toBe(200);
    expect(reply.headers.get("content-type")).toBe(type);
    expect(reply.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await reply.text()).toBe(body);
  });

  it("serves openapi.json with this server's API first, so that the reference's Test Request goes to it", async () => {
    const reply = await get("/docs/openapi.json");
    expect(reply.status).toBe(200);
    expect(reply.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const body = await reply.text();
    expect(reply.headers.get("content-length")).toBe(String(Buffer.byteLength(body)));
    expect(JSON.parse(body)).toEqual({
      ...SITE_DOCUMENT,
      servers: [{ url: "/", description: "This server: the API that serves these docs (the local app, `pnpm start`)." }, ...SITE_DOCUMENT.servers],
    });
    const underBasePath = await docsHandler(site, { apiBasePath: "/api/" })(new Request(`${BASE}/docs/openapi.json`));
    expect(((await underBasePath.json()) as typeof SITE_DOCUMENT).servers.map((server) => server.url)).toEqual(["/api", "{base_url}"]);
  });

  it("fills the demo key into the apikey scheme's Authentication value when it is given, and only then", () => {
    const scheme = { type: "apiKey", in: "header", name: "Authorization", description: "apikey <API token>", "x-scalar-secret-token": "apikey " };
    const document = JSON.stringify({ ...SITE_DOCUMENT, components: { securitySchemes: { apikey: scheme } } });
    const served = (demoApiKey?: string) => (JSON.parse(withThisServer(document, "", demoApiKey)) as { components: { securitySchemes: { apikey: unknown } } }).components;
    expect(served("cp_demo_key")).toEqual({ securitySchemes: { apikey: { ...scheme, "x-scalar-secret-token": "apikey cp_demo_key" } } });
    expect(served()).toEqual({ securitySchemes: { apikey: scheme } });
    // A document without the scheme is served as it is.
    expect(JSON.parse(withThisServer(JSON.stringify(SITE_DOCUMENT), "", "cp_demo_key"))).not.toHaveProperty("components");
  });

  it("serves binary files byte for byte", async () => {
    const reply = await get("/docs/assets/font.woff2");
    expect(reply.headers.get("content-type")).toBe("font/woff2");
    expect([...new Uint8Array(await reply.arrayBuffer())]).toEqual([1, 2, 3]);
  });

  it("redirects a folder without its slash, and answers HEAD without a body", async () => {
    const folder = await get("/docs/areas/cdn");
    expect([folder.status, folder.headers.get("location")]).toEqual([301, "/docs/areas/cdn/"]);
    const head = await get("/docs/assets/app.js", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe("20");
    expect(await head.text()).toBe("");
  });

  it.each(["/docs/missing.js", "/docs/..%2fsecret.txt", "/docs/%2e%2e/secret.txt", "/docs/assets%2f..%2f..%2fsecret.txt", "/docs/%E0%A4%A"])(
    "answers 404 for %s, never a file outside the site",
    async (path) => {
      const reply = await get(path);
      expect(reply.status).toBe(404);
      expect(await reply.text()).not.toContain("outside the site");
    },
  );

  it("answers 405 to methods other than GET and HEAD", async () => {
    const reply = await get("/docs/", { method: "POST", body: "x" });
    expect(reply.status).toBe(405);
    expect(reply.headers.get("allow")).toBe("GET, HEAD");
  });

  it("says how to build the docs when the folder holds no site", async () => {
    const reply = await docsHandler(join(parent, "not-built"))(new Request(`${BASE}/docs/`));
    expect(reply.status).toBe(404);
    expect(await reply.text()).toContain("pnpm --filter @cloudplane/docs build");
  });
});
