/**
 * The secrets scan: the harness records every reply, log entry and error report of a test run
 * under test-results/, with the secrets the tests sent; at the end of the run every record is searched
 * for every secret of the demo fixture and every secret sent, and one hit fails the run.
 */
import { randomUUID } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { demoFixture } from "@cloudplane/db";

/** Shorter values are not searched for: they would be found by chance (a slot value "a" is in every body). */
export const MIN_SECRET_LENGTH = 8;

export interface Secret {
  value: string;
  /** Where it comes from, to say in a hit without printing the secret. */
  source: string;
}

/** Every secret of the demo fixture: token plaintexts, secret slot values, storage keys, secure keys, and the inference registry passwords, secret keys and API key secrets. */
export function fixtureSecrets(): Secret[] {
  const secrets: Secret[] = [];
  for (const token of demoFixture.apiTokens)
    secrets.push({ value: token.plaintext, source: `fixture api_tokens ${token.accountId}/${token.name}` });
  for (const slot of demoFixture.edgeSecretSlots) secrets.push({ value: slot.value, source: `fixture edge secret ${slot.secretId} slot ${slot.slot}` });
  for (const target of demoFixture.logsUploaderTargets)
    secrets.push({ value: target.secretAccessKey, source: `fixture logs uploader target ${target.id} secret_access_key` });
  for (const key of demoFixture.certificateKeys) secrets.push({ value: key.privateKey, source: `fixture certificate ${key.certificateId} private key` });
  for (const resource of demoFixture.cdnResources) {
    const key = resource.options.secure_key?.key;
    if (typeof key === "string") secrets.push({ value: key, source: `fixture CDN resource ${resource.id} secure_key` });
  }
  for (const credentials of demoFixture.inferenceRegistryCredentials)
    secrets.push({ value: credentials.password, source: `fixture inference registry credentials ${credentials.id} password` });
  for (const secret of demoFixture.inferenceSecrets) secrets.push({ value: secret.awsSecretAccessKey, source: `fixture inference secret ${secret.id} aws_secret_access_key` });
  for (const key of demoFixture.inferenceApiKeys) secrets.push({ value: key.secret, source: `fixture inference API key ${key.id} secret` });
  return secrets;
}

/**
 * The secrets in a request body as the API defines them: logs uploader `secret_access_key`, edge secret
 * slot values, CDN `secure_key.key`, a certificate's `sslPrivateKey`, an inference secret's
 * `aws_secret_access_key` and registry credentials' `password`, wherever they sit in the JSON. Walked without recursion, as
 * the fuzzing sends JSON nested deeper than the call stack.
 */
export function secretsInBody(body: unknown): string[] {
  const found: string[] = [];
  // Each value with its key and its parent's key; items of an array take the array's key as their parent's.
  const pending: [unknown, string | undefined, string | undefined][] = [[body, undefined, undefined]];
  while (pending.length) {
    const [value, key, parentKey] = pending.pop()!;
    if (typeof value === "string") {
      if (key === "secret_access_key" || key === "aws_secret_access_key" || key === "password" || key === "sslPrivateKey" || (key === "key" && parentKey === "secure_key") || (key === "value" && parentKey === "secret_slots"))
        found.push(value);
    } else if (Array.isArray(value)) for (const item of value) pending.push([item, undefined, key]);
    else if (value && typeof value === "object") for (const [name, item] of Object.entries(value)) pending.push([item, name, key ?? parentKey]);
  }
  return found;
}

/** The credential of an Authorization header (the token after the scheme word), if there is one. */
export function credentialOf(authorization: string | null): string | undefined {
  const credential = authorization?.trim().split(/\s+/).slice(1).join(" ");
  return credential || undefined;
}

/** Every string in a JSON value (keys too), so that escaped secrets are found as they were sent. */
function stringsOf(value: unknown): string[] {
  const strings: string[] = [];
  const pending = [value];
  while (pending.length) {
    const next = pending.pop();
    if (typeof next === "string") strings.push(next);
    else if (Array.isArray(next)) for (const item of next as unknown[]) pending.push(item);
    else if (next && typeof next === "object")
      for (const [key, item] of Object.entries(next)) {
        strings.push(key);
        pending.push(item);
      }
  }
  return strings;
}

function parsedStrings(text: string): string[] {
  try {
    return stringsOf(JSON.parse(text));
  } catch {
    return [];
  }
}

/**
 * Finds any of many secrets in a text in one pass: secrets are indexed by their first
 * `MIN_SECRET_LENGTH` characters, so the cost is the text's length, whatever the number of secrets.
 */
export class SecretSearch {
  private readonly byPrefix = new Map<string, Secret[]>();
  private readonly firstChars = new Set<number>();
  readonly size: number;

  constructor(secrets: Iterable<Secret>) {
    const seen = new Set<string>();
    for (const secret of secrets) {
      if (secret.value.length < MIN_SECRET_LENGTH || seen.has(secret.value)) continue;
      seen.add(secret.value);
      const prefix = secret.value.slice(0, MIN_SECRET_LENGTH);
      const list = this.byPrefix.get(prefix) ?? [];
      list.push(secret);
      this.byPrefix.set(prefix, list);
      this.firstChars.add(secret.value.charCodeAt(0));
    }
    this.size = seen.size;
  }

  find(text: string): Secret[] {
    const hits: Secret[] = [];
    const last = text.length - MIN_SECRET_LENGTH;
    for (let i = 0; i <= last; i++) {
      if (!this.firstChars.has(text.charCodeAt(i))) continue;
      const candidates = this.byPrefix.get(text.slice(i, i + MIN_SECRET_LENGTH));
      if (!candidates) continue;
      for (const secret of candidates) if (text.startsWith(secret.value, i) && !hits.includes(secret)) hits.push(secret);
    }
    return hits;
  }
}

/** One line of a run's output files. */
export type OutputRecord =
  | { kind: "reply"; method: string; path: string; status: number; headers: Record<string, string>; body: string }
  | { kind: "log"; entry: unknown }
  | { kind: "error"; report: unknown; request_id?: string };

const OUTPUT_SUFFIX = ".output.jsonl";
const SENT_SUFFIX = ".sent.jsonl";
const FLUSH_BYTES = 1 << 20;

/**
 * Appends one test file's replies, log entries and error reports to `<name>.output.jsonl` in the run's
 * folder, and the secrets it sent to `<name>.sent.jsonl` (kept apart, so the scan does not find them
 * where they were written down on purpose). Buffered; `flush` writes what is pending.
 */
export class RunRecorder {
  private readonly output: string;
  private readonly sent: string;
  private pendingOutput: string[] = [];
  private pendingSent: string[] = [];
  private pendingBytes = 0;
  private readonly sentSeen = new Set<string>();

  constructor(directory: string, name = `${process.pid}-${randomUUID()}`) {
    mkdirSync(directory, { recursive: true });
    this.output = join(directory, `${name}${OUTPUT_SUFFIX}`);
    this.sent = join(directory, `${name}${SENT_SUFFIX}`);
  }

  record(record: OutputRecord): void {
    const line = JSON.stringify(record);
    this.pendingOutput.push(line);
    this.pendingBytes += line.length;
    if (this.pendingBytes > FLUSH_BYTES) this.flush();
  }

  /** A secret the test sent, as found in its request. */
  sentSecret(value: string, source: string): void {
    if (value.length < MIN_SECRET_LENGTH || this.sentSeen.has(value)) return;
    this.sentSeen.add(value);
    this.pendingSent.push(JSON.stringify({ value, source } satisfies Secret));
  }

  flush(): void {
    if (this.pendingOutput.length) appendFileSync(this.output, `${this.pendingOutput.join("\n")}\n`);
    if (this.pendingSent.length) appendFileSync(this.sent, `${this.pendingSent.join("\n")}\n`);
    this.pendingOutput = [];
    this.pendingSent = [];
    this.pendingBytes = 0;
  }
}

export interface Hit {
  file: string;
  line: number;
  kind: OutputRecord["kind"];
  what: string;
  source: string;
}

export interface ScanResult {
  replies: number;
  logEntries: number;
  errorReports: number;
  fixtureSecrets: number;
  sentSecrets: number;
  /** Distinct secrets searched for (of `MIN_SECRET_LENGTH` characters or more). */
  secretsSearched: number;
  hits: Hit[];
}

function linesOf(file: string): string[] {
  return readFileSync(file, "utf8").split("\n").filter(Boolean);
}

/** The texts of a record in which a secret must not appear: raw and JSON-decoded. */
function textsOf(record: OutputRecord): string[] {
  if (record.kind === "reply") {
    const headers = Object.entries(record.headers).map(([name, value]) => `${name}: ${value}`);
    return [...headers, record.body, ...parsedStrings(record.body)];
  }
  const value = record.kind === "log" ? record.entry : record.report;
  return [JSON.stringify(value) ?? "", ...stringsOf(value)];
}

/** Searches every output file of a run folder for the fixture's secrets and every secret sent in the run. */
export function scanRun(directory: string, extraSecrets: Secret[] = []): ScanResult {
  const files = existsSync(directory) ? readdirSync(directory).sort() : [];
  const fixture = fixtureSecrets();
  const sent = files.filter((file) => file.endsWith(SENT_SUFFIX)).flatMap((file) => linesOf(join(directory, file)).map((line) => JSON.parse(line) as Secret));
  const search = new SecretSearch([...fixture, ...sent, ...extraSecrets]);
  const result: ScanResult = {
    replies: 0,
    logEntries: 0,
    errorReports: 0,
    fixtureSecrets: fixture.length,
    sentSecrets: new Set(sent.map((secret) => secret.value)).size,
    secretsSearched: search.size,
    hits: [],
  };
  for (const file of files.filter((name) => name.endsWith(OUTPUT_SUFFIX))) {
    linesOf(join(directory, file)).forEach((line, index) => {
      const record = JSON.parse(line) as OutputRecord;
      if (record.kind === "reply") result.replies++;
      else if (record.kind === "log") result.logEntries++;
      else result.errorReports++;
      const found = new Set<Secret>();
      for (const text of textsOf(record)) for (const secret of search.find(text)) found.add(secret);
      for (const secret of found) {
        const what = record.kind === "reply" ? `${record.method} ${record.path} → ${record.status}` : record.kind;
        result.hits.push({ file, line: index + 1, kind: record.kind, what, source: secret.source });
      }
    });
  }
  return result;
}

/** The scan's figures in one line. */
export function describeScan(result: ScanResult): string {
  return (
    `secrets scan: ${result.replies} replies, ${result.logEntries} log entries and ${result.errorReports} error reports ` +
    `searched for ${result.secretsSearched} distinct secrets (${result.fixtureSecrets} of the demo fixture, ${result.sentSecrets} sent by tests; ` +
    `values under ${MIN_SECRET_LENGTH} characters are not searched): ` +
    `${result.hits.length} hits`
  );
}

/** Throws, naming every hit, when the scan found a secret. */
export function assertNoSecrets(result: ScanResult): void {
  if (!result.hits.length) return;
  const lines = result.hits.slice(0, 50).map((hit) => `  ${hit.file}:${hit.line} (${hit.kind}, ${hit.what}): ${hit.source}`);
  const more = result.hits.length > 50 ? [`  … and ${result.hits.length - 50} more`] : [];
  throw new Error([`A secret appeared in ${result.hits.length} recorded outputs:`, ...lines, ...more].join("\n"));
}
