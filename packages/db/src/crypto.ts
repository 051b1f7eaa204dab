/**
 * Token hashing and encryption of secrets at rest, with WebCrypto only (`globalThis.crypto.subtle`),
 * which Node, AWS Lambda and Cloudflare Workers all have. Secrets never appear in errors.
 */

const SECRET_FORMAT_VERSION = "v1";
const IV_BYTES = 12;
const KEY_BYTES = 32;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function subtle(): SubtleCrypto {
  return globalThis.crypto.subtle;
}

function toHex(bytes: ArrayBuffer): string {
  return Array.from(new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Decodes standard base64; null when `text` is not base64 (so callers can say so without echoing it). */
function fromBase64(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) return null;
  const binary = atob(text);
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

/** Hex SHA-256 of a text (UTF-8). */
export async function sha256Hex(text: string): Promise<string> {
  return toHex(await subtle().digest("SHA-256", encoder.encode(text)));
}

/** What the database keeps of an API token: the hex SHA-256 of its plaintext. */
export function hashToken(plaintext: string): Promise<string> {
  return sha256Hex(plaintext);
}

/** A new random secrets key: base64 of 32 bytes, for CLOUDPLANE_SECRETS_KEY or the local key file. */
export function generateSecretsKey(): string {
  return toBase64(globalThis.crypto.getRandomValues(new Uint8Array(KEY_BYTES)));
}

/** Imports a base64 secrets key (32 bytes) as a non-extractable AES-256-GCM key. */
export async function importSecretsKey(base64Key: string): Promise<CryptoKey> {
  const bytes = fromBase64(base64Key.trim());
  if (bytes === null || bytes.length !== KEY_BYTES) {
    // The message describes the expected shape only: the key itself must not reach a log.
    throw new Error(`The secrets key must be the base64 encoding of ${KEY_BYTES} bytes.`);
  }
  return subtle().importKey("raw", bytes, { name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
}

/**
 * Encrypts a secret for storage: `v1.<base64 IV>.<base64 ciphertext with tag>`, with a fresh random
 * 12-byte IV each time, so equal secrets do not look equal at rest.
 */
export async function encryptSecret(key: CryptoKey, plaintext: string): Promise<string> {
  const iv = globalThis.crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const ciphertext = await subtle().encrypt({ name: "AES-GCM", iv }, key, encoder.encode(plaintext));
  return `${SECRET_FORMAT_VERSION}.${toBase64(iv)}.${toBase64(new Uint8Array(ciphertext))}`;
}

/** Decrypts what `encryptSecret` stored. Fails (without quoting the value) on a wrong key or altered text. */
export async function decryptSecret(key: CryptoKey, stored: string): Promise<string> {
  const [version, ivText, ciphertextText, extra] = stored.split(".");
  const iv = ivText === undefined ? null : fromBase64(ivText);
  const ciphertext = ciphertextText === undefined ? null : fromBase64(ciphertextText);
  if (version !== SECRET_FORMAT_VERSION || extra !== undefined || iv === null || iv.length !== IV_BYTES || ciphertext === null) {
    throw new Error("The stored secret is not in the v1 format.");
  }
  try {
    return decoder.decode(await subtle().decrypt({ name: "AES-GCM", iv }, key, ciphertext));
  } catch {
    throw new Error("The stored secret cannot be decrypted with this key (wrong key, or the value was altered).");
  }
}
