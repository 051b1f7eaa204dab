/**
 * Part 9, builds: what a developer waits for. In this checkout, and with `--before <dir>` in another one
 * too (e.g. a worktree of an older commit), step by step in turns so that both share the machine's load: a cold
 * `pnpm build` (`turbo run build --force`, no dist/), a cold `pnpm typecheck` (`--force`), the size of the
 * contract's `.d.ts`, the edit loop (a description in packages/contract/src changed, then the handlers'
 * typecheck through turbo, with whatever it has to rebuild first; the edit reverted afterwards), a
 * first `pnpm start` that builds everything it needs (`TURBO_FORCE`) with the longest time it printed
 * nothing, and a warm `pnpm start`, each to its first answer. With `--scale 3` the same is measured on a copy of the checkout
 * whose contract has every area three times (see `tripleContract`). Each figure is printed with the
 * load average (`uptime`), since the machine is shared.
 *
 *   node --import tsx src/builds.ts [--before <dir>] [--scale 1|3] [--skip build|typecheck|start]…
 *
 * Its figures go to builds.json (a row per checkout and run) and to the "9. Builds" section of
 * results.md, which is rewritten in place; the rest of results.md is left as it is.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const BENCH_DIR = fileURLToPath(new URL("..", import.meta.url));
const THIS_REPO = resolve(BENCH_DIR, "../..");
const BUILDS_JSON = join(BENCH_DIR, "builds.json");
const RESULTS_MD = join(BENCH_DIR, "results.md");
const SECTION = "## 9. Builds";

export interface Timed {
  seconds: number;
  /** `uptime`'s load averages (1, 5, 15 min) when the step started. */
  load: string;
  ok: boolean;
  /** For a `pnpm start`: the longest stretch, in seconds, in which it printed nothing. */
  longestSilence?: number;
}

export interface BuildFigures {
  label: string;
  scale: number;
  commit: string;
  date: string;
  routes: number;
  coldBuild: Timed;
  coldTypecheck: Timed;
  contractDtsBytes: number | null;
  editLoop: Timed;
  /** `pnpm start` building everything it needs, as a newcomer's first one does (absent in older rows). */
  firstStart?: Timed | null;
  warmStart: Timed | null;
  /** What a reader should know about the run, written by hand into builds.json. */
  note?: string;
}

function uptime(): string {
  const text = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(", ");
  return text;
}

function run(repo: string, command: string, args: string[], env: NodeJS.ProcessEnv = {}): Timed {
  const load = uptime();
  const started = performance.now();
  const result = spawnSync(command, args, {
    cwd: repo,
    env: { ...process.env, ...env, FORCE_COLOR: "0" },
    stdio: ["ignore", "pipe", "pipe"],
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const seconds = (performance.now() - started) / 1000;
  const ok = result.status === 0;
  if (!ok) console.error(`  ${command} ${args.join(" ")} failed (${result.status}):\n${(result.stdout + result.stderr).slice(-3000)}`);
  return { seconds, load, ok };
}

const turbo = (repo: string) => join(repo, "node_modules/.bin/turbo");

function cleanBuildState(repo: string): void {
  for (const group of ["packages", "apps", "tooling"]) {
    const dir = join(repo, group);
    for (const name of readdirSync(dir)) {
      rmSync(join(dir, name, "dist"), { recursive: true, force: true });
      for (const file of ["tsconfig.tsbuildinfo"]) rmSync(join(dir, name, file), { force: true });
    }
  }
}

/** A description in the contract's sources: the first `.describe("…")` of the CDN resources' file (cdn.ts before the areas were folders). */
function editDescription(repo: string): () => void {
  const folder = join(repo, "packages/contract/src/cdn/resources.ts");
  const file = existsSync(folder) ? folder : join(repo, "packages/contract/src/cdn.ts");
  const original = readFileSync(file, "utf8");
  const at = original.indexOf('.describe("');
  if (at === -1) throw new Error(`no .describe("…") in ${file}`);
  const start = at + '.describe("'.length;
  // A text no run made before: turbo's cache (shared by the worktrees of a clone) must not have its result.
  writeFileSync(file, `${original.slice(0, start)}Edited by the bench at ${new Date().toISOString()}. ${original.slice(start)}`);
  return () => writeFileSync(file, original);
}

/**
 * `pnpm start` twice on a fresh data directory: first building everything it needs again (`TURBO_FORCE`:
 * the docs site and what it reads, as on a fresh clone), then warm, on the data directory the first made.
 */
async function starts(repo: string): Promise<{ first: Timed; warm: Timed }> {
  const dataDir = mkdtempSync(join(tmpdir(), "bench-start-"));
  try {
    const first = await startOnce(repo, dataDir, { TURBO_FORCE: "true" });
    return { first, warm: await startOnce(repo, dataDir) };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function startOnce(repo: string, dataDir: string, env: NodeJS.ProcessEnv = {}): Promise<Timed> {
  const load = uptime();
  const started = performance.now();
  const child = spawn("pnpm", ["start"], {
    cwd: repo,
    env: { ...process.env, PORT: "0", DATA_DIR: dataDir, DATABASE_URL: "", FORCE_COLOR: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  let lastOutput = started;
  let longestSilence = 0;
  const heard = (chunk: Buffer) => {
    const now = performance.now();
    longestSilence = Math.max(longestSilence, (now - lastOutput) / 1000);
    lastOutput = now;
    output += chunk.toString();
  };
  child.stdout.on("data", heard);
  child.stderr.on("data", heard);
  try {
    const deadline = Date.now() + 600_000;
    let api: string | undefined;
    let key: string | undefined;
    while (Date.now() < deadline) {
      api ??= /API:\s+(http\S+)/.exec(output)?.[1];
      key ??= /Admin API key:\s+(\S+)/.exec(output)?.[1];
      if (api && key) {
        const response = await fetch(`${api}/cdn/clients/me/features`, { headers: { authorization: `apikey ${key}` } }).catch(() => undefined);
        if (response) {
          await response.arrayBuffer();
          return { seconds: (performance.now() - started) / 1000, load, ok: response.ok, longestSilence };
        }
      }
      if (child.exitCode !== null) break;
      await new Promise((done) => setTimeout(done, 20));
    }
    console.error(`  pnpm start gave no answer:\n${output.slice(-3000)}`);
    return { seconds: (performance.now() - started) / 1000, load, ok: false, longestSilence };
  } finally {
    if (child.pid) process.kill(-child.pid, "SIGTERM");
    await new Promise((done) => (child.exitCode !== null ? done(undefined) : child.once("exit", done)));
  }
}

const AREA_FILES = ["iam", "cdn", "edge", "streaming", "cloud", "security", "storage"] as const;

/**
 * Three times the contract, in a copy of the checkout: every area's file copied twice (`cdn_2.ts`,
 * `cdn_3.ts`), each copy's paths under another first segment (`/cdn_2/…`), and one router of the
 * contract and all the copies, `contractAtScale`, exported by the contract's index. So the contract's
 * build, its `.d.ts` and everything that reads the contract's index (from its `.d.ts` or its sources)
 * carry three times the routes; the handlers, the client and the docs still implement, call and
 * document the original routes only (making them serve the copies would measure a generator of ours).
 */
function tripleContract(repo: string): void {
  const src = join(repo, "packages/contract/src");
  const imports: string[] = [];
  const entries: string[] = [];
  for (const area of AREA_FILES) {
    // An area is a file (`cdn.ts`) or a folder of its resources with the area's router in its index.
    const folder = existsSync(join(src, area)) && statSync(join(src, area)).isDirectory();
    const files = folder ? walk(join(src, area)).map((file) => relative(join(src, area), file)) : [`${area}.ts`];
    const main = folder ? "index.ts" : `${area}.ts`;
    // The area's own router, `<area>Contract` (an area's index may export a router of some of its resources too, as cdn's `logsUploaderContract`).
    const exported = new RegExp(`export const (${area}Contract) = c\\.router`).exec(readFileSync(folder ? join(src, area, main) : join(src, main), "utf8"))?.[1];
    if (!exported) throw new Error(`no area router in ${area}`);
    for (const copy of [2, 3]) {
      const name = `${area}_${copy}`;
      for (const file of files) {
        const from = folder ? join(src, area, file) : join(src, file);
        const to = folder ? join(src, name, file) : join(src, `${name}.ts`);
        mkdirSync(dirname(to), { recursive: true });
        writeFileSync(to, readFileSync(from, "utf8").replaceAll(`path: "/${area}/`, `path: "/${name}/`).replaceAll(`"/${area}"`, `"/${name}"`));
      }
      imports.push(`import { ${exported} as ${exported}_${copy} } from "./${folder ? `${name}/index` : name}.js";`);
      entries.push(`  ${name}: ${exported}_${copy},`);
    }
  }
  writeFileSync(
    join(src, "at-scale.ts"),
    [
      'import { initContract } from "@ts-rest/core";',
      'import { contract } from "./contract.js";',
      ...imports,
      "",
      "const c = initContract();",
      "",
      "export const contractAtScale = c.router({",
      "  ...contract,",
      ...entries,
      "});",
      "",
    ].join("\n"),
  );
  const index = join(src, "index.ts");
  writeFileSync(index, `${readFileSync(index, "utf8")}export { contractAtScale } from "./at-scale.js";\n`);
}

/** The `.ts` files under `dir`, tests left out. */
function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return walk(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

/** The copy of the checkout for the scale check: its tracked files, its node_modules linked by pnpm offline. */
function copyOfCheckout(repo: string): string {
  const copy = mkdtempSync(join(tmpdir(), "bench-builds-"));
  execFileSync("sh", ["-c", `git -C "${repo}" ls-files -z | (cd "${repo}" && xargs -0 tar -cf -) | tar -xf - -C "${copy}"`]);
  execFileSync("git", ["init", "-q"], { cwd: copy });
  execFileSync("git", ["add", "-A"], { cwd: copy });
  execFileSync("git", ["-c", "user.email=bench@localhost", "-c", "user.name=bench", "commit", "-qm", "copy"], { cwd: copy });
  execFileSync("pnpm", ["install", "--offline", "--frozen-lockfile", "--reporter=silent"], { cwd: copy, stdio: "inherit" });
  return copy;
}

/** The routes the contract's sources define (`method:` lines), the copies of the scale check included. */
function countRoutes(repo: string): number {
  let count = 0;
  for (const file of walk(join(repo, "packages/contract/src"))) count += readFileSync(file, "utf8").match(/^\s+method: "(GET|POST|PUT|PATCH|DELETE)"/gm)?.length ?? 0;
  return count;
}

export interface Checkout {
  repo: string;
  label: string;
}

/**
 * Each step in every checkout in turn (cold build in each, then cold typecheck in each, …), so that the
 * load other work puts on the machine falls on all of them alike.
 */
export async function measureBuilds(checkouts: Checkout[], options: { scale: number; skipBuild?: boolean; skipStart?: boolean; skipTypecheck?: boolean }): Promise<BuildFigures[]> {
  const copies: string[] = [];
  try {
    const runs = checkouts.map(({ repo, label }) => {
      const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: repo, encoding: "utf8" }).trim();
      if (options.scale === 3) {
        repo = copyOfCheckout(repo);
        copies.push(repo);
        tripleContract(repo);
      }
      return { repo, label, commit, routes: countRoutes(repo) };
    });
    const show = (label: string, name: string, t: Timed) =>
      console.log(`  ${label.padEnd(7)} ${name}: ${t.seconds.toFixed(1)} s${t.ok ? "" : " (FAILED)"}   load average at its start: ${t.load}`);
    for (const r of runs) console.log(`9. Builds, scale ${options.scale}×: ${r.label}: ${r.repo} (${r.commit}), ${r.routes} routes`);

    const skipped: Timed = { seconds: Number.NaN, load: "not measured", ok: false };
    const coldBuild = runs.map((r) => {
      if (options.skipBuild) return skipped;
      cleanBuildState(r.repo);
      const t = run(r.repo, turbo(r.repo), ["run", "build", "--force", "--output-logs=errors-only"]);
      show(r.label, "cold pnpm build (turbo run build --force)", t);
      return t;
    });
    const dtsBytes = runs.map((r) => {
      const dts = join(r.repo, "packages/contract/dist/index.d.ts");
      const bytes = !options.skipBuild && existsSync(dts) ? statSync(dts).size : null;
      console.log(`  ${r.label.padEnd(7)} the contract's index.d.ts: ${bytes === null ? "none" : `${(bytes / 1024).toFixed(0)} KiB`}`);
      return bytes;
    });

    const coldTypecheck = runs.map((r) => {
      if (options.skipTypecheck) return skipped;
      cleanBuildState(r.repo);
      const t = run(r.repo, turbo(r.repo), ["run", "typecheck", "--force", "--output-logs=errors-only"]);
      show(r.label, "cold pnpm typecheck (turbo run typecheck --force)", t);
      return t;
    });

    // The loop starts from a state turbo has cached, as a developer's does: one run first, then the edit.
    const handlersTypecheck = ["run", "typecheck", "--filter=@cloudplane/handlers", "--output-logs=errors-only"];
    for (const r of runs) run(r.repo, turbo(r.repo), handlersTypecheck);
    const editLoop = runs.map((r) => {
      const revert = editDescription(r.repo);
      try {
        const t = run(r.repo, turbo(r.repo), handlersTypecheck);
        show(r.label, "edit loop (a contract description, then the handlers' typecheck through turbo)", t);
        return t;
      } finally {
        revert();
      }
    });

    const start: ({ first: Timed; warm: Timed } | null)[] = [];
    for (const r of runs) {
      if (options.skipStart) {
        start.push(null);
        continue;
      }
      const t = await starts(r.repo);
      show(r.label, `first pnpm start to its first answer (longest silence ${t.first.longestSilence?.toFixed(1)} s)`, t.first);
      show(r.label, "warm pnpm start to its first answer", t.warm);
      start.push(t);
    }
    const date = new Date().toISOString();
    return runs.map((r, i) => ({
      label: r.label,
      scale: options.scale,
      commit: r.commit,
      date,
      routes: r.routes,
      coldBuild: coldBuild[i]!,
      coldTypecheck: coldTypecheck[i]!,
      contractDtsBytes: dtsBytes[i]!,
      editLoop: editLoop[i]!,
      firstStart: start[i]?.first ?? null,
      warmStart: start[i]?.warm ?? null,
    }));
  } finally {
    for (const copy of copies) rmSync(copy, { recursive: true, force: true });
  }
}

const GOALS = { 1: { coldBuild: 60, editLoop: 15, firstStart: 120, warmStart: 5 }, 3: { coldBuild: 120, editLoop: 20 } } as Record<
  number,
  Partial<Record<"coldBuild" | "editLoop" | "firstStart" | "warmStart", number>>
>;

/** The goal for the longest a first start may print nothing. */
const SILENCE_GOAL = 15;

function startCell(t: Timed | null | undefined, goal?: number): string {
  if (!t || t.longestSilence === undefined) return cell(t ?? null, goal);
  return `${cell(t, goal)}, silent ≤ ${t.longestSilence.toFixed(1)} s ${t.longestSilence < SILENCE_GOAL ? "✓" : "✗"}`;
}

function cell(t: Timed | null, goal?: number): string {
  // A step left out is NaN in the run, null once written to builds.json.
  if (!t || t.seconds === null || Number.isNaN(t.seconds)) return "not measured";
  const figure = `${t.seconds.toFixed(1)} s${t.ok ? "" : " (failed)"} (load ${t.load.split(",")[0]})`;
  return goal === undefined ? figure : `${figure} ${t.ok && t.seconds < goal ? "✓" : "✗"}`;
}

export function renderBuildsSection(all: BuildFigures[]): string {
  const lines = [
    SECTION,
    "",
    "What a developer waits for (`src/builds.ts`; `--before <dir>` measures another checkout beside this one, each step in",
    "both in turns). Cold build: `turbo run build --force` with no dist/. Cold typecheck: `turbo run typecheck --force` with",
    "no dist/ (whatever it depends on is built too). Edit loop: a description in packages/contract/src/cdn/resources.ts changed, then",
    "`turbo run typecheck --filter=@cloudplane/handlers` from a cached state (what it has to rebuild first included). Warm",
    "start: `pnpm start` on a data directory an earlier start made, to its first answer; first start: `pnpm start` with",
    "`TURBO_FORCE=true` on a new data directory (it builds everything it needs again, as on a fresh clone), to its first answer,",
    "with the longest time it printed nothing. At 3×, a copy of each checkout whose",
    "contract has every area three times (`tripleContract`: each area's file copied twice, its paths under another first",
    "segment, all in one router exported by the contract's index); the handlers, client and docs still implement the original",
    "routes, so the handlers' typecheck reads a contract three times as large. Routes: the contract's `method:` lines. The",
    "load average (1 min) at each step's start is beside it: the machine is shared, so compare rows measured together.",
    "Goals: cold build < 60 s, edit loop < 15 s, first start < 2 min printing at least every 15 s, warm start < 5 s; at 3×:",
    "cold build < 2 min, edit loop < 20 s.",
    "",
    "| Run | Commit | Routes | Cold build | Cold typecheck | Contract .d.ts | Edit loop | First start | Warm start | Measured |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
  ];
  for (const f of all) {
    const goals = GOALS[f.scale] ?? {};
    lines.push(
      `| ${f.label}, ${f.scale}× | ${f.commit} | ${f.routes} | ${cell(f.coldBuild, goals.coldBuild)} | ${cell(f.coldTypecheck)} | ${f.contractDtsBytes === null ? "—" : `${(f.contractDtsBytes / 1024).toFixed(0)} KiB`} | ${cell(f.editLoop, goals.editLoop)} | ${f.scale === 1 ? startCell(f.firstStart, goals.firstStart) : startCell(f.firstStart)} | ${f.scale === 1 ? cell(f.warmStart, goals.warmStart) : cell(f.warmStart)} | ${f.date.slice(0, 16).replace("T", " ")} |`,
    );
  }
  const notes = all.filter((f) => f.note);
  if (notes.length > 0) lines.push("", ...notes.map((f) => `- ${f.label}, ${f.scale}×, ${f.commit} (${f.date.slice(0, 16).replace("T", " ")}): ${f.note}`));
  return `${lines.join("\n")}\n`;
}

function recorded(): BuildFigures[] {
  return existsSync(BUILDS_JSON) ? (JSON.parse(readFileSync(BUILDS_JSON, "utf8")) as BuildFigures[]) : [];
}

/**
 * Adds a run to builds.json (every run is a row: runs made together share their minutes, and a step left
 * out of a run says "not measured" there) and rewrites only the builds section of results.md.
 */
export function recordBuilds(figures: BuildFigures): void {
  const kept = recorded();
  kept.push(figures);
  kept.sort((a, b) => a.scale - b.scale || a.date.localeCompare(b.date) || (a.label === "before" ? -1 : 1));
  writeFileSync(BUILDS_JSON, `${JSON.stringify(kept, null, 2)}\n`);
  writeBuildsSection();
}

/** The builds section of results.md from builds.json, or "" before any build was measured: a whole run's results.md renders it in its place. */
export function buildsSection(): string {
  const all = recorded();
  return all.length === 0 ? "" : renderBuildsSection(all);
}

/** Rewrites only the builds section of results.md, from builds.json (a builds run on its own). */
function writeBuildsSection(): void {
  const section = buildsSection();
  if (!section) return;
  const md = readFileSync(RESULTS_MD, "utf8");
  const at = md.indexOf(SECTION);
  if (at === -1) {
    writeFileSync(RESULTS_MD, `${md.trimEnd()}\n\n${section}`);
  } else {
    const next = md.indexOf("\n## ", at + SECTION.length);
    writeFileSync(RESULTS_MD, `${md.slice(0, at)}${section}${next === -1 ? "" : md.slice(next)}`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const { values } = parseArgs({
    options: {
      // Another checkout to measure beside this one, step by step in turns, e.g. a worktree of an older commit.
      before: { type: "string" },
      scale: { type: "string" },
      skip: { type: "string", multiple: true },
    },
  });
  const checkouts: Checkout[] = [
    ...(values.before ? [{ repo: resolve(values.before), label: "before" }] : []),
    { repo: THIS_REPO, label: "now" },
  ];
  const all = await measureBuilds(checkouts, {
    scale: Number(values.scale ?? 1),
    skipStart: values.skip?.includes("start") ?? false,
    skipTypecheck: values.skip?.includes("typecheck") ?? false,
    skipBuild: values.skip?.includes("build") ?? false,
  });
  for (const figures of all) recordBuilds(figures);
  console.log(`  recorded in ${BUILDS_JSON} and the "${SECTION}" section of ${RESULTS_MD}`);
}
