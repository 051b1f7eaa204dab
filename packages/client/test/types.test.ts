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

describe("the names a user sees", () => {
  it("are the API's type names, in hovers and in errors", () => {
    const file = fileURLToPath(new URL("./hover.ts", import.meta.url));
    const source = `
import { createClient } from "../src/index.js";
const client = createClient();
export const resource = await client.cdn.resources.update(1, { description: "ok" });
export const app = await client.edge.apps.get(1);
export const page = await client.edge.apps.list();
export const stream = await client.streaming.streams.get(1).withResponse();
export const byId = await client.request("cdn.getOriginGroup", { params: { origin_group_id: 1 } });
export const body: Parameters<typeof client.edge.apps.create>[0] = { name: "app" };
export const wrong: number = resource;
`;
    const config = ts.getParsedCommandLineOfConfigFile(TSCONFIG, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
    if (!config) throw new Error("tsconfig.json could not be read.");
    const host = ts.createCompilerHost(config.options);
    const getSourceFile = host.getSourceFile.bind(host);
    host.getSourceFile = (fileName, languageVersion, ...rest) =>
      fileName === file ? ts.createSourceFile(fileName, source, languageVersion) : getSourceFile(fileName, languageVersion, ...rest);
    host.fileExists = ((exists) => (fileName: string) => fileName === file || exists(fileName))(host.fileExists.bind(host));
    const program = ts.createProgram({ rootNames: [file], options: config.options, host });
    const checker = program.getTypeChecker();
    const shown: Record<string, string> = {};
    ts.forEachChild(program.getSourceFile(file)!, (node) => {
      if (!ts.isVariableStatement(node)) return;
      const declaration = node.declarationList.declarations[0]!;
      shown[declaration.name.getText()] = checker.typeToString(checker.getTypeAtLocation(declaration.name));
    });
    expect(shown).toEqual({
      client: "CloudplaneClient",
      resource: "WithRequestId<CdnResource>",
      app: "WithRequestId<EdgeAppDetail>",
      page: "Page<EdgeApp, EdgeAppList>",
      stream: "APIResponse<Stream>",
      byId: "WithRequestId<OriginGroup>",
      body: "CreateEdgeAppBody",
      wrong: "number",
    });
    const errors = ts.getPreEmitDiagnostics(program).filter((diagnostic) => diagnostic.file?.fileName === file);
    expect(errors.map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"))).toEqual([
      "Type 'WithRequestId<CdnResource>' is not assignable to type 'number'.",
    ]);
  });
});
