/**
 * One load run with autocannon: a warm-up whose figures are dropped, then a run of fixed duration and
 * connections. Latencies are kept per response at microsecond precision (autocannon's own histogram
 * rounds to whole milliseconds, too coarse for requests that take one or two).
 */
import autocannon from "autocannon";
import { AUTHORIZATION, jsonOf, LOAD, type BenchRequest } from "./scenario.js";

export interface LoadSettings {
  warmupSeconds: number;
  durationSeconds: number;
  connections: number;
}

export interface LoadResult {
  requestsPerSecond: number;
  /** Milliseconds. */
  p50: number;
  p99: number;
  mean: number;
  /** Responses counted in the measured run. */
  responses: number;
  /** Responses other than 2xx, connection errors and timeouts: a valid run has none. */
  failures: number;
  durationSeconds: number;
  /**
   * Requests a second of each measured round, in order, when there was more than one (servers measured
   * in turns, `inTurns`): what `throughputRatio` pairs round by round. Absent from single runs and from
   * results made before it was kept.
   */
  rounds?: number[];
}

function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))]!;
}

/** What a connection keeps between its requests: the answer a path follows from (autocannon's context, one per connection). */
interface Chain {
  previous?: string;
}

function cannonRequests(requests: BenchRequest[]): autocannon.Request[] {
  return requests.map((request, index) => {
    const { path } = request;
    const next = requests[(index + 1) % requests.length]!;
    return {
      method: request.method,
      headers: {
        authorization: AUTHORIZATION,
        ...(request.body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
      // A path that follows from the answer before is built when the request is sent; that answer is kept only when one does.
      ...(typeof path === "string"
        ? { path }
        : { setupRequest: (built: autocannon.Request, context: object) => ({ ...built, path: path(jsonOf((context as Chain).previous)) }) }),
      ...(typeof next.path === "string"
        ? {}
        : {
            onResponse: (status: number, body: string, context: object) => {
              (context as Chain).previous = status >= 200 && status < 300 ? body : undefined;
            },
          }),
    };
  });
}


/** What one run saw: every 2xx latency (ms), the failures and how long it lasted. */
export interface LoadSample {
  latencies: number[];
  failures: number;
  seconds: number;
}

/** One autocannon run of `seconds` with `connections`, each sending `requests` in turn. */
export async function runLoad(url: string, requests: BenchRequest[], connections: number, seconds: number): Promise<LoadSample> {
  const latencies: number[] = [];
  let failures = 0;
  const started = performance.now();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ url, connections, duration: seconds, requests: cannonRequests(requests), timeout: 10 }, (error: unknown, done) =>
      error ? reject(error instanceof Error ? error : new Error("autocannon failed")) : resolve(done),
    );
    instance.on("response", (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
      else failures++;
    });
  });
  // A run in which nothing answered is a failure, even when no request timed out in its time.
  const silent = latencies.length === 0 && failures === 0 ? 1 : 0;
  return { latencies, failures: failures + result.errors + result.timeouts + silent, seconds: (performance.now() - started) / 1000 };
}

/** The figures of one or more runs taken together (requests a second over their whole time). */
export function summarize(samples: LoadSample[]): LoadResult {
  const latencies = samples.flatMap((sample) => sample.latencies).sort((a, b) => a - b);
  const seconds = samples.reduce((sum, sample) => sum + sample.seconds, 0);
  return {
    requestsPerSecond: latencies.length / seconds,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    mean: latencies.reduce((sum, value) => sum + value, 0) / Math.max(1, latencies.length),
    responses: latencies.length,
    failures: samples.reduce((sum, sample) => sum + sample.failures, 0),
    durationSeconds: seconds,
    ...(samples.length > 1 ? { rounds: samples.map((sample) => sample.latencies.length / sample.seconds) } : {}),
  };
}

/** How one server's throughput compares with another's measured in the same turns. */
export interface ThroughputRatio {
  /** The median of the rounds' ratios (or, without rounds to pair, the ratio of the whole runs' req/s). */
  ratio: number;
  /** The least and the greatest of the rounds' ratios (the ratio itself without rounds). */
  low: number;
  high: number;
  /** How many rounds were paired (0: none, the whole runs compared). */
  rounds: number;
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * `a`'s requests a second over `b`'s, round by round: in a round the servers run one right after the
 * other, so each round's ratio compares them under the same conditions on the machine, and the median of
 * those ratios is not moved by one round that a burst of other work fell on (the ratio of the totals is).
 * Results without paired rounds (one run each, or results kept before rounds were) compare their totals.
 */
export function throughputRatio(a: LoadResult, b: LoadResult): ThroughputRatio {
  if (a.rounds && b.rounds && a.rounds.length === b.rounds.length && a.rounds.length > 1) {
    const ratios = a.rounds.map((value, index) => value / b.rounds![index]!);
    return { ratio: median(ratios), low: Math.min(...ratios), high: Math.max(...ratios), rounds: ratios.length };
  }
  const ratio = a.requestsPerSecond / b.requestsPerSecond;
  return { ratio, low: ratio, high: ratio, rounds: 0 };
}

/**
 * Servers measured in turns: `LOAD.rounds` rounds, every other one in the reverse order, so that none
 * always follows the same one or always comes first or last. Each turn begins with `LOAD.turnWarmupSeconds`
 * of load on its own server, its figures dropped. Without it the order's turn made one server run twice in
 * a row (the last of a round is the first of the next): that server's second round began hot from its
 * first (its process, its database's backends and caches just ran), every other server's after the
 * others' load, and a server doing more work came out cheaper than the same code doing less.
 */
export async function inTurns<Kind>(kinds: readonly Kind[], requests: BenchRequest[], urlOf: (kind: Kind) => string, measure: (kind: Kind, url: string) => Promise<void>): Promise<void> {
  for (let round = 0; round < LOAD.rounds; round++)
    for (const kind of round % 2 ? [...kinds].reverse() : kinds) {
      const url = urlOf(kind);
      if (LOAD.turnWarmupSeconds > 0) await runLoad(url, requests, LOAD.connections, LOAD.turnWarmupSeconds);
      await measure(kind, url);
    }
}

/** `a` ÷ `b` as the bench prints it: the median of the rounds' ratios, and their range in brackets when there were rounds. */
export function shownRatio(a: LoadResult, b: LoadResult): string {
  const { ratio, low, high, rounds } = throughputRatio(a, b);
  return rounds ? `${ratio.toFixed(2)} (${low.toFixed(2)}–${high.toFixed(2)})` : ratio.toFixed(2);
}

/** Warms the server up, then measures it in one run. */
export async function measureLoad(url: string, requests: BenchRequest[], settings: LoadSettings): Promise<LoadResult> {
  if (settings.warmupSeconds > 0) await runLoad(url, requests, settings.connections, settings.warmupSeconds);
  return summarize([await runLoad(url, requests, settings.connections, settings.durationSeconds)]);
}
