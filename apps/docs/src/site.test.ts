/**
 * The built site in real Chromium, served under /docs/ as the local app serves it: the reference loads
 * with no console error and no request leaving localhost, lists every area's operations, finds a route
 * by its path, and the guide and changelog are there. Screenshots go to test-results/.
 */
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AREA_NAMES, AREA_TITLES } from "./areas.js";
import { pendingChanges } from "./changelog.js";
import { PAGES } from "./pages.js";
import { referenceLink } from "./guide.js";
import { buildOpenApiDocument } from "./openapi.js";
import { methodAndPath, PRIMARY_ROUTES, ROUTES } from "./routes.js";
import { DOCS_ROOT, REPOSITORY_ROOT, buildSite } from "./site.js";
import { clientCall } from "./snippets.js";

const BASE_PATH = "/docs/";
const RESULTS = join(DOCS_ROOT, "test-results");
const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".css": "text/css",
  ".json": "application/json",
  ".svg": "image/svg+xml",
};

/** Serves `directory` under BASE_PATH, as a static host would. */
function serveStatic(directory: string): Promise<Server> {
  const server = createServer((request, response) => {
    const { pathname } = new URL(request.url ?? "/", "http://localhost");
    if (pathname === BASE_PATH.slice(0, -1)) {
      response.writeHead(301, { location: BASE_PATH }).end();
      return;
    }
    const file = normalize(decodeURIComponent(pathname.slice(BASE_PATH.length)) || "index.html");
    if (!pathname.startsWith(BASE_PATH) || file.startsWith("..")) {
      response.writeHead(404).end();
      return;
    }
    readFile(join(directory, file)).then(
      (body) => response.writeHead(200, { "content-type": CONTENT_TYPES[extname(file)] ?? "application/octet-stream" }).end(body),
      () => response.writeHead(404).end(),
    );
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

let server: Server;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let siteUrl: string;
let siteDirectory: string;
const consoleErrors: string[] = [];
const requestsLeavingLocalhost: string[] = [];

beforeAll(async () => {
  // Its own build, into test-results, so that the test never races a `pnpm build` writing dist.
  siteDirectory = await buildSite(join(RESULTS, "site"));
  server = await serveStatic(siteDirectory);
  siteUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}${BASE_PATH}`;
  browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
  page = await watchedPage(context);
});

/** A page of `context` whose requests stay on the site's server and whose errors are recorded. */
async function watchedPage(within: BrowserContext): Promise<Page> {
  // Playwright's own limits (30 s for a navigation, a click, a wait) are a quiet machine's: Scalar renders
  // some 600 operations, which under a CI machine's load takes longer. vitest's timeout bounds each test.
  within.setDefaultTimeout(110_000);
  await within.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith(new URL(siteUrl).origin + "/") || url.startsWith("data:") || url.startsWith("blob:")) return route.continue();
    requestsLeavingLocalhost.push(url);
    return route.abort();
  });
  const opened = await within.newPage();
  opened.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(`${opened.url()}: ${message.text()}`);
  });
  opened.on("pageerror", (error) => consoleErrors.push(`${opened.url()}: ${error.message}`));
  return opened;
}

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

describe("the built site", () => {
  it("holds the OpenAPI document built from the contract", async () => {
    const published = await readFile(join(siteDirectory, "openapi.json"), "utf8");
    expect(JSON.parse(published)).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument())));
    const index = await readFile(join(siteDirectory, "index.html"), "utf8");
    expect(index).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(index).toMatch(/src="\.\/assets\/[^"]+\.js"/);
  });

  it("loads the reference with no console error and no request leaving localhost", async () => {
    await page.goto(siteUrl.slice(0, -1), { waitUntil: "networkidle" });
    expect(page.url()).toBe(siteUrl);
    await expect.poll(() => page.locator("h1").first().textContent()).toBe("cloudplane API");
    expect(consoleErrors).toEqual([]);
    expect(requestsLeavingLocalhost).toEqual([]);
  });

  it("fills the scheme word into the reference's Authentication, for the token to be pasted after it", async () => {
    await expect.poll(() => page.locator("input[value='apikey ']").count()).toBeGreaterThan(0);
  });

  it("lists each area's operations under the area", async () => {
    const sidebar = page.locator("aside.t-doc__sidebar");
    await sidebar.getByText(PRIMARY_ROUTES.at(-1)!.route.summary!, { exact: true }).waitFor();
    // Each area is a list item whose link goes to its tag (#tag/<area>) and whose list holds its operations.
    const groups = await sidebar.evaluate((aside) =>
      [...aside.querySelectorAll("li")]
        .filter((item) => item.querySelector(":scope > ul"))
        .map((item) => {
          const link = item.querySelector("a")!;
          return {
            href: link.getAttribute("href"),
            label: link.textContent.trim(),
            // The label, without the method badge and its screen-reader text.
            operations: [...item.querySelectorAll(":scope > ul > li")].map((operation) =>
              operation.querySelector("[class*='button-label']")!.textContent.trim(),
            ),
          };
        }),
    );
    // In the document's order (by path), each operation but the aliases, which their primary's description names.
    const document = buildOpenApiDocument();
    const documented = Object.values(document.paths)
      .flatMap((methods) => Object.values(methods))
      .filter((operation) => !operation["x-scalar-ignore"]);
    for (const area of AREA_NAMES) {
      const group = groups.find(({ href }) => href === `#tag/${area}`);
      expect(group?.label, area).toContain(AREA_TITLES[area]);
      const summaries = documented.filter((operation) => operation.tags[0] === area).map((operation) => operation.summary);
      expect(summaries.sort(), area).toEqual(PRIMARY_ROUTES.filter((entry) => entry.area === area).map(({ route }) => route.summary!).sort());
      expect(group?.operations, area).toEqual(documented.filter((operation) => operation.tags[0] === area).map((operation) => operation.summary));
    }
  });

  it("finds a route by searching for its path", async () => {
    const clip = ROUTES.find((entry) => entry.name === "createClipRecording")!.route;
    await page.keyboard.press("Control+k");
    const search = page.getByRole("combobox", { name: "Enter search query" });
    await search.fill("clip_recording");
    // The path has two operations (list the clips, record one): the search finds both; this one is opened.
    const found = page.getByRole("listbox", { name: "Reference Search Results" }).getByRole("option").filter({ hasText: clip.summary! });
    await expect.poll(() => found.count()).toBe(1);
    expect(await found.textContent()).toContain("/streaming/streams/{stream_id}/clip_recording");
    await found.click();
    await expect.poll(() => decodeURIComponent(new URL(page.url()).hash)).toContain("PUT/streaming/streams/{stream_id}/clip_recording");
    await expect.poll(() => page.getByRole("heading", { name: clip.summary, exact: true }).isVisible()).toBe(true);
    await page.screenshot({ path: join(RESULTS, "reference-operation.png") });
  });

  it("saves a screenshot of the reference", async () => {
    await page.goto(siteUrl, { waitUntil: "networkidle" });
    await page.getByRole("heading", { name: "cloudplane API", level: 1 }).waitFor();
    const screenshot = await page.screenshot({ path: join(RESULTS, "reference.png") });
    expect(screenshot.byteLength).toBeGreaterThan(20_000);
  });

  it("serves the guide, with a client and a curl snippet of every operation", async () => {
    await page.getByRole("link", { name: "Guide", exact: true }).click();
    await page.waitForURL(`${siteUrl}guide.html`);
    for (const heading of ["Authentication", "Roles", "Errors", "Pagination", "Rate limits", "Versioning", "Operations"])
      expect(await page.getByRole("heading", { name: heading, exact: true, level: 2 }).count(), heading).toBe(1);
    const code = await page.locator("pre code").allTextContents();
    // Each operation once, an alias under its primary (named there, with no snippets of its own).
    for (const { route, docs } of PRIMARY_ROUTES) {
      expect(code.filter((snippet) => snippet.trim() === clientCall(docs)), route.path).toHaveLength(1);
      expect(code.filter((snippet) => snippet.startsWith(`curl -X ${route.method} "$CLOUDPLANE_BASE_URL/${route.path.split("/")[1]}`)).length).toBeGreaterThan(0);
    }
    const text = await page.locator("main").textContent();
    for (const alias of ROUTES.filter((entry) => entry.aliasOf)) expect(text, alias.id).toContain(methodAndPath(alias.route));
    await page.screenshot({ path: join(RESULTS, "guide.png") });

    const report = ROUTES.find((entry) => entry.name === "getReservationCostReportTotals")!;
    await page.locator(`a[href="${referenceLink(report)}"]`).click();
    await expect.poll(() => page.getByRole("heading", { name: report.route.summary, exact: true }).isVisible()).toBe(true);
  });

  it("serves the changelog with the pending changesets", async () => {
    await page.getByRole("link", { name: "Changelog", exact: true }).click();
    await page.waitForURL(`${siteUrl}changelog.html`);
    const text = await page.locator("article").textContent();
    const pending = pendingChanges(REPOSITORY_ROOT);
    expect(pending.length).toBeGreaterThan(0);
    for (const change of pending) for (const name of Object.keys(change.releases)) expect(text).toContain(name);
    await page.getByRole("link", { name: "openapi.json", exact: true }).click();
    await page.waitForURL(`${siteUrl}openapi.json`);
  });

  it("fits a 390 px wide phone: no page scrolls sideways, and the navigation shows every link", async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    try {
      const small = await watchedPage(phone);
      for (const { file } of PAGES) {
        await small.goto(`${siteUrl}${file === "index.html" ? "" : file}`, { waitUntil: "networkidle" });
        if (file === "index.html") await small.getByRole("heading", { name: "cloudplane API", level: 1 }).waitFor();
        const layout = await small.evaluate(() => {
          const nav = document.querySelector("nav.site-nav")!;
          return {
            pageWidth: document.documentElement.scrollWidth,
            viewport: window.innerWidth,
            navOverflow: nav.scrollWidth - nav.clientWidth,
            linksOutOfView: [...nav.querySelectorAll("a")].filter((link) => {
              const box = link.getBoundingClientRect();
              return box.width === 0 || box.left < 0 || box.right > window.innerWidth;
            }).length,
          };
        });
        expect(layout, file).toEqual({ pageWidth: 390, viewport: 390, navOverflow: 0, linksOutOfView: 0 });
        await small.screenshot({ path: join(RESULTS, `phone-${file.replace(".html", "")}.png`) });
      }
    } finally {
      await phone.close();
    }
  });

  it("made no request outside localhost and logged no error during the whole visit", () => {
    expect(consoleErrors).toEqual([]);
    expect(requestsLeavingLocalhost).toEqual([]);
  });
});
