/** The secrets scanner itself: that it finds a secret wherever a recorded output holds one, so a clean scan means something. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { demoToken } from "@cloudplane/db";
import { afterEach, describe, expect, it } from "vitest";
import { assertNoSecrets, credentialOf, fixtureSecrets, RunRecorder, scanRun, SecretSearch, secretsInBody } from "./secrets-scan.js";

const reply = (body: string, headers: Record<string, string> = {}) =>
  ({ kind: "reply", method: "POST", path: "/edge/v1/secrets", status: 400, headers, body }) as const;

describe("secrets scan", () => {
  const folders: string[] = [];
  const runFolder = () => {
    const folder = mkdtempSync(join(tmpdir(), "secrets-scan-"));
    folders.push(folder);
    return folder;
  };
  afterEach(() => {
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });

  it("knows every kind of secret of the demo fixture", () => {
    const sources = fixtureSecrets().map((secret) => secret.source);
    expect(sources.some((source) => source.startsWith("fixture api_tokens"))).toBe(true);
    expect(sources.some((source) => source.startsWith("fixture edge secret"))).toBe(true);
    expect(sources.some((source) => source.includes("secret_access_key"))).toBe(true);
  });

  it("takes the secrets out of request bodies and Authorization headers", () => {
    expect(
      secretsInBody({
        name: "s",
        secret_slots: [{ slot: 0, value: "slot-value-1" }, { slot: 1, value: "slot-value-2" }],
        config: { access_key_id: "AKIA", secret_access_key: "storage-key-1" },
        options: { secure_key: { enabled: true, key: "secure-key-1", type: 2 }, cors: { enabled: true, value: ["not.a.secret"] } },
      }).sort(),
    ).toEqual(["secure-key-1", "slot-value-1", "slot-value-2", "storage-key-1"]);
    expect(credentialOf("apikey cp_demo_abc")).toBe("cp_demo_abc");
    expect(credentialOf("apikey")).toBeUndefined();
    expect(credentialOf(null)).toBeUndefined();
  });

  it("finds a secret anywhere in a text, and nothing in a text without one", () => {
    const search = new SecretSearch([
      { value: "needle-one", source: "one" },
      { value: "needle-two-longer", source: "two" },
      { value: "short", source: "too short to search" },
    ]);
    expect(search.size).toBe(2);
    expect(search.find("xx needle-two-longer yy needle-one").map((secret) => secret.source).sort()).toEqual(["one", "two"]);
    expect(search.find("needle-on needle-two short")).toEqual([]);
  });

  it("fails a run whose replies, headers, logs or error reports hold a secret, and passes a clean one", () => {
    const folder = runFolder();
    const recorder = new RunRecorder(folder, "file-a");
    const token = demoToken(1, "role-1-active").plaintext;
    recorder.sentSecret('quoted "sent" secret ✓', "sent by the test");
    recorder.sentSecret("header-secret-value", "sent by the test");
    recorder.sentSecret("logged-secret-value", "sent by the test");
    recorder.record(reply(JSON.stringify({ message: "clean" })));
    recorder.record(reply(JSON.stringify({ message: `the token ${token}` })));
    // Escaped in the JSON body, as a leak would be: the scan looks at the decoded strings too.
    recorder.record(reply(JSON.stringify({ errors: { value: ['quoted "sent" secret ✓'] } })));
    recorder.record(reply("{}", { "x-debug": "header-secret-value" }));
    recorder.record({ kind: "log", entry: { path: "/x", note: "logged-secret-value" } });
    recorder.record({ kind: "error", report: { name: "Error", message: `failed for ${token}` } });
    recorder.flush();

    const result = scanRun(folder);
    expect(result.replies).toBe(4);
    expect(result.logEntries).toBe(1);
    expect(result.errorReports).toBe(1);
    expect(result.hits.map((hit) => [hit.line, hit.kind, hit.source])).toEqual([
      [2, "reply", "fixture api_tokens 1/role-1-active"],
      [3, "reply", "sent by the test"],
      [4, "reply", "sent by the test"],
      [5, "log", "sent by the test"],
      [6, "error", "fixture api_tokens 1/role-1-active"],
    ]);
    expect(() => assertNoSecrets(result)).toThrow(/A secret appeared in 5 recorded outputs/);

    const clean = runFolder();
    const cleanRecorder = new RunRecorder(clean, "file-b");
    cleanRecorder.sentSecret("never-echoed-secret", "sent by the test");
    cleanRecorder.record(reply(JSON.stringify({ message: "clean", request_id: "req_1" })));
    cleanRecorder.flush();
    const cleanResult = scanRun(clean);
    expect(cleanResult.hits).toEqual([]);
    expect(cleanResult.sentSecrets).toBe(1);
    expect(() => assertNoSecrets(cleanResult)).not.toThrow();
  });
});
