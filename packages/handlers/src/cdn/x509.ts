/**
 * What the certificate routes read from an uploaded PEM: each certificate's subject and issuer names, validity
 * and subject alternative names (a small DER reader, as no X.509 parser is on every runtime we serve), and
 * whether a private key is the certificate's (WebCrypto: both keys exported as JWK and compared).
 */

/** A PEM block: its label (`CERTIFICATE`, `PRIVATE KEY`, …) and its DER bytes. */
interface PemBlock {
  label: string;
  der: Uint8Array;
}

/** What a certificate says, as the API shows it. */
export interface CertificateFacts {
  issuer: string;
  subjectCn: string;
  subjectAlt: string;
  notBefore: Date;
  notAfter: Date;
  /** The raw subject and issuer names, to tell a chain's order and a self-signed certificate. */
  subjectDer: string;
  issuerDer: string;
  /** The SubjectPublicKeyInfo, DER. */
  spki: Uint8Array;
}

/** Why a PEM was refused, in a sentence for the field's error. */
export class PemProblem extends Error {}

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g;

/** The PEM blocks of `text`, in order; none when it holds no PEM. */
export function pemBlocks(text: string): PemBlock[] {
  const blocks: PemBlock[] = [];
  for (const match of text.matchAll(PEM_BLOCK)) {
    const body = match[2]!.replace(/[ \t\r\n]+/g, "");
    const problem = new PemProblem(`The ${match[1]!.toLowerCase()} block is not base64.`);
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(body) || body.length % 4 !== 0) throw problem;
    let binary: string;
    try {
      binary = atob(body);
    } catch {
      throw problem;
    }
    blocks.push({ label: match[1]!, der: Uint8Array.from(binary, (char) => char.charCodeAt(0)) });
  }
  return blocks;
}

// ---------------------------------------------------------------------------------------------
// DER
// ---------------------------------------------------------------------------------------------

interface Node {
  tag: number;
  /** The whole element, header included. */
  start: number;
  /** The content. */
  from: number;
  to: number;
}

function readNode(der: Uint8Array, at: number, end = der.length): Node {
  if (at + 2 > end) throw new PemProblem("The DER data ends early.");
  const tag = der[at]!;
  if ((tag & 0x1f) === 0x1f) throw new PemProblem("The DER data has a tag this reader does not take.");
  let length = der[at + 1]!;
  let from = at + 2;
  if (length & 0x80) {
    const bytes = length & 0x7f;
    if (bytes === 0 || bytes > 4 || from + bytes > end) throw new PemProblem("The DER data has a bad length.");
    length = 0;
    for (let index = 0; index < bytes; index++) length = length * 256 + der[from + index]!;
    from += bytes;
  }
  if (from + length > end) throw new PemProblem("The DER data ends early.");
  return { tag, start: at, from, to: from + length };
}

function children(der: Uint8Array, node: Node): Node[] {
  const found: Node[] = [];
  for (let at = node.from; at < node.to; ) {
    const child = readNode(der, at, node.to);
    found.push(child);
    at = child.to;
  }
  return found;
}

function expectTag(node: Node | undefined, tag: number, what: string): Node {
  if (!node || node.tag !== tag) throw new PemProblem(`The certificate's ${what} is malformed.`);
  return node;
}

function oidOf(der: Uint8Array, node: Node): string {
  const bytes = der.subarray(node.from, node.to);
  if (bytes.length === 0) return "";
  const parts = [Math.floor(bytes[0]! / 40), bytes[0]! % 40];
  let value = 0;
  for (let index = 1; index < bytes.length; index++) {
    value = value * 128 + (bytes[index]! & 0x7f);
    if (!(bytes[index]! & 0x80)) {
      parts.push(value);
      value = 0;
    }
  }
  return parts.join(".");
}

const text = (der: Uint8Array, node: Node) => new TextDecoder().decode(der.subarray(node.from, node.to));
const hex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");

function timeOf(der: Uint8Array, node: Node): Date {
  const value = text(der, node);
  const match =
    node.tag === 0x17
      ? /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/.exec(value)
      : node.tag === 0x18
        ? /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/.exec(value)
        : null;
  if (!match) throw new PemProblem("The certificate's validity is malformed.");
  const year = node.tag === 0x17 ? (Number(match[1]) < 50 ? 2000 : 1900) + Number(match[1]) : Number(match[1]);
  return new Date(Date.UTC(year, Number(match[2]) - 1, Number(match[3]), Number(match[4]), Number(match[5]), Number(match[6])));
}

const OID_COMMON_NAME = "2.5.4.3";
const OID_ORGANIZATION = "2.5.4.10";
const OID_SUBJECT_ALT_NAME = "2.5.29.17";

/** The attributes of a Name, by OID (the first of each). */
function nameAttributes(der: Uint8Array, name: Node): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const set of children(der, name))
    for (const pair of children(der, set)) {
      const [type, value] = children(der, pair);
      if (type?.tag === 0x06 && value) {
        const oid = oidOf(der, type);
        if (!attributes.has(oid)) attributes.set(oid, text(der, value));
      }
    }
  return attributes;
}

/** Reads a certificate's DER. */
export function certificateFacts(der: Uint8Array): CertificateFacts {
  const certificate = expectTag(readNode(der, 0), 0x30, "structure");
  if (certificate.to !== der.length) throw new PemProblem("The certificate has data after its end.");
  const tbs = expectTag(children(der, certificate)[0], 0x30, "body");
  const fields = children(der, tbs);
  let index = fields[0]?.tag === 0xa0 ? 1 : 0; // version
  index += 2; // serial number, signature algorithm
  const issuer = expectTag(fields[index++], 0x30, "issuer");
  const validity = children(der, expectTag(fields[index++], 0x30, "validity"));
  const subject = expectTag(fields[index++], 0x30, "subject");
  const spki = expectTag(fields[index++], 0x30, "public key");
  if (validity.length !== 2) throw new PemProblem("The certificate's validity is malformed.");
  const alt: string[] = [];
  for (const field of fields.slice(index)) {
    if (field.tag !== 0xa3) continue;
    for (const extension of children(der, expectTag(children(der, field)[0], 0x30, "extensions"))) {
      const parts = children(der, extension);
      if (parts[0]?.tag !== 0x06 || oidOf(der, parts[0]) !== OID_SUBJECT_ALT_NAME) continue;
      const value = expectTag(parts.at(-1), 0x04, "subject alternative names");
      const names = expectTag(readNode(der, value.from, value.to), 0x30, "subject alternative names");
      for (const name of children(der, names)) {
        if (name.tag === 0x82) alt.push(text(der, name));
        else if (name.tag === 0x87 && name.to - name.from === 4) alt.push(Array.from(der.subarray(name.from, name.to)).join("."));
      }
    }
  }
  const issuerNames = nameAttributes(der, issuer);
  const subjectNames = nameAttributes(der, subject);
  return {
    issuer: issuerNames.get(OID_COMMON_NAME) ?? issuerNames.get(OID_ORGANIZATION) ?? "",
    subjectCn: subjectNames.get(OID_COMMON_NAME) ?? alt[0] ?? "",
    subjectAlt: alt.join(","),
    notBefore: timeOf(der, validity[0]!),
    notAfter: timeOf(der, validity[1]!),
    subjectDer: hex(der.subarray(subject.start, subject.to)),
    issuerDer: hex(der.subarray(issuer.start, issuer.to)),
    spki: der.slice(spki.start, spki.to),
  };
}

/**
 * The certificates of a PEM chain, in the order given (the certificate first): 400-worthy problems thrown
 * as PemProblem. Only CERTIFICATE blocks may be in it.
 */
export function chainFacts(pem: string): CertificateFacts[] {
  const blocks = pemBlocks(pem);
  if (blocks.length === 0) throw new PemProblem("Must be a certificate in PEM format (-----BEGIN CERTIFICATE-----).");
  const other = blocks.find((block) => block.label !== "CERTIFICATE");
  if (other) throw new PemProblem(`Must hold certificates only (CERTIFICATE blocks), not a ${other.label.toLowerCase()} block.`);
  return blocks.map((block) => {
    try {
      return certificateFacts(block.der);
    } catch (error) {
      if (error instanceof PemProblem) throw error;
      throw new PemProblem("Must be a certificate in PEM format: a block could not be read.");
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Keys
// ---------------------------------------------------------------------------------------------

const OID_RSA = "1.2.840.113549.1.1.1";
const OID_EC = "1.2.840.10045.2.1";
const CURVES: Record<string, string> = { "1.2.840.10045.3.1.7": "P-256", "1.3.132.0.34": "P-384", "1.3.132.0.35": "P-521" };

/** DER of a SEQUENCE (or another tag) around `parts`. */
function derOf(tag: number, ...parts: Uint8Array[]): Uint8Array {
  const length = parts.reduce((sum, part) => sum + part.length, 0);
  const header =
    length < 0x80 ? [tag, length] : length < 0x100 ? [tag, 0x81, length] : length < 0x10000 ? [tag, 0x82, length >> 8, length & 0xff] : [tag, 0x83, length >> 16, (length >> 8) & 0xff, length & 0xff];
  const out = new Uint8Array(header.length + length);
  out.set(header);
  let at = header.length;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function oidDer(oid: string): Uint8Array {
  const parts = oid.split(".").map(Number);
  const bytes = [parts[0]! * 40 + parts[1]!];
  for (const part of parts.slice(2)) {
    const chunk = [part & 0x7f];
    for (let rest = Math.floor(part / 128); rest > 0; rest = Math.floor(rest / 128)) chunk.unshift((rest & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return derOf(0x06, Uint8Array.from(bytes));
}

/** The algorithm of a SubjectPublicKeyInfo (or a PKCS#8 key's), for WebCrypto. */
function algorithmOf(der: Uint8Array, algorithm: Node): RsaHashedImportParams | EcKeyImportParams {
  const [oid, parameters] = children(der, algorithm);
  const name = oid?.tag === 0x06 ? oidOf(der, oid) : "";
  if (name === OID_RSA) return { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" };
  if (name === OID_EC && parameters?.tag === 0x06) {
    const curve = CURVES[oidOf(der, parameters)];
    if (curve) return { name: "ECDSA", namedCurve: curve };
  }
  throw new PemProblem("Must be an RSA key or an EC key on P-256, P-384 or P-521.");
}

/** A private key's PEM as PKCS#8 DER: PKCS#8 as it is, PKCS#1 (RSA) and SEC1 (EC) wrapped. */
function pkcs8Of(block: PemBlock): Uint8Array {
  if (block.label === "PRIVATE KEY") return block.der;
  if (block.label === "RSA PRIVATE KEY")
    return derOf(0x30, Uint8Array.of(0x02, 0x01, 0x00), derOf(0x30, oidDer(OID_RSA), Uint8Array.of(0x05, 0x00)), derOf(0x04, block.der));
  if (block.label === "EC PRIVATE KEY") {
    const key = readNode(block.der, 0);
    const curve = children(block.der, key).find((node) => node.tag === 0xa0);
    const oid = curve && children(block.der, curve)[0];
    if (!oid || oid.tag !== 0x06) throw new PemProblem("The EC private key does not name its curve.");
    return derOf(0x30, Uint8Array.of(0x02, 0x01, 0x00), derOf(0x30, oidDer(OID_EC), block.der.slice(oid.start, oid.to)), derOf(0x04, block.der));
  }
  if (block.label === "ENCRYPTED PRIVATE KEY") throw new PemProblem("Must be an unencrypted private key: remove its passphrase first.");
  throw new PemProblem(`Must be a private key in PEM format, not a ${block.label} block.`);
}

/**
 * Checks that `keyPem` is one unencrypted private key (PKCS#8, PKCS#1 RSA or SEC1 EC) and that it is the
 * key of the certificate whose SubjectPublicKeyInfo is `spki`; throws a PemProblem otherwise.
 */
export async function checkPrivateKey(keyPem: string, spki: Uint8Array): Promise<void> {
  const blocks = pemBlocks(keyPem);
  if (blocks.length !== 1) throw new PemProblem("Must be one private key in PEM format (-----BEGIN PRIVATE KEY-----).");
  const pkcs8 = pkcs8Of(blocks[0]!);
  let publicJwk: JsonWebKey;
  let privateJwk: JsonWebKey;
  try {
    const algorithm = algorithmOf(spki, children(spki, readNode(spki, 0))[0]!);
    const usage: KeyUsage[] = ["verify"];
    publicJwk = await crypto.subtle.exportKey("jwk", await crypto.subtle.importKey("spki", new Uint8Array(spki), algorithm, true, usage));
    privateJwk = await crypto.subtle.exportKey("jwk", await crypto.subtle.importKey("pkcs8", new Uint8Array(pkcs8), algorithm, true, ["sign"]));
  } catch (error) {
    if (error instanceof PemProblem) throw error;
    throw new PemProblem("Must be the certificate's private key: it could not be read as a key of the certificate's type.");
  }
  const same = publicJwk.kty === "RSA" ? publicJwk.n === privateJwk.n && publicJwk.e === privateJwk.e : publicJwk.x === privateJwk.x && publicJwk.y === privateJwk.y;
  if (!same) throw new PemProblem("Must be the certificate's private key: it does not match the certificate's public key.");
}
