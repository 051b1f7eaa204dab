/**
 * Tests of token hashing and secret encryption: formats, round trips, and failures that say nothing
 * about the secret.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decryptSecret, encryptSecret, generateSecretsKey, hashToken, importSecretsKey, sha256Hex } from "./crypto.js";

describe("hashToken and sha256Hex", () => {
  it("give the hex SHA-256 of the text", async () => {
    expect(await sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(await hashToken("cp_demo_token")).toBe(await sha256Hex("cp_demo_token"));
    // UTF-8, as Node's own hash reads text.
    expect(await sha256Hex("é ✓")).toBe(createHash("sha256").update("é ✓").digest("hex"));
    expect(await sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  });
});

describe("secrets key", () => {
  it("is 32 random bytes in base64", async () => {
    const key = generateSecretsKey();
    expect(atob(key)).toHaveLength(32);
    expect(generateSecretsKey()).not.toBe(key);
    await expect(importSecretsKey(key)).resolves.toBeDefined();
  });

  it("is rejected when it is not 32 bytes of base64, without quoting it", async () => {
    const short = btoa("too short, a secret");
    const error = await importSecretsKey(short).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).not.toContain(short);
    await expect(importSecretsKey("not base64 at all!")).rejects.toThrow(/base64 encoding of 32 bytes/);
  });
});

describe("encryptSecret and decryptSecret", () => {
  it("round-trip, with a fresh IV every time", async () => {
    const key = await importSecretsKey(generateSecretsKey());
    const plaintext = "sk_live_ünïcode ✓ secret";
    const first = await encryptSecret(key, plaintext);
    const second = await encryptSecret(key, plaintext);
    expect(first).toMatch(/^v1\.[A-Za-z0-9+/]+=*\.[A-Za-z0-9+/]+=*$/);
    expect(atob(first.split(".")[1] ?? "")).toHaveLength(12);
    expect(first).not.toBe(second);
    expect(first).not.toContain(plaintext);
    expect(await decryptSecret(key, first)).toBe(plaintext);
    expect(await decryptSecret(key, second)).toBe(plaintext);
    expect(await decryptSecret(key, await encryptSecret(key, ""))).toBe("");
  });

  it("fails with another key or altered text, and the error does not carry the value", async () => {
    const key = await importSecretsKey(generateSecretsKey());
    const other = await importSecretsKey(generateSecretsKey());
    const stored = await encryptSecret(key, "the-secret-value");
    await expect(decryptSecret(other, stored)).rejects.toThrow(/cannot be decrypted/);
    const [version, iv, ciphertext] = stored.split(".");
    const flipped = `${ciphertext?.[0] === "A" ? "B" : "A"}${ciphertext?.slice(1)}`;
    await expect(decryptSecret(key, `${version}.${iv}.${flipped}`)).rejects.toThrow(/cannot be decrypted/);
    await expect(decryptSecret(key, "the-secret-value")).rejects.toThrow(/not in the v1 format/);
    const error: unknown = await decryptSecret(key, "v2.the-secret-value").then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).not.toContain("the-secret-value");
  });
});
