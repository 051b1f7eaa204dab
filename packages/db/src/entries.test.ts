/**
 * Guards the promise that the main entry bundles for Cloudflare Workers: nothing it imports statically,
 * directly or through our own modules, is a Node built-in. Node-only code belongs in node.ts; the one
 * exception is the on-demand imports behind PGlite's data directory, which Workers never reach.
 */
import { builtinModules } from "node:module";
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+"([^"]+)"|import\(\s*"([^"]+)"\s*\)/g;

const isBuiltin = (name: string) => name.startsWith("node:") || builtinModules.includes(name.split("/")[0] ?? "");

async function importsOf(entry: string): Promise<{ modules: string[]; packages: string[]; onDemand: string[] }> {
  const modules: string[] = [];
  const packages = new Set<string>();
  const onDemand = new Set<string>();
  const pending = [new URL(entry, import.meta.url)];
  while (pending.length > 0) {
    const file = pending.pop() as URL;
    if (modules.includes(file.pathname)) continue;
    modules.push(file.pathname);
    const text = await readFile(file, "utf8");
    for (const match of text.matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2] ?? "";
      if (specifier.startsWith(".")) {
        if (specifier.endsWith(".json")) continue;
        pending.push(new URL(specifier.replace(/\.js$/, ".ts"), file));
      } else if (match[2] !== undefined) onDemand.add(specifier);
      else packages.add(specifier);
    }
  }
  return { modules, packages: [...packages], onDemand: [...onDemand] };
}

describe("the main entry", () => {
  it("imports no Node built-in statically, directly or through our modules", async () => {
    const { modules, packages, onDemand } = await importsOf("./index.ts");
    expect(modules.length).toBeGreaterThan(10);
    expect(packages.filter(isBuiltin)).toEqual([]);
    expect(onDemand.filter(isBuiltin).sort()).toEqual(["node:fs", "node:fs/promises", "node:path"]);
    expect(modules.some((path) => path.endsWith("/node.ts"))).toBe(false);
  });
});
