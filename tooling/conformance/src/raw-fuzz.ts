/**
 * The socket fuzzer: hostile HTTP/1.1 written straight to the socket of a server on this machine
 * (malformed request lines, odd methods, bad and doubled hosts, huge and many headers, NUL and control
 * bytes, bad chunked bodies, bodies shorter or longer than their Content-Length, pipelined requests,
 * slow senders, half-closed connections), each on its own connection through `exchangeRaw`. The cases
 * come from a seed, so a run is repeatable, and their number and the time they take are bounded.
 *
 * Every answer must be below 500, and every error answer the envelope with its `x-request-id`; every
 * connection must be answered or closed by the server within the server's request timeout (none
 * left hanging). Not a conformance check: it sends only to 127.0.0.1, at a server whose timeouts the
 * caller shortened (`headersTimeoutMs`, `requestTimeoutMs`), so that slow senders take seconds.
 */
import { ERROR_STATUS, errorEnvelope } from "@cloudplane/contract";
import { exchangeRaw, HALF_CLOSE, HOSTILE_REQUESTS, type RawExchange, type RawPiece } from "./checks/raw.js";

export interface RawFuzzOptions {
  /** The seed of the generated cases: the same seed sends the same requests. */
  seed: number;
  /** How many cases to generate (besides the fixed ones, HOSTILE_REQUESTS and a few slow senders). */
  count: number;
  /** The server's headers timeout, in ms: slow senders take a little longer than that. */
  headersTimeoutMs: number;
  /** The server's whole-request timeout, in ms. */
  requestTimeoutMs: number;
  /**
   * How long the server keeps an idle connection open, in ms. Default 5000 (Node's): a request whose
   * body was taken for shorter than it was leaves the client waiting on an idle connection until then.
   */
  keepAliveTimeoutMs?: number;
  /** Connections at once. Default 8. */
  concurrency?: number;
  /** An Authorization header value that half the generated requests carry, to reach past authentication. */
  authorization?: string;
}

export interface RawFuzzCase {
  name: string;
  pieces: RawPiece[];
}

export interface RawFuzzResult {
  case: RawFuzzCase;
  exchange: RawExchange;
}

export interface RawFuzzReport {
  results: RawFuzzResult[];
  /** How many answers of each status came back. */
  statuses: Record<number, number>;
  /** Each thing that was wrong, naming the case: an answer of 500 or more, an error answer not in the envelope, a connection left hanging. */
  problems: string[];
}

/** mulberry32: a small seeded generator, so a seed always gives the same cases. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    chance: (p: number) => next() < p,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
    bytes: (length: number) => Uint8Array.from({ length }, () => Math.floor(next() * 256)),
  };
}

type Random = ReturnType<typeof generator>;

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT", "PROPFIND", "SEARCH", "PURGE", "M-SEARCH", "FOO", "get", "G\0T", "GET\t", "BREW", "X".repeat(64)];
const BODY_METHODS = ["POST", "PUT", "PATCH", "DELETE"];
const PATHS = [
  "/",
  "/cdn/clients/me/features",
  "/edge/v1/apps",
  "/edge/v1/apps/1",
  "/edge/v1/secrets",
  "/cdn/resources/1",
  "//",
  "*",
  "/%",
  "/%00",
  "/a\0b",
  "/a b",
  "/\x7f",
  "/\u00e9",
  "/a\tb",
  "http://{host}/edge/v1/apps",
  "https://other.example/edge/v1/apps",
  "/edge/v1/apps?limit=-1&limit=2",
  "/edge/v1/apps?" + "x=1&".repeat(400),
  "/cdn/resources/" + "9".repeat(40),
  "/..%2f..%2fetc%2fpasswd",
  "/" + "a".repeat(20_000),
];
const VERSIONS = ["HTTP/1.0", "HTTP/1.2", "HTTP/2.0", "HTTP/0.9", "http/1.1", "HTTP/11", "", "HTTP/1.1 trailing"];
const HOSTS = ["Host: {host}", "Host: {host}", "Host: {host}", "", "Host: ", "Host: a b", "Host: [", "Host: u:p@{host}", "Host: {host}:99999", "Host: {host}\r\nHost: {host}", "Host: {host}\r\nHost: other", "Host: " + "h".repeat(300), "Host: h\x01"];
const ODD_HEADERS = [
  "Accept: */*",
  "X-Request-Id: fuzz-request",
  "X-Request-Id: not a valid id!",
  "X-Request-Id: " + "r".repeat(200),
  "Authorization: apikey nothing",
  "Authorization: Bearer x",
  "X-Empty:",
  "X-Space : v",
  "NoColon",
  " Leading-Space: v",
  "X-Fold: a\r\n folded",
  "X-Nul: a\0b",
  "X-Ctl: \x01\x7f",
  "X-Latin: \u00e9",
  "Content-Type: application/json",
  "Content-Type: text/plain",
  "Content-Type: application/json; charset=utf-16",
  "Expect: 100-continue",
  "Expect: something-else",
  "Upgrade: websocket\r\nConnection: Upgrade",
  "Connection: keep-alive, close",
  "Accept-Encoding: gzip, br",
  "Range: bytes=0-",
  "If-None-Match: *",
  "X-Forwarded-For: 10.0.0.1, ::1",
  "Cookie: a=" + "c".repeat(500),
];
const FRAMING_HEADERS = [
  "Content-Length: abc",
  "Content-Length: -1",
  "Content-Length: 1, 2",
  "Content-Length: 9007199254740993",
  "Content-Length: 4\r\nContent-Length: 5",
  "Transfer-Encoding: gzip",
  "Transfer-Encoding: chunked, gzip",
  "Transfer-Encoding: chunked\r\nContent-Length: 4",
  "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked",
];
const BODIES = ['{"name":"fuzz"}', "{", "null", "[]", '{"a":' + "[".repeat(200), "\0\0\0", "not json", '{"name":"\\ud800"}', "x".repeat(5000)];

/** What a generated request gets wrong, one thing at a time, so that the others reach further in. */
const FAULTS = ["none", "method", "path", "version", "line", "host", "headers", "huge-header", "many-headers", "framing"] as const;
type Fault = (typeof FAULTS)[number];

/** A request line mangled. */
function mangledLine(random: Random, line: string): string {
  return random.pick([
    () => line.replace(" ", "  "),
    () => line.replaceAll(" ", "\t"),
    () => `${line} extra`,
    () => ` ${line}`,
    () => line.toLowerCase(),
    () => line.slice(0, random.int(0, line.length)),
    () => line.replace("HTTP/1.1", "HTTP/1.1\n"),
  ])();
}

/** A body and the headers that frame it: exact, short, long, chunked or broken chunked. */
function framedBody(random: Random, faulty: boolean): { headers: string[]; body: string; tail: RawPiece[] } {
  const body = random.pick(BODIES);
  const length = Buffer.byteLength(body);
  if (!faulty) return random.chance(0.7) ? { headers: ["Content-Type: application/json", `Content-Length: ${length}`], body, tail: [] } : framedBody(random, true);
  switch (random.int(0, 7)) {
    case 0:
      return { headers: [`Content-Length: ${length}`], body, tail: [] };
    case 1:
      // Longer than its Content-Length: the rest reads as the next request.
      return { headers: [`Content-Length: ${Math.max(0, length - random.int(1, 5))}`], body: body + "GARBAGE", tail: [] };
    case 2:
      // Shorter than its Content-Length, and the client says it has sent everything.
      return { headers: [`Content-Length: ${length + random.int(1, 100)}`], body, tail: [HALF_CLOSE] };
    case 3:
      return { headers: ["Transfer-Encoding: chunked"], body: `${length.toString(16)}\r\n${body}\r\n0\r\n\r\n`, tail: [] };
    case 4:
      return {
        headers: ["Transfer-Encoding: chunked"],
        body: random.pick([
          "ZZ\r\nabc\r\n0\r\n\r\n",
          "5\r\nabc\r\n0\r\n\r\n",
          "FFFFFFFFFFFFFFFFFFFF\r\nabc\r\n",
          `5;${"e".repeat(20_000)}\r\nabcde\r\n0\r\n\r\n`,
          "5\r\nabcde\r\n0\r\nX-Trailer: \0\r\n\r\n",
          "-1\r\n\r\n",
          "5\nabcde\n0\n\n",
        ]),
        tail: [],
      };
    case 5:
      // Chunked, and the last chunk never comes: the client closes its side.
      return { headers: ["Transfer-Encoding: chunked"], body: `${length.toString(16)}\r\n${body}\r\n`, tail: [HALF_CLOSE] };
    case 6:
      return { headers: [random.pick(FRAMING_HEADERS)], body, tail: [] };
    default:
      return { headers: [], body, tail: [] };
  }
}

/** One generated request: its bytes (the blank line included) and what follows them. */
function generatedRequest(random: Random, last: boolean, authorization: string | undefined): { text: string; tail: RawPiece[] } {
  const fault: Fault = random.pick(FAULTS);
  const method = fault === "method" ? random.pick(METHODS) : random.pick(["GET", "GET", ...BODY_METHODS]);
  const path = fault === "path" ? random.pick(PATHS) : random.pick(PATHS.slice(0, 6));
  const version = fault === "version" ? random.pick(VERSIONS) : "HTTP/1.1";
  let line = version ? `${method} ${path} ${version}` : `${method} ${path}`;
  if (fault === "line") line = mangledLine(random, line);
  const headers: string[] = [];
  const host = fault === "host" ? random.pick(HOSTS) : "Host: {host}";
  if (host) headers.push(host);
  if (authorization && random.chance(0.5)) headers.push(`Authorization: ${authorization}`);
  for (let count = random.int(0, 3); count > 0; count--) headers.push(fault === "headers" ? random.pick(ODD_HEADERS) : random.pick(ODD_HEADERS.slice(0, 3)));
  if (fault === "huge-header") headers.push(`X-Huge: ${"h".repeat(random.int(8_000, 70_000))}`);
  if (fault === "many-headers") for (let count = random.int(100, 2500); count > 0; count--) headers.push(`X-Many-${count}: v`);
  let body = "";
  let tail: RawPiece[] = [];
  if (BODY_METHODS.includes(method) || fault === "framing") {
    const framed = framedBody(random, fault === "framing");
    headers.push(...framed.headers);
    body = framed.body;
    tail = framed.tail;
  }
  // The server closes the connection after the last request, so the exchange ends without waiting.
  if (last) headers.push("Connection: close");
  return { text: `${line}\r\n${headers.map((header) => `${header}\r\n`).join("")}\r\n${body}`, tail };
}

/** The fixed cases: the hostile requests of the conformance check, slow senders and the odd openings. */
function fixedCases(options: RawFuzzOptions): RawFuzzCase[] {
  const trickle = (pieces: string[], pauseMs: number): RawPiece[] => pieces.flatMap((piece) => [piece, { pauseMs }]);
  const step = Math.ceil(options.headersTimeoutMs / 4);
  const bodyStep = Math.ceil(options.requestTimeoutMs / 4);
  const post = "POST /edge/v1/secrets HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n";
  return [
    ...HOSTILE_REQUESTS.map((request) => ({ name: `hostile: ${request.split("\r\n")[0]}`, pieces: [`${request}\r\nConnection: close\r\n\r\n`] })),
    { name: "slow: headers a line at a time, past the headers timeout", pieces: trickle(["GET / HTTP/1.1\r\n", "Host: {host}\r\n", ...Array.from({ length: 8 }, (_, n) => `X-Slow-${n}: v\r\n`)], step) },
    { name: "slow: the request line a byte at a time", pieces: trickle([..."GET /edge/v1/apps HTTP/1.1"], step) },
    { name: "slow: a body that stops coming", pieces: [`${post}Content-Length: 100\r\n\r\n{"name":`] },
    { name: "slow: a body a byte at a time, past the request timeout", pieces: [`${post}Content-Length: 40\r\n\r\n`, ...trickle([...'{"name":"slow","secret_slots":[]}'], bodyStep)] },
    { name: "slow: a chunked body whose last chunk never comes", pieces: [`${post}Transfer-Encoding: chunked\r\n\r\n3\r\n{"n\r\n`] },
    { name: "idle: a connection that sends nothing", pieces: [] },
    { name: "half-closed: before a byte is sent", pieces: [HALF_CLOSE] },
    { name: "half-closed: in the middle of the request line", pieces: ["GET /edge/v1/a", HALF_CLOSE] },
    { name: "half-closed: after a whole request", pieces: ["GET /cdn/clients/me/features HTTP/1.1\r\nHost: {host}\r\n\r\n", HALF_CLOSE] },
    { name: "http/2 preface", pieces: ["PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"] },
    { name: "tls hello", pieces: [Uint8Array.from([0x16, 0x03, 0x01, 0x00, 0xa5, 0x01, 0x00, 0x00, 0xa1, 0x03, 0x03])] },
    {
      name: "pipelined: three requests, one malformed in the middle",
      pieces: ["GET /cdn/clients/me/features HTTP/1.1\r\nHost: {host}\r\n\r\nGET /a\0b HTTP/1.1\r\nHost: {host}\r\n\r\nGET / HTTP/1.1\r\nHost: {host}\r\n\r\n"],
    },
  ];
}

/** The cases of a run: the fixed ones, then `count` generated from the seed. */
export function rawFuzzCases(options: RawFuzzOptions): RawFuzzCase[] {
  const random = generator(options.seed);
  const cases = fixedCases(options);
  for (let index = 0; index < options.count; index++) {
    const kind = random.int(0, 9);
    if (kind <= 6) {
      const { text, tail } = generatedRequest(random, true, options.authorization);
      cases.push({ name: `request ${index}`, pieces: [text, ...tail] });
    } else if (kind <= 8) {
      // Pipelined: several requests in one write.
      const count = random.int(2, 4);
      const texts = Array.from({ length: count }, (_, n) => generatedRequest(random, n === count - 1, options.authorization));
      cases.push({ name: `pipelined ${index}`, pieces: [texts.map((request) => request.text).join(""), ...texts.at(-1)!.tail] });
    } else {
      cases.push({ name: `garbage ${index}`, pieces: [random.bytes(random.int(1, 300)), random.chance(0.5) ? HALF_CLOSE : "\r\n\r\n"] });
    }
  }
  return cases;
}

/** What is wrong with an exchange, if anything. */
function problemsOf(result: RawFuzzResult): string[] {
  const { exchange } = result;
  const name = result.case.name;
  const problems: string[] = [];
  if (exchange.end === "timeout") problems.push(`${name}: the server neither answered nor closed the connection in time`);
  if (exchange.end === "refused") problems.push(`${name}: the connection was refused`);
  if (exchange.rest.length > 0) problems.push(`${name}: bytes that are not a whole HTTP response: ${JSON.stringify(exchange.rest.slice(0, 200))}`);
  for (const response of exchange.responses) {
    const what = `${name}: ${response.head} ${response.text.slice(0, 300)}`;
    if (response.status >= 500) problems.push(`${what}: a status of 500 or more`);
    if (response.status < 400) continue;
    if (!/^application\/json\b/i.test(response.headers.get("content-type") ?? "")) {
      problems.push(`${what}: an error answer that is not JSON`);
      continue;
    }
    let body: unknown;
    try {
      body = JSON.parse(response.text);
    } catch {
      problems.push(`${what}: an error answer whose body is not JSON`);
      continue;
    }
    const parsed = errorEnvelope.safeParse(body);
    if (!parsed.success) {
      problems.push(`${what}: not the error envelope`);
      continue;
    }
    if (ERROR_STATUS[parsed.data.code] !== response.status) problems.push(`${what}: the code ${parsed.data.code} is not that of status ${response.status}`);
    if (response.headers.get("x-request-id") !== parsed.data.request_id) problems.push(`${what}: x-request-id is not the envelope's request_id`);
  }
  return problems;
}

/**
 * Sends every case of `rawFuzzCases(options)` to `baseUrl` (which must be on 127.0.0.1), a few
 * connections at a time, and reports what was wrong.
 */
export async function rawFuzz(baseUrl: string, options: RawFuzzOptions): Promise<RawFuzzReport> {
  const url = new URL(baseUrl);
  if (url.hostname !== "127.0.0.1") throw new Error(`The socket fuzzer sends only to 127.0.0.1, not to ${url.host}.`);
  const cases = rawFuzzCases(options).map((fuzzCase) => ({
    ...fuzzCase,
    pieces: fuzzCase.pieces.map((piece) => (typeof piece === "string" ? piece.replaceAll("{host}", url.host) : piece)),
  }));
  // Long enough for the slowest sender to be refused, or an idle connection closed (Node adds a second to
  // the keep-alive timeout), with time to spare for a busy machine.
  const timeoutMs = Math.max(options.requestTimeoutMs + options.headersTimeoutMs, (options.keepAliveTimeoutMs ?? 5000) + 1000) + 3000;
  const results: RawFuzzResult[] = [];
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const index = next++;
      results[index] = { case: cases[index]!, exchange: await exchangeRaw(baseUrl, cases[index]!.pieces, { timeoutMs }) };
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 8 }, worker));
  const statuses: Record<number, number> = {};
  for (const { exchange } of results) for (const response of exchange.responses) statuses[response.status] = (statuses[response.status] ?? 0) + 1;
  return { results, statuses, problems: results.flatMap(problemsOf) };
}
