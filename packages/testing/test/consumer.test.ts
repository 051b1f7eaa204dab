/**
 * The published kit in a product's project of its own: the kit and the packages it brings (client,
 * contract, handlers, db) packed as they are published, installed with npm from the tarballs into a
 * fresh folder with jest and vitest from the npm registry. The same test then passes under vitest as
 * ESM and under jest as CommonJS, plain Node scripts run as ESM and as CommonJS and exit once the
 * platform is closed, and a consumer file
 * typechecks with --strict under node16 resolution as ESM and as CommonJS. Needs the npm registry (or
 * npm's cache); it fails, never skips, without it.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { npmInstall } from "../../../scripts/npm-install.mjs";

const run = promisify(execFile);

const PACKAGES = ["contract", "db", "handlers", "client", "testing"];
const packageFolder = (name: string) => fileURLToPath(new URL(`../../${name}`, import.meta.url));
/** The lowest zod the packages' peer range accepts, as the client's consumer test has it. */
const PROJECT_ZOD = "3.23.8";
const JEST = "30.5.2";
const VITEST = "3.2.4";
const TSC = createRequire(import.meta.url).resolve("typescript/bin/tsc");

/** One test body for both runners: `load` is how the file gets the kit and the client. */
const KIT_TEST = (load: string, runner: string) => `${load}
describe("the kit under ${runner}", () => {
  let platform;
  beforeAll(async () => {
    platform = await createTestPlatform();
  }, 120000);
  afterEach(() => platform.reset());
  afterAll(() => platform.close());

  it("serves the API through its client, with builders, reset and faults", async () => {
    const stream = await platform.build.stream({ name: "${runner}" });
    expect((await platform.client.streaming.streams.get(stream.id)).name).toBe("${runner}");
    const { resource } = await platform.build.cdnResource();
    const client = createClient({ ...platform.clientOptions, maxRetries: 0 });
    platform.faults.rateLimit("cdn.getResource", { retryAfter: 3 });
    const limited = await client.cdn.resources.get(resource.id).catch((error) => error);
    expect(limited).toBeInstanceOf(RateLimitError);
    expect(limited.headers.get("retry-after")).toBe("3");
    expect((await client.cdn.resources.get(resource.id)).cname).toBe(resource.cname);
    await platform.reset();
    expect((await platform.client.streaming.streams.list()).items).toEqual([]);
  });

  it("answers over its loopback server", async () => {
    const baseUrl = await platform.listen();
    const response = await fetch(baseUrl + "/iam/clients/me", { headers: { authorization: "apikey " + platform.administrator.token } });
    expect(response.status).toBe(200);
  });
});
`;

const IMPORTS = `import { createTestPlatform } from "@cloudplane/testing";
import { createClient, RateLimitError } from "@cloudplane/client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";`;
const REQUIRES = `const { createTestPlatform } = require("@cloudplane/testing");
const { createClient, RateLimitError } = require("@cloudplane/client");`;

/** A plain Node script: a platform, one call, close. */
const SCRIPT = (load: string) => `${load}
const platform = await createTestPlatform();
const account = await platform.client.iam.account.get();
await platform.close();
console.log(JSON.stringify({ account: account.companyName }));
`;

/** A product's file that uses the kit's types. */
const TYPED_CONSUMER = `
import { createTestPlatform, type BuiltAccount, type TestPlatform } from "@cloudplane/testing";
import type { Stream } from "@cloudplane/client";

export async function start(): Promise<TestPlatform> {
  const platform = await createTestPlatform({ preset: "demo", rateLimit: false });
  platform.faults.unavailable("cdn.*", { times: 2, retryAfter: 0 });
  return platform;
}

export async function streamOf(platform: TestPlatform, account: BuiltAccount): Promise<Stream> {
  return platform.build.stream({ name: "typed", auto_record: true }, { in: account });
}
`;

let project: string;

describe("a project that installs the packed kit", () => {
  beforeAll(async () => {
    project = await mkdtemp(join(tmpdir(), "cloudplane-testing-consumer-"));
    for (const name of PACKAGES) await run("pnpm", ["pack", "--pack-destination", project], { cwd: packageFolder(name) });
    const tarballs = (await readdir(project)).filter((file) => file.endsWith(".tgz")).sort();
    // The packages are versioned together (changesets' fixed group): the kit's version is every package's.
    const { version } = createRequire(import.meta.url)("../package.json") as { version: string };
    expect(tarballs).toEqual(PACKAGES.map((name) => `cloudplane-${name}-${version}.tgz`).sort());
    const dependencies = Object.fromEntries(PACKAGES.map((name) => [`@cloudplane/${name}`, `file:cloudplane-${name}-${version}.tgz`]));
    await writeFile(
      join(project, "package.json"),
      JSON.stringify({
        name: "product",
        private: true,
        devDependencies: { ...dependencies, zod: PROJECT_ZOD, "@ts-rest/core": "~3.52.0", jest: JEST, vitest: VITEST },
        jest: { testEnvironment: "node", testMatch: ["**/*.jest.test.cjs"], moduleFileExtensions: ["cjs", "js", "json"] },
      }),
    );
    await npmInstall(project);
    await writeFile(join(project, "kit.vitest.test.mjs"), KIT_TEST(IMPORTS, "vitest"));
    await writeFile(join(project, "kit.jest.test.cjs"), KIT_TEST(REQUIRES, "jest"));
    await writeFile(join(project, "script.mjs"), SCRIPT(`import { createTestPlatform } from "@cloudplane/testing";`));
    await writeFile(join(project, "script.cjs"), `(async () => {\n${SCRIPT(`const { createTestPlatform } = require("@cloudplane/testing");`)}\n})();`);
    await writeFile(join(project, "consumer.mts"), TYPED_CONSUMER);
    await writeFile(join(project, "consumer.cts"), TYPED_CONSUMER);
  }, 300_000);
  afterAll(async () => {
    if (project) await rm(project, { recursive: true, force: true });
  });

  it("runs a test under vitest, as ESM", async () => {
    const { stdout } = await run(process.execPath, ["node_modules/vitest/vitest.mjs", "run", "kit.vitest.test.mjs"], { cwd: project, env: { ...process.env, CI: "1", NO_COLOR: "1" } });
    expect(stdout).toMatch(/Tests\s+2 passed \(2\)/);
  }, 180_000);

  it("runs the same test under jest, as CommonJS, with the flag the README asks for", async () => {
    // PGlite loads Node's modules with import(), which jest's module sandbox allows only with this flag (electric-sql/pglite#224).
    const env = { ...process.env, CI: "1", NO_COLOR: "1", NODE_OPTIONS: "--experimental-vm-modules --no-warnings" };
    const { stderr } = await run(process.execPath, ["node_modules/jest/bin/jest.js", "--ci"], { cwd: project, env });
    expect(stderr).toMatch(/Tests:\s+2 passed, 2 total/);
  }, 180_000);

  it("runs in plain Node scripts, as ESM and as CommonJS", async () => {
    for (const file of ["script.mjs", "script.cjs"]) {
      // A platform left open nothing: the script must end by itself once it closed the platform.
      const { stdout } = await run(process.execPath, [file], { cwd: project, timeout: 60_000 });
      expect(JSON.parse(stdout), file).toEqual({ account: "Test account" });
    }
  }, 120_000);

  it("typechecks a consumer with --strict under node16 resolution, as ESM and as CommonJS", async () => {
    const config = join(project, "tsconfig.json");
    const compilerOptions = { strict: true, noEmit: true, skipLibCheck: true, target: "es2022", lib: ["es2022", "dom"], types: [], module: "node16", moduleResolution: "node16" };
    await writeFile(config, JSON.stringify({ compilerOptions, files: ["consumer.mts", "consumer.cts"] }));
    const result = await run(process.execPath, [TSC, "-p", config], { cwd: project }).then(
      () => ({ code: 0, output: "" }),
      (error: Error & { code?: number; stdout?: string }) => ({ code: error.code ?? 1, output: error.stdout ?? error.message }),
    );
    expect(result).toEqual({ code: 0, output: "" });
  }, 120_000);
});
