/**
 * Proves the type tests of types.test-d.ts fail for the right reason: with the `@ts-expect-error`
 * markers removed, the compiler reports errors on exactly the marked lines and nowhere else.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const TYPE_TESTS = fileURLToPath(new URL("./types.test-d.ts", import.meta.url));
const TSCONFIG = fileURLToPath(new URL("../tsconfig.json", import.meta.url));
const MARKER = /\/\/ @ts-expect-error.*/;

describe("the type tests", () => {
  it("fail to compile on each marked line, and only there", () => {
    const original = readFileSync(TYPE_TESTS, "utf8");
    const lines = original.split("\n");
    // A marker applies to the line after it (1-based line numbers).
    const marked = lines.flatMap((line, index) => (MARKER.test(line) ? [index + 2] : []));
    expect(marked.length).toBeGreaterThanOrEqual(10);

    const config = ts.getParsedCommandLineOfConfigFile(TSCONFIG, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
    if (!config) throw new Error("tsconfig.json could not be read.");
    const host = ts.createCompilerHost(config.options);
    const unmarked = lines.map((line) => line.replace(MARKER, "//")).join("\n");
    const getSourceFile = host.getSourceFile.bind(host);
    host.getSourceFile = (fileName, languageVersion, ...rest) =>
      fileName === TYPE_TESTS ? ts.createSourceFile(fileName, unmarked, languageVersion) : getSourceFile(fileName, languageVersion, ...rest);
    const program = ts.createProgram({ rootNames: [TYPE_TESTS], options: config.options, host });

    const diagnostics = ts.getPreEmitDiagnostics(program);
    const elsewhere = diagnostics.filter((diagnostic) => diagnostic.file?.fileName !== TYPE_TESTS);
    expect(elsewhere.map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"))).toEqual([]);
    const errorLines = diagnostics.map((diagnostic) => diagnostic.file!.getLineAndCharacterOfPosition(diagnostic.start!).line + 1);
    expect([...new Set(errorLines)].sort((a, b) => a - b)).toEqual(marked);
  });
});
