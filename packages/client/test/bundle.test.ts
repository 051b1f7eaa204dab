/**
 * The client's browser bundle: its minified + gzipped size (whole, and one area alone), and that it
 * holds neither zod, the contract's runtime nor any Node built-in.
 */
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { bundle, publishedModule } from "./bundle.js";

/** The budget: the whole client under 35 KB minified and gzipped (the README says 5 KB for createClient). */
const BUDGET_BYTES = 35 * 1024;

async function measure(source: string) {
  const { code } = await bundle(source, { platform: "browser", minify: true });
  return { code, minified: code.length, gzipped: gzipSync(code).length };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

describe("the browser bundle", () => {
  it("of the published module imports nothing: no zod, no contract, no Node built-in", async () => {
    const { code, metafile } = await publishedModule();
    expect(Object.keys(metafile.inputs).every((input) => input.startsWith("src/"))).toBe(true);
    expect(code).not.toMatch(/^import |\brequire\(|process\.env\.|Buffer\./m);
  });

  it("of the whole client is within budget", async () => {
    const whole = await measure(`export * from "@cloudplane/client";`);
    const client = await measure(`export { createClient } from "@cloudplane/client";`);
    console.info(`every export: ${kb(whole.minified)} minified, ${kb(whole.gzipped)} minified + gzipped`);
    console.info(`createClient: ${kb(client.minified)} minified, ${kb(client.gzipped)} minified + gzipped`);
    expect(whole.gzipped).toBeLessThan(BUDGET_BYTES);
    for (const path of ["/iam/clients/", "/cdn/resources/", "/edge/v1/apps", "/streaming/streams", "/cloud/v2/inference/models", "/security/iaas/", "/storage/provisioning/"])
      expect(client.code).toContain(path);
  });

  it("of one area alone leaves the other areas out", async () => {
    const client = await measure(`export { createClient } from "@cloudplane/client";`);
    const edge = await measure(`export { createEdgeClient } from "@cloudplane/client";`);
    console.info(`createEdgeClient alone: ${kb(edge.minified)} minified, ${kb(edge.gzipped)} minified + gzipped`);
    expect(edge.code).toContain("/edge/v1/apps");
    for (const path of ["/iam/clients/", "/cdn/resources/", "/streaming/streams", "/cloud/v2/inference/models", "/security/iaas/", "/storage/provisioning/"])
      expect(edge.code).not.toContain(path);
    expect(edge.gzipped).toBeLessThan(client.gzipped);
  });
});
