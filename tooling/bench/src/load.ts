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
  };
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

/** Warms the server up, then measures it in one run. */
export async function measureLoad(url: string, requests: BenchRequest[], settings: LoadSettings): Promise<LoadResult> {
  if (settings.warmupSeconds > 0) await runLoad(url, requests, settings.connections, settings.warmupSeconds);
  return summarize([await runLoad(url, requests, settings.connections, settings.durationSeconds)]);
}
