/**
 * The published client (and contract) in product repositories of their own: the packages packed
 * (`pnpm pack`, as they are published) and installed with npm from the tarballs into fresh projects:
 *
 * - one with zod 4 (the current line) and the client alone, composing its own zod 4 schemas with the
 *   client's types;
 * - one with no zod at all, the client alone;
 * - one with zod 3 (the lowest of the contract's peer range) and the client and the contract, composing
 *   the contract's schemas with its own zod.
 *
 * Each project's code typechecks with `--strict` under node16 resolution (ESM and CommonJS) and bundler
 * resolution (import and require), the packages' declaration files included, with TypeScript 5 (ours)
 * and TypeScript 7 (the native compiler, from the npm registry), and runs on Node as ESM and as CommonJS.
 * Needs the npm registry; it fails, never skips, without it.
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { npmInstall } from "../../../scripts/npm-install.mjs";

const run = promisify(execFile);

/** The zod 3 the contract's project has: the lowest version of the contract's peer range (the `peer` catalog). */
const ZOD_3 = "3.23.8";
/** The zod 4 and the TypeScript 7 of the other projects: current releases, from the npm registry. */
const ZOD_4 = "4.6.7";
const TYPESCRIPT_7 = "7.0.2";
const PACKAGES = { contract: fileURLToPath(new URL("../../contract", import.meta.url)), client: fileURLToPath(new URL("..", import.meta.url)) };
const TSC_5 = createRequire(import.meta.url).resolve("typescript/bin/tsc");

/** A project: what it installs and the code it typechecks (`.ts`, compiled as ESM and CommonJS) and runs. */
interface Project {
  name: string;
  dependencies: Record<string, string>;
  /** Typechecked as consumer.mts, consumer.cts and consumer.ts. */
  consumer: string;
  /** Typechecked as consumer-require.cts (bundler resolution's CommonJS side). */
  consumerRequire: string;
  /** Run as runtime.mjs and runtime.cjs; `load` writes an import or a require of a package into a variable. */
  runtime: (load: (name: string, variable: string) => string) => string;
}

/** What every project does with the client: calls typed from its plain types, names that hover, narrowed errors. */
const CLIENT_CALLS = `
export async function rename(id: number, description: string): Promise<string> {
  const client = createClient({ baseUrl: "https://api.example.com", apiKey: "key" });
  const resource: CdnResource = await client.cdn.resources.update(id, { description });
  const group = await client.request("cdn.getOriginGroup", { params: { origin_group_id: resource.originGroup } });
  return \`\${resource.name} behind \${group.name}\`;
}

export async function appNames(): Promise<string[]> {
  const client = createClient({ baseUrl: "https://api.example.com", apiKey: "key" });
  const names: string[] = [];
  for await (const app of client.edge.apps.list({ limit: 50 })) names.push((app satisfies EdgeApp).name);
  return names;
}

export const code: APIErrorCode = "not_found";
// @ts-expect-error a body field the route does not have
export const wrong: UpdateCdnResourceBody = { descripton: "typo" };
`;

const ZOD_4_PROJECT: Project = {
  name: "zod4",
  dependencies: { zod: ZOD_4 },
  consumer: `
import { z } from "zod";
import { createClient, type APIErrorCode, type CdnResource, type EdgeApp, type UpdateCdnResourceBody } from "@cloudplane/client";

/** The project's own zod 4 schema of what it sends, checked against the client's type of the body. */
export const patch = z.object({ description: z.string().max(255), active: z.boolean().optional() });
export const typed: UpdateCdnResourceBody = patch.parse({ description: "edge" });
${CLIENT_CALLS}`,
  consumerRequire: `
import zod = require("zod");
import clientPackage = require("@cloudplane/client");

export const patch = zod.z.object({ description: zod.z.string() });
export const client = clientPackage.createClient({ baseUrl: "https://api.example.com", apiKey: "key" });
export const body: clientPackage.UpdateCdnResourceBody = patch.parse({ description: "edge" });
`,
  runtime: (load) => `
${load("zod", "zod")}
${load("@cloudplane/client", "client")}
const patch = zod.z.object({ description: zod.z.string() }).parse({ description: "edge" });
client.createClient({ baseUrl: "https://api.example.com", apiKey: "key" });
if (patch.description !== "edge") throw new Error("zod 4 did not parse");
console.log("ran with zod", zod.z.string().def ? 4 : 3);
`,
};

const NO_ZOD_PROJECT: Project = {
  name: "nozod",
  dependencies: {},
  consumer: `
import { createClient, type APIErrorCode, type CdnResource, type EdgeApp, type UpdateCdnResourceBody } from "@cloudplane/client";
${CLIENT_CALLS}`,
  consumerRequire: `
import clientPackage = require("@cloudplane/client");

export const client = clientPackage.createClient({ baseUrl: "https://api.example.com", apiKey: "key" });
export const body: clientPackage.UpdateCdnResourceBody = { description: "edge" };
`,
  runtime: (load) => `
${load("@cloudplane/client", "client")}
const made = client.createClient({ baseUrl: "https://api.example.com", apiKey: "key" });
console.log("ran with", typeof made.cdn.resources.update, "methods");
`,
};

const ZOD_3_PROJECT: Project = {
  name: "zod3",
  dependencies: { zod: ZOD_3 },
  consumer: `
import { z } from "zod";
import { createClient, type APIErrorCode, type CdnResource, type EdgeApp, type UpdateCdnResourceBody } from "@cloudplane/client";
import { cdnResource, contract, updateCdnResourceBody, ERROR_STATUS, type CdnResource as ContractCdnResource } from "@cloudplane/contract";

export const resourceWithNote = z.object({ resource: cdnResource, note: z.string().min(1) });
export type ResourceWithNote = z.infer<typeof resourceWithNote>;
export const patches = z.array(updateCdnResourceBody).max(10);
export const listed = z.object({ resources: z.array(cdnResource), next: z.string().nullable() }).merge(z.object({ total: z.number() }));

export function label(value: ResourceWithNote): string {
  const resource: ContractCdnResource = value.resource;
  // The contract's parsed resource is the client's resource.
  const same: CdnResource = resource;
  return \`\${same.cname} (\${resource.id}): \${value.note}\`;
}

export const path: string = contract.cdn.updateResource.path;
export const invalid: number = ERROR_STATUS.validation_error;
${CLIENT_CALLS}`,
  consumerRequire: `
import zod = require("zod");
import clientPackage = require("@cloudplane/client");
import contractPackage = require("@cloudplane/contract");

export const resourceWithNote = zod.z.object({ resource: contractPackage.cdnResource, note: zod.z.string() });
export type ResourceWithNote = zod.z.infer<typeof resourceWithNote>;
export const client = clientPackage.createClient({ baseUrl: "https://api.example.com", apiKey: "key", validateResponses: contractPackage.contract });
export const id: number = contractPackage.examples.cdnResourceExample.id;
`,
  runtime: (load) => `
${load("zod", "zod")}
${load("@cloudplane/contract", "contract")}
${load("@cloudplane/client", "client")}
const parsed = zod.z.object({ resource: contract.cdnResource }).parse({ resource: contract.examples.cdnResourceExample });
if (parsed.resource.id !== contract.examples.cdnResourceExample.id) throw new Error("the example did not parse");
client.createClient({ baseUrl: "https://api.example.com", apiKey: "key", validateResponses: contract.contract });
console.log("ran", contract.ROUTES.length, "routes");
`,
};

const COMPILER_OPTIONS = { strict: true, noEmit: true, skipLibCheck: false, target: "es2022", lib: ["es2022", "dom"], types: [] };
const RESOLUTIONS = {
  node16: { options: { module: "node16", moduleResolution: "node16" }, files: ["consumer.mts", "consumer.cts"] },
  bundler: { options: { module: "preserve", moduleResolution: "bundler" }, files: ["consumer.ts", "consumer-require.cts"] },
} as const;

let root: string;
const tarballs: Record<string, string> = {};
let tsc7: string;

/** Every copy of a package installed in `project`, by folder: its version. */
async function copiesOf(project: string, name: string): Promise<Record<string, string>> {
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

/** Typechecks `files` of `project` with `tsc`; returns the files of the program, relative to the project. */
async function typecheck(project: string, tsc: string, name: string, options: Record<string, unknown>, files: readonly string[]): Promise<string[]> {
  const config = join(project, `tsconfig.${name}.json`);
  await writeFile(config, JSON.stringify({ compilerOptions: { ...COMPILER_OPTIONS, ...options }, files }, null, 2));
  const { code, stdout } = await run(process.execPath, [tsc, "-p", config, "--listFiles"], { cwd: project }).then(
    (result) => ({ code: 0, stdout: result.stdout }),
    (error: Error & { code?: number; stdout?: string }) => ({ code: error.code ?? 1, stdout: error.stdout ?? error.message }),
  );
  // --listFiles prints each file of the program on a line of its own, after the errors.
  const lines = stdout.split("\n").filter(Boolean);
  const listed = lines.filter((line) => /^\S+\.[cm]?ts$/.test(line));
  expect({ code, errors: lines.filter((line) => !listed.includes(line)) }, `tsc (${name})`).toEqual({ code: 0, errors: [] });
  return listed.filter((file) => file.startsWith(`${project}/`)).map((file) => file.slice(project.length + 1));
}

async function install(folder: string, dependencies: Record<string, string>): Promise<void> {
  await mkdir(folder, { recursive: true });
  await writeFile(join(folder, "package.json"), JSON.stringify({ name: "consumer", private: true, dependencies }));
  await npmInstall(folder);
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "cloudplane-consumer-"));
  for (const [name, folder] of Object.entries(PACKAGES)) {
    await run("pnpm", ["pack", "--pack-destination", root], { cwd: folder });
    const tarball = (await readdir(root)).find((file) => file.startsWith(`cloudplane-${name}-`) && file.endsWith(".tgz"));
    expect(tarball, name).toBeDefined();
    tarballs[name] = `file:${join(root, tarball!)}`;
  }
  // TypeScript 7 in a folder of its own: the compiler, not the projects, is what it adds.
  await install(join(root, "typescript7"), { typescript: TYPESCRIPT_7 });
  tsc7 = join(root, "typescript7", "node_modules", "typescript", "bin", "tsc");
}, 240_000);

afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

describe.each([ZOD_4_PROJECT, NO_ZOD_PROJECT, ZOD_3_PROJECT])("a project ($name) that installs the packed client", (project) => {
  let folder: string;
  const withContract = project === ZOD_3_PROJECT;

  beforeAll(async () => {
    folder = join(root, project.name);
    const ours = { "@cloudplane/client": tarballs.client!, ...(withContract ? { "@cloudplane/contract": tarballs.contract! } : {}) };
    await install(folder, { ...ours, ...project.dependencies });
    for (const file of ["consumer.mts", "consumer.cts", "consumer.ts"]) await writeFile(join(folder, file), project.consumer);
    await writeFile(join(folder, "consumer-require.cts"), project.consumerRequire);
    await writeFile(join(folder, "runtime.mjs"), project.runtime((name, variable) => `import * as ${variable} from "${name}";`));
    await writeFile(join(folder, "runtime.cjs"), project.runtime((name, variable) => `const ${variable} = require("${name}");`));
  }, 240_000);

  it("installs the client with no dependencies and no peers, and only the project's zod", async () => {
    const manifest = JSON.parse(await readFile(join(folder, "node_modules", "@cloudplane", "client", "package.json"), "utf8")) as Record<string, unknown>;
    expect([manifest.dependencies, manifest.peerDependencies, manifest.optionalDependencies]).toEqual([undefined, undefined, undefined]);
    const zod = project.dependencies.zod;
    expect(await copiesOf(folder, "zod")).toEqual(zod === undefined ? {} : { "node_modules/zod": zod });
    expect(await copiesOf(folder, "@ts-rest/core")).toEqual(withContract ? { "node_modules/@ts-rest/core": expect.any(String) } : {});
  });

  if (withContract) {
    it("installs the contract with zod and @ts-rest/core as peers whose range holds the project's zod 3", async () => {
      const manifest = JSON.parse(await readFile(join(folder, "node_modules", "@cloudplane", "contract", "package.json"), "utf8")) as {
        dependencies?: Record<string, string>;
        peerDependencies?: Record<string, string>;
      };
      expect(manifest.peerDependencies).toEqual({ "@ts-rest/core": "~3.52.0", zod: `^${ZOD_3}` });
      expect(Object.keys(manifest.dependencies ?? {})).not.toContain("zod");
    });
  }

  describe.each([
    ["TypeScript 5", () => TSC_5],
    ["TypeScript 7", () => tsc7],
  ])("with %s", (_version, tsc) => {
    it.each(Object.entries(RESOLUTIONS))("typechecks with --strict under %s resolution, as ESM and as CommonJS", async (resolution, { options, files }) => {
      const listed = await typecheck(folder, tsc(), `${resolution}-${tsc() === TSC_5 ? 5 : 7}`, options, files);
      const packages = withContract ? ["client", "contract"] : ["client"];
      for (const name of packages)
        expect(listed, name).toEqual(expect.arrayContaining([`node_modules/@cloudplane/${name}/dist/index.d.ts`, `node_modules/@cloudplane/${name}/dist/index.d.cts`]));
      // The client's declarations need nothing else: no zod, no contract, no ts-rest.
      const elsewhere = listed.filter((file) => file.startsWith("node_modules/") && !/^node_modules\/(@cloudplane\/client|zod)\//.test(file));
      if (!withContract) expect(elsewhere).toEqual([]);
    }, 120_000);
  });

  it("runs on Node as ESM and as CommonJS", async () => {
    const expected = { zod4: /^ran with zod 4\n$/, nozod: /^ran with function methods\n$/, zod3: /^ran \d+ routes\n$/ }[project.name]!;
    for (const file of ["runtime.mjs", "runtime.cjs"]) {
      const { stdout } = await run(process.execPath, [file], { cwd: folder });
      expect(stdout, file).toMatch(expected);
    }
  });
});
