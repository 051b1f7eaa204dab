/**
 * The published client and contract in a project of their own: both packed (`pnpm pack`, as they are
 * published), installed with npm from the tarballs into a fresh folder whose project depends on another
 * zod 3 than ours (the lowest of the peer range, from the npm registry), so that the project keeps one
 * zod and one @ts-rest/core. A consumer file that composes our schemas with its zod and calls the client
 * then typechecks with `--strict` under node16 resolution (ESM and CommonJS) and bundler resolution
 * (import and require), our declaration files included, and runs on Node as ESM and as CommonJS.
 * Needs the npm registry; it fails, never skips, without it.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);

/** The zod the project has: the lowest version the packages' peer range (the `peer` catalog) accepts. */
const PROJECT_ZOD = "3.23.8";
const PACKAGES = { contract: fileURLToPath(new URL("../../contract", import.meta.url)), client: fileURLToPath(new URL("..", import.meta.url)) };
const TSC = createRequire(import.meta.url).resolve("typescript/bin/tsc");

/** What a product repository writes: our schemas inside its own, and calls through the client. */
const CONSUMER = `
import { z } from "zod";
import { createClient, type APIErrorCode } from "@cloudplane/client";
import { cdnResource, contract, updateCdnResourceBody, ERROR_STATUS, type CdnResource } from "@cloudplane/contract";

export const resourceWithNote = z.object({ resource: cdnResource, note: z.string().min(1) });
export type ResourceWithNote = z.infer<typeof resourceWithNote>;
export const patches = z.array(updateCdnResourceBody).max(10);
export const listed = z.object({ resources: z.array(cdnResource), next: z.string().nullable() }).merge(z.object({ total: z.number() }));

export function label(value: ResourceWithNote): string {
  const resource: CdnResource = value.resource;
  return \`\${resource.cname} (\${resource.id}): \${value.note}\`;
}

export const path: string = contract.cdn.updateResource.path;
export const invalid: number = ERROR_STATUS.validation_error;
export const code: APIErrorCode = "not_found";

export async function rename(id: number, description: string): Promise<string> {
  const client = createClient({ baseUrl: "https://api.example.com", apiKey: "key" });
  const resource = await client.request("cdn.updateResource", { params: { resource_id: id }, body: { description } });
  const group = await client.request("cdn.getOriginGroup", { params: { origin_group_id: resource.originGroup } });
  return \`\${resource.name} behind \${group.name}\`;
}
`;

/** The same with require, for bundler resolution's CommonJS side. */
const CONSUMER_REQUIRE = `
import zod = require("zod");
import clientPackage = require("@cloudplane/client");
import contractPackage = require("@cloudplane/contract");

export const resourceWithNote = zod.z.object({ resource: contractPackage.cdnResource, note: zod.z.string() });
export type ResourceWithNote = zod.z.infer<typeof resourceWithNote>;
export const client = clientPackage.createClient({ baseUrl: "https://api.example.com", apiKey: "key" });
export const id: number = contractPackage.examples.cdnResourceExample.id;
`;

/** At run time: our schema inside one of the project's, parsing our example; and a client. */
const RUNTIME = (load: (name: string) => string) => `
${load("zod")}
${load("@cloudplane/contract")}
${load("@cloudplane/client")}
const parsed = zod.z.object({ resource: contract.cdnResource }).parse({ resource: contract.examples.cdnResourceExample });
if (parsed.resource.id !== contract.examples.cdnResourceExample.id) throw new Error("the example did not parse");
client.createClient({ baseUrl: "https://api.example.com", apiKey: "key" });
console.log("ran", contract.ROUTES.length, "routes");
`;

const COMPILER_OPTIONS = { strict: true, noEmit: true, skipLibCheck: false, target: "es2022", lib: ["es2022", "dom"], types: [] };

let project: string;

/** Every copy of a package installed in the project, by folder: its version. */
async function copiesOf(name: string): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  async function walk(folder: string): Promise<void> {
    const modules = join(folder, "node_modules");
    const entries = await readdir(modules).catch(() => [] as string[]);
    for (const entry of entries) {
      if (entry.startsWith(".")) continue;
      const names = entry.startsWith("@") ? (await readdir(join(modules, entry))).map((inner) => `${entry}/${inner}`) : [entry];
      for (const installed of names) {
        const packageFolder = join(modules, installed);
        if (installed === name) {
          const manifest = JSON.parse(await readFile(join(packageFolder, "package.json"), "utf8")) as { version: string };
          found[packageFolder.slice(project.length + 1)] = manifest.version;
        }
        await walk(packageFolder);
      }
    }
  }
  await walk(project);
  return found;
}

/** Typechecks with the given options; returns the files of the program, relative to the project. */
async function typecheck(name: string, options: Record<string, unknown>, sources: string[]): Promise<string[]> {
  const config = join(project, `tsconfig.${name}.json`);
  await writeFile(config, JSON.stringify({ compilerOptions: { ...COMPILER_OPTIONS, ...options }, files: sources }, null, 2));
  const { code, stdout } = await run(process.execPath, [TSC, "-p", config, "--listFiles"], { cwd: project }).then(
    (result) => ({ code: 0, stdout: result.stdout }),
    (error: Error & { code?: number; stdout?: string }) => ({ code: error.code ?? 1, stdout: error.stdout ?? error.message }),
  );
  // --listFiles prints each file of the program on a line of its own, after the errors.
  const lines = stdout.split("\n").filter(Boolean);
  const listed = lines.filter((line) => /^\S+\.[cm]?ts$/.test(line));
  expect({ code, errors: lines.filter((line) => !listed.includes(line)) }, `tsc (${name})`).toEqual({ code: 0, errors: [] });
  return listed.filter((file) => file.startsWith(`${project}/`)).map((file) => file.slice(project.length + 1));
}

describe("a project with another zod 3 that installs the packed client and contract", () => {
  beforeAll(async () => {
    project = await mkdtemp(join(tmpdir(), "cloudplane-consumer-"));
    for (const folder of Object.values(PACKAGES)) await run("pnpm", ["pack", "--pack-destination", project], { cwd: folder });
    const tarballs = (await readdir(project)).filter((file) => file.endsWith(".tgz")).sort();
    expect(tarballs).toEqual(["cloudplane-client-0.0.0.tgz", "cloudplane-contract-0.0.0.tgz"]);
    await writeFile(
      join(project, "package.json"),
      JSON.stringify({
        name: "consumer",
        private: true,
        dependencies: { "@cloudplane/client": "file:cloudplane-client-0.0.0.tgz", "@cloudplane/contract": "file:cloudplane-contract-0.0.0.tgz", zod: PROJECT_ZOD },
      }),
    );
    await run("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--prefer-offline"], { cwd: project });
    await writeFile(join(project, "consumer.mts"), CONSUMER);
    await writeFile(join(project, "consumer.cts"), CONSUMER);
    await writeFile(join(project, "consumer.ts"), CONSUMER);
    await writeFile(join(project, "consumer-require.cts"), CONSUMER_REQUIRE);
    await writeFile(join(project, "runtime.mjs"), RUNTIME((name) => `import * as ${variable(name)} from "${name}";`));
    await writeFile(join(project, "runtime.cjs"), RUNTIME((name) => `const ${variable(name)} = require("${name}");`));
  }, 240_000);
  afterAll(async () => {
    if (project) await rm(project, { recursive: true, force: true });
  });

  it("publishes zod and @ts-rest/core as peer dependencies with a range that holds the project's zod", async () => {
    for (const name of ["contract", "client"]) {
      const manifest = JSON.parse(await readFile(join(project, "node_modules", "@cloudplane", name, "package.json"), "utf8")) as {
        dependencies?: Record<string, string>;
        peerDependencies?: Record<string, string>;
      };
      expect(manifest.peerDependencies, name).toEqual({ "@ts-rest/core": "~3.52.0", zod: `^${PROJECT_ZOD}` });
      expect(Object.keys(manifest.dependencies ?? {}), name).not.toContain("zod");
    }
  });

  it("keeps one zod, the project's, and one @ts-rest/core", async () => {
    expect(await copiesOf("zod")).toEqual({ "node_modules/zod": PROJECT_ZOD });
    expect(Object.keys(await copiesOf("@ts-rest/core"))).toEqual(["node_modules/@ts-rest/core"]);
  });

  it("typechecks the consumer with --strict under node16 resolution, as ESM and as CommonJS", async () => {
    const files = await typecheck("node16", { module: "node16", moduleResolution: "node16" }, ["consumer.mts", "consumer.cts"]);
    for (const name of ["contract", "client"])
      expect(files, name).toEqual(expect.arrayContaining([`node_modules/@cloudplane/${name}/dist/index.d.ts`, `node_modules/@cloudplane/${name}/dist/index.d.cts`]));
  }, 120_000);

  it("typechecks the consumer with --strict under bundler resolution, by import and by require", async () => {
    const files = await typecheck("bundler", { module: "preserve", moduleResolution: "bundler" }, ["consumer.ts", "consumer-require.cts"]);
    for (const name of ["contract", "client"])
      expect(files, name).toEqual(expect.arrayContaining([`node_modules/@cloudplane/${name}/dist/index.d.ts`, `node_modules/@cloudplane/${name}/dist/index.d.cts`]));
  }, 120_000);

  it("runs on Node as ESM and as CommonJS", async () => {
    for (const file of ["runtime.mjs", "runtime.cjs"]) {
      const { stdout } = await run(process.execPath, [file], { cwd: project });
      expect(stdout, file).toMatch(/^ran \d+ routes\n$/);
    }
  });
});

function variable(name: string): string {
  return { zod: "zod", "@cloudplane/contract": "contract", "@cloudplane/client": "client" }[name]!;
}
