/**
 * What the client's generators share: doc comments as they write them, and the command line of a
 * generator of one file (write it, or `--check` that it is up to date, or `--out` another file).
 */
import { readFile, writeFile } from "node:fs/promises";
import process from "node:process";
import { fileURLToPath } from "node:url";

/** `text` as the lines of a doc comment indented by `indent`, wrapped near 120 columns; one line when it fits. */
export function docComment(text, indent, { oneLine = true } = {}) {
  const words = text.replaceAll("*/", "*\\/").split(/\s+/).filter(Boolean);
  const lines = [];
  let line = "";
  for (const word of words) {
    if (line && indent.length + 3 + line.length + 1 + word.length > 120) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  if (oneLine && lines.length === 1 && indent.length + lines[0].length + 7 <= 120) return [`${indent}/** ${lines[0]} */`];
  return [`${indent}/**`, ...lines.map((each) => `${indent} * ${each}`), `${indent} */`];
}

/**
 * Runs a generator of one file when its module is the command (`meta` is its `import.meta`): writes
 * `render()` to `defaultOut` (or `--out <file>`), or with `--check` writes nothing and exits 1 when
 * the file differs.
 */
export async function runGenerator(meta, defaultOut, render) {
  if (!process.argv[1] || fileURLToPath(meta.url) !== process.argv[1]) return;
  const args = process.argv.slice(2);
  const check = args.includes("--check");
  const outIndex = args.indexOf("--out");
  const out = outIndex >= 0 ? args[outIndex + 1] : defaultOut;
  if (!out) throw new Error("--out needs a file.");
  const text = render();
  const current = await readFile(out, "utf8").catch(() => undefined);
  if (check) {
    if (current !== text) process.stderr.write(`${out} is not up to date with the contract: run \`pnpm --filter @cloudplane/client generate\`.\n`);
    process.exitCode = current === text ? 0 : 1;
    return;
  }
  if (current !== text) await writeFile(out, text);
}
