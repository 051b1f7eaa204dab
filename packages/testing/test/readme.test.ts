/**
 * The README (which is also the docs site's page "Testing your code against the platform") names every
 * builder and every fault method the kit has, so that neither can be added without being documented.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Builders, FaultTable } from "../src/index.js";

const README = readFileSync(new URL("../README.md", import.meta.url), "utf8");

function methodsOf(prototype: object): string[] {
  return Object.getOwnPropertyNames(prototype).filter((name) => name !== "constructor");
}

describe("the README", () => {
  it("documents every builder", () => {
    const builders = methodsOf(Builders.prototype);
    expect(builders.length).toBeGreaterThanOrEqual(7);
    for (const name of builders) expect(README, name).toContain(`\`build.${name}(`);
  });

  it("documents every fault method", () => {
    const faults = methodsOf(FaultTable.prototype).filter((name) => !["take", "answer", "releaseWaiting"].includes(name));
    expect(faults).toEqual(["expireToken", "revokeToken", "rateLimit", "unavailable", "timeout", "pending", "clear"]);
    for (const name of faults) expect(README, name).toContain(`\`faults.${name}(`);
  });
});
