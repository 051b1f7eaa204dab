/**
 * The requests the benchmark sends, the same to our server and to the baseline: routes of the API as
 * the demo administrator (account 1) calls them, with the settings every run shares.
 */
import { demoToken } from "@cloudplane/db";
import { BENCH_ACCOUNT_ID } from "./account.js";

export { BENCH_ACCOUNT_ID };

/** `Authorization` of every request: the demo administrator (role 1) of account 1. */
export const AUTHORIZATION = `apikey ${demoToken(BENCH_ACCOUNT_ID, "role-1-active").plaintext}`;

export type RouteId = "getStream" | "listApps" | "patchResource" | "costReport" | "getApp" | "streamLifecycle";

export interface BenchRequest {
  method: "GET" | "PATCH" | "POST" | "DELETE";
  /** The path, or how it follows from the JSON answer to the request before it (a delete of what a create made). */
  path: string | ((previous: unknown) => string);
  body?: unknown;
  /**
   * Of a create and what follows from it: its values the server makes itself, which differ from one run of
   * it to the next (the new object's id, given as `id`), put in words, so that the checks compare two runs
   * of it by everything else.
   */
  made?: (value: unknown, id: number) => unknown;
}

/** A request whose path is fixed (the scale part's). */
export type FixedRequest = BenchRequest & { path: string };

/** The path of `request` after the answer `previous` (the JSON body of the request before it). */
export function requestPath(request: BenchRequest, previous: unknown): string {
  return typeof request.path === "string" ? request.path : request.path(previous);
}

/** An answer's text as JSON; undefined for none, or for text that is not JSON. */
export function jsonOf(text: string | undefined): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The id an answer gives (a create's), if any. */
export function answeredId(body: unknown): number | undefined {
  const id = (body as { id?: unknown } | null | undefined)?.id;
  return typeof id === "number" ? id : undefined;
}

/**
 * The requests of a route the checks send before any load: its first, and those that follow from it
 * (each taking its path from the answer before). Their statements are caught from ours for the
 * baseline and the peer.
 */
export function checkedRequests(route: { requests: BenchRequest[] }): BenchRequest[] {
  const [first, ...rest] = route.requests;
  const chained: BenchRequest[] = [];
  for (const request of rest) {
    if (typeof request.path === "string") break;
    chained.push(request);
  }
  return [first!, ...chained];
}

export interface BenchRoute {
  id: RouteId;
  /** As the results name it. */
  title: string;
  /** The requests a connection sends in turn (several when a write is spread over rows). */
  requests: BenchRequest[];
}

/** The cost report asked for in every run: one quarter, three of the five usage types. */
export const COST_REPORT_BODY = {
  time_from: "2026-08",
  time_to: "2026-10",
  types: ["instance", "egress_traffic", "volume"],
};

/** A heavier report for the scale part: a whole year, every type. */
export const COST_REPORT_YEAR_BODY = { time_from: "2026-01", time_to: "2026-12" };

/** The listing asked for in every run: one status, ordered by name (descending), third page of 25. */
export const LIST_APPS_PATH = "/edge/v1/apps?status=1&ordering=-name&limit=25&offset=50";

/** The same listing filtered by a name substring instead, for the scale part (no index can serve it). */
export const LIST_APPS_BY_NAME_PATH = "/edge/v1/apps?name=resize&ordering=-name&limit=25&offset=0";

/** The CDN resource listing of the scale part: the third page of 25, in the listing's own order (id). */
export const LIST_RESOURCES_PATH = "/cdn/resources?limit=25&offset=50";
/** The streaming statistics at scale: one month of the player's events, ranked by country and counted per day and country. */
export const VIEWS_BY_COUNTRY_PATH = "/streaming/statistics/countries?date_from=2026-06-01T00:00:00Z&date_to=2026-07-01T00:00:00Z";
export const VIEWS_GROUPED_PATH = "/streaming/statistics/views?date_from=2026-06-01T00:00:00Z&date_to=2026-07-01T00:00:00Z&group=country";

/** CDN options a PATCH sets; the body is the same every time, so every PATCH does the same work. */
const PATCH_OPTIONS = {
  options: {
    gzipOn: { enabled: true, value: true },
    browser_cache_settings: { enabled: true, value: "3600s" },
    cors: { enabled: true, value: ["www.acme.example", "admin.acme.example"], always: true },
  },
};

/**
 * Account 1's CDN resources in the demo data that have no preset applied: PATCHes go round them, so they do
 * not all queue on one row lock. (Resource 5's preset manages `cors`, which a PATCH may then not set: 409.)
 */
const ACCOUNT_1_RESOURCES = [1, 3, 7];

/**
 * What a stream's create makes itself: its id (as a number, and in the URLs made from it), the stream key
 * closing its ingest URLs and shown as its `token` (12 hex digits, new for each set of URLs) and its time
 * of creation.
 */
function streamMade(value: unknown, id: number): unknown {
  if (value === id) return "<id>";
  if (Array.isArray(value)) return value.map((item) => streamMade(item, id));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, streamMade(item, id)]));
  if (typeof value !== "string") return value;
  if (/^\d{4}-\d\d-\d\dT/.test(value)) return "<time>";
  return value
    .replace(new RegExp(`(?<=/in/|streamid=|/whip/|/streams/)${id}(?=[/?#]|$)`, "g"), "<id>")
    .replace(/(?<=^|[?#/])[0-9a-f]{12}$/, "<key>");
}

export const ROUTES: BenchRoute[] = [
  {
    id: "getStream",
    title: "GET a stream",
    requests: [{ method: "GET", path: "/streaming/streams/1" }],
  },
  {
    id: "listApps",
    title: "List edge apps (filter, order, offset)",
    requests: [{ method: "GET", path: LIST_APPS_PATH }],
  },
  {
    id: "patchResource",
    title: "PATCH a CDN resource's options",
    requests: ACCOUNT_1_RESOURCES.map((id) => ({ method: "PATCH" as const, path: `/cdn/resources/${id}`, body: PATCH_OPTIONS })),
  },
  {
    id: "costReport",
    title: "POST cost report totals",
    requests: [{ method: "POST", path: "/cloud/v1/reservation_cost_report/totals", body: COST_REPORT_BODY }],
  },
  {
    id: "getApp",
    title: "GET an edge app",
    requests: [{ method: "GET", path: "/edge/v1/apps/1" }],
  },
  {
    // A create and the delete of what it made, in turn on each connection: the table counts both.
    id: "streamLifecycle",
    title: "POST a stream, then DELETE it",
    requests: [
      { method: "POST", path: "/streaming/streams", body: { name: "bench stream" }, made: streamMade },
      { method: "DELETE", path: (created) => `/streaming/streams/${answeredId(created)}`, made: streamMade },
    ],
  },
];

export type WriteRouteId = "patchResource" | "createTarget";

/** A write of part 7 (durable against relaxed PGlite): the requests a connection sends in turn. */
export interface WriteRoute {
  id: WriteRouteId;
  title: string;
  requests: BenchRequest[];
}

/**
 * The writes part 7 measures: part 1's PATCH (an update), and a create: a new logs uploader target each
 * time (nothing of it must be unique, so the same body creates one every time; its secret is encrypted).
 */
const PATCH_RESOURCE = ROUTES.find((route) => route.id === "patchResource")!;

export const WRITE_ROUTES: WriteRoute[] = [
  { id: "patchResource", title: PATCH_RESOURCE.title, requests: PATCH_RESOURCE.requests },
  {
    id: "createTarget",
    title: "POST a logs uploader target (create)",
    requests: [
      {
        method: "POST",
        path: "/cdn/logs_uploader/targets",
        body: {
          storage_type: "s3_amazon",
          name: "bench target",
          config: { access_key_id: "AKIABENCH", secret_access_key: "bench-secret-access-key", region: "eu-west-1", bucket_name: "bench-logs" },
        },
      },
    ],
  },
];

/** Where CPU profiles of the servers (part 1) and the workers (part 5) go; undefined: none are taken. */
export const PROFILE_DIR = process.env.BENCH_PROFILE_DIR || undefined;
/** With BENCH_PROFILE_DIR: the Node servers also write where they allocated memory (`.heapprofile`), for `profile-summary`. */
export const PROFILE_ALLOCATIONS = process.env.BENCH_PROFILE_ALLOCATIONS === "1";
/** The Node servers print their garbage collections per request (count and time, by kind) when they stop. */
export const GC_STATS = process.env.BENCH_GC_STATS === "1";

/**
 * How long and how hard the throughput runs are (the machine may have few, shared cores: modest
 * connections). Each server is measured `rounds` times, taking turns with the others, so that a burst
 * of other work on the machine falls on all of them alike; ratios are the median of the rounds' ratios
 * (`throughputRatio`), so many short rounds decide more surely than a few long ones of the same time.
 */
export const LOAD = {
  warmupSeconds: Number(process.env.BENCH_WARMUP_SECONDS ?? 3),
  rounds: Number(process.env.BENCH_ROUNDS ?? 5),
  roundSeconds: Number(process.env.BENCH_ROUND_SECONDS ?? 2),
  /** Load, its figures dropped, right before each measured round: every round begins on a server just run (see `inTurns`). */
  turnWarmupSeconds: Number(process.env.BENCH_TURN_WARMUP_SECONDS ?? 1),
  connections: Number(process.env.BENCH_CONNECTIONS ?? 10),
};

/** The scale part measures one request at a time, so p50 and p99 are what one request costs. */
export const SCALE = {
  edgeApps: Number(process.env.BENCH_SCALE_APPS ?? 100_000),
  cdnResources: Number(process.env.BENCH_SCALE_RESOURCES ?? 100_000),
  usageLines: Number(process.env.BENCH_SCALE_USAGE_LINES ?? 1_000_000),
  /** Rows generated for each listing of scale-listings.ts. */
  listingRows: Number(process.env.BENCH_SCALE_LISTING_ROWS ?? 100_000),
  playerEvents: Number(process.env.BENCH_SCALE_PLAYER_EVENTS ?? 1_000_000),
  warmupSeconds: 2,
  durationSeconds: Number(process.env.BENCH_SCALE_DURATION_SECONDS ?? 8),
  connections: 1,
};
