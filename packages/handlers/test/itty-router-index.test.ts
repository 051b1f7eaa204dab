/**
 * itty-router's route index (patches/itty-router@5.0.24.patch): `Router` and `IttyRouter` try only the
 * routes of the request's method and of ALL whose leading literal segments begin its path, in
 * registration order. Routing must be exactly what the registry's loop gives (every route in turn, the
 * first match winning, handlers that return nothing passing on to the next match): each case below is
 * checked against `scan`, that loop, over the router's own `routes`; those that count the RegExps tried
 * show the index is used, and fail without the patch.
 */
import fc from "fast-check";
import { IttyRouter, Router, type IRequest, type RouteEntry } from "itty-router";
import { describe, expect, it } from "vitest";

/** What routing a request did: the routes whose handlers ran, in order, and what the last one saw and answered. */
interface Trail {
  ran: number[];
  answer: string | undefined;
  params: Record<string, string> | undefined;
  route: string | undefined;
}

/** A route of a test: its method (a router method name), its path, and whether its handler answers (else it passes on). */
interface Spec {
  method: "get" | "post" | "all" | "head";
  path: string;
  answers: boolean;
}

type AnyRouter = ReturnType<typeof Router<IRequest>> | ReturnType<typeof IttyRouter<IRequest>>;
type Kind = "Router" | "IttyRouter";
const make = (kind: Kind, base = ""): AnyRouter => (kind === "Router" ? Router<IRequest>({ base }) : IttyRouter<IRequest>({ base }));

function build(kind: Kind, specs: readonly Spec[], base = ""): { router: AnyRouter; ran: number[] } {
  const ran: number[] = [];
  const router = make(kind, base);
  specs.forEach(({ method, path, answers }, i) => {
    router[method](path, () => {
      ran.push(i);
      return answers ? `route ${i}` : undefined;
    });
  });
  return { router, ran };
}

async function route(router: AnyRouter, ran: number[], method: string, url: string): Promise<Trail> {
  ran.length = 0;
  const request: { method: string; url: string; params?: Record<string, string>; route?: string } = { method, url };
  const answer = (await router.fetch(request)) as string | undefined;
  return { ran: [...ran], answer, params: ran.length ? request.params : undefined, route: ran.length ? request.route : undefined };
}

/** The registry's loop (itty-router 5.0.24's fetch), over the same entries, for the same handlers. */
function scan(routes: readonly RouteEntry[], specs: readonly Spec[], method: string, url: string): Trail {
  const pathname = new URL(url).pathname;
  const trail: Trail = { ran: [], answer: undefined, params: undefined, route: undefined };
  for (const [i, [routeMethod, regex, , path]] of routes.entries()) {
    const match = (routeMethod === method || routeMethod === "ALL") && pathname.match(regex);
    if (!match) continue;
    trail.ran.push(i);
    trail.params = { ...match.groups };
    trail.route = path;
    if (specs[i]!.answers) return { ...trail, answer: `route ${i}` };
  }
  return trail;
}

/** A route's RegExp that counts the matches asked of it, and notes its route: the routes a request was tried against. */
class Counted extends RegExp {
  static tries = 0;
  static tried: number[] = [];
  constructor(
    source: string,
    readonly route: number,
  ) {
    super(source);
  }
  override [Symbol.match](text: string): RegExpMatchArray | null {
    Counted.tries++;
    Counted.tried.push(this.route);
    return super[Symbol.match](text);
  }
}
function countTries(router: AnyRouter): void {
  router.routes.forEach((entry, i) => (entry[1] = new Counted(entry[1].source, i)));
}

describe.each(["Router", "IttyRouter"] as const)("itty-router's route index (patches/): %s", (kind) => {
  /** Routes each request, checks it against the loop, and answers the trails and the routes each was tried against. */
  async function expectSameAsScan(specs: readonly Spec[], requests: readonly [string, string][], base = ""): Promise<[Trail[], number[][]]> {
    const { router, ran } = build(kind, specs, base);
    countTries(router);
    const trails: Trail[] = [];
    const tried: number[][] = [];
    for (const [method, url] of requests) {
      Counted.tried = [];
      const trail = await route(router, ran, method, url);
      tried.push([...Counted.tried]);
      expect(trail, `${method} ${url}`).toEqual(scan(router.routes, specs, method, url));
      trails.push(trail);
    }
    return [trails, tried];
  }
  const get = (path: string, answers = true): Spec => ({ method: "get", path, answers });
  const all = (path: string, answers = false): Spec => ({ method: "all", path, answers });

  it("tries only the routes of the request's method and leading segments", async () => {
    const specs = Array.from({ length: 100 }, (_, i) => get(`/service${i}/things/:id`));
    const { router, ran } = build(kind, [...specs, get("/service99/things/:id/more")]);
    countTries(router);
    Counted.tries = 0;
    expect(await route(router, ran, "GET", "http://h/service99/things/7")).toMatchObject({ ran: [99], answer: "route 99", params: { id: "7" } });
    expect(Counted.tries).toBe(1);
    Counted.tries = 0;
    expect((await route(router, ran, "POST", "http://h/service99/things/7")).ran).toEqual([]);
    expect(await route(router, ran, "GET", "http://h/elsewhere")).toMatchObject({ ran: [], answer: undefined });
    expect(Counted.tries).toBe(0);
    expect(router.routes[0]![4]).toBe("/service0/things");
  });

  it("keeps registration order across buckets: a param or wildcard route before a literal one wins, an ALL route between two GETs runs between them", async () => {
    const [trails, tried] = await expectSameAsScan(
      [get("/streams/:id"), get("/streams/new"), all("*"), get("/a/x", false), all("/a/*"), get("/a/x"), get("/a/:id")],
      [
        ["GET", "http://h/streams/new"],
        ["GET", "http://h/a/x"],
        ["POST", "http://h/a/x"],
        ["GET", "http://h/a/y"],
      ],
    );
    expect(trails.map(({ ran }) => ran)).toEqual([[0], [2, 3, 4, 5], [2, 4], [2, 4, 6]]);
    expect(tried).toEqual([[0], [2, 3, 4, 5], [2, 4], [2, 4, 6]]);
  });

  it("matches params, `*`, `:param+`, optional `:id?`, extensions and trailing slashes as before", async () => {
    const [trails, tried] = await expectSameAsScan(
      [get("/files/:name.:ext"), get("/files/:path+"), get("/o/:id?"), get("/w/*"), get("/x/y/z"), get("/"), get("/a/:b?c"), get("/a/*d")],
      [
        ["GET", "http://h/files/report.pdf"],
        ["GET", "http://h/files/a/b/c"],
        ["GET", "http://h/o"],
        ["GET", "http://h/o/1/"],
        ["GET", "http://h/w"],
        ["GET", "http://h/w/1/2?q=1"],
        ["GET", "http://h/x/y/z//"],
        ["GET", "http://h/"],
        ["GET", "http://h/ac"],
        ["GET", "http://h/a/1c"],
        ["GET", "http://h/ad"],
        ["GET", "http://h/a/b/d"],
      ],
    );
    expect(trails.map(({ answer }) => answer)).toEqual(["route 0", "route 1", "route 2", "route 2", "route 3", "route 3", "route 4", "route 5", "route 6", "route 6", "route 7", "route 7"]);
    expect(trails[0]!.params).toEqual({ name: "report", ext: "pdf" });
    expect(trails[1]!.params).toEqual({ path: "a/b/c" });
    // /files/…, /o/… and /w/… are tried only for their own first segment; "/", "/a/:b?c" and "/a/*d" for every path.
    expect(tried.slice(0, 8)).toEqual([[0], [0, 1], [2], [2], [3], [3], [4], [5]]);
    expect(tried.slice(8)).toEqual([[5, 6], [5, 6], [5, 6, 7], [5, 6, 7]]);
  });

  it("keeps the base in every route's path", async () => {
    const [trails, tried] = await expectSameAsScan(
      [get("/things/:id"), get("/things"), all("*")],
      [
        ["GET", "http://h/api/v1/things/2"],
        ["GET", "http://h/api/v1/things"],
        ["GET", "http://h/things/2"],
      ],
      "/api/v1",
    );
    expect(trails.map(({ ran }) => ran)).toEqual([[0], [1], []]); // "*" is "/api/v1/*"
    expect(trails[0]!.route).toBe("/api/v1/things/:id");
    expect(tried).toEqual([[0], [0, 1], []]); // the base is the first two segments here: every route is under "/api/v1"
  });

  it("sees routes added after the first fetch, by the router or pushed by hand, and tries a hand-pushed entry by its RegExp", async () => {
    const { router, ran } = build(kind, [get("/a/b")]);
    expect((await route(router, ran, "GET", "http://h/c/d")).ran).toEqual([]);
    router.get("/c/d", () => "c/d");
    router.routes.push(["GET", /^\/test\.(?<x>[^/]+)\/*$/, [(request: IRequest) => `test ${String(request.params.x)}`], "/test"]);
    countTries(router);
    Counted.tries = 0;
    expect(await router.fetch({ method: "GET", url: "http://h/c/d" })).toBe("c/d");
    expect(Counted.tries).toBe(1); // not /a/b
    Counted.tries = 0;
    expect(await router.fetch({ method: "GET", url: "http://h/test.a.b" })).toBe("test a.b");
    expect(Counted.tries).toBe(1); // the entry pushed by hand, tried for every GET: its path does not describe its RegExp
  });

  it("follows a handler that changes the request's method to the routes of the new one", async () => {
    const router = make(kind);
    router.all("*", (request: IRequest) => {
      Object.assign(request, { method: String(request.query._method ?? request.method) });
    });
    router.get("/things", () => "list");
    router.delete("/other", () => "other");
    router.delete("/things", () => "deleted");
    countTries(router);
    Counted.tried = [];
    expect(await router.fetch({ method: "GET", url: "http://h/things?_method=DELETE" })).toBe("deleted");
    expect(Counted.tried).toEqual([0, 3]); // the DELETE routes under /things, looked up again once the request is a DELETE
    expect(await router.fetch({ method: "GET", url: "http://h/things" })).toBe("list");
  });

  it("routes any route set and request as the registry's loop does (property)", async () => {
    const segment = fc.constantFrom("a", "b", "a.b", "x", ":id", ":id?", ":p+", ":p+?", "*", "*b", ":id?b", "a:id", ":name.:ext", "(a|b)", "b?", "");
    const path = fc.tuple(fc.constantFrom("/", ""), fc.array(segment, { maxLength: 4 })).map(([lead, segments]) => lead + segments.join("/"));
    const spec = fc.record({ method: fc.constantFrom("get", "post", "all", "head"), path, answers: fc.boolean() });
    const requestPath = fc.array(fc.constantFrom("a", "b", "a.b", "x", "ab", "ay", "7", "", "b.json"), { maxLength: 5 }).map((segments) => "/" + segments.join("/"));
    const request = fc.tuple(fc.constantFrom("GET", "POST", "HEAD", "ALL", "PUT"), requestPath);
    // What each loop costs, in RegExps tried: the index never tries more than the loop, and over the run, fewer.
    const cost = { index: 0, loop: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(spec, { maxLength: 12 }), fc.array(request, { minLength: 1, maxLength: 6 }), fc.constantFrom("", "/a", "/x/:v"), async (specs, requests, base) => {
        // Routes whose RegExp does not compile (a param named twice) are not registered, by either loop.
        const valid = specs.filter(({ method, path }) => {
          try {
            make(kind, base)[method](path);
            return true;
          } catch {
            return false;
          }
        });
        const { router, ran } = build(kind, valid, base);
        countTries(router);
        for (const [method, pathname] of requests) {
          const url = `http://h${pathname}`;
          Counted.tries = 0;
          const trail = await route(router, ran, method, url);
          const tries = Counted.tries;
          expect(trail).toEqual(scan(router.routes, valid, method, url));
          expect(tries).toBeLessThanOrEqual(Counted.tries - tries);
          cost.index += tries;
          cost.loop += Counted.tries - tries;
        }
      }),
      { numRuns: 1500 },
    );
    expect(cost.index).toBeLessThan(cost.loop);
  });
});

describe.each(["Router", "IttyRouter"] as const)("itty-router's query (patches/): %s", (kind) => {
  const queryOf = async (search: string) => {
    const router = kind === "Router" ? Router() : IttyRouter();
    router.get("/q", (request: IRequest) => ({ ...request.query }));
    return router.fetch({ method: "GET", url: `http://h/q${search}` });
  };

  it("keeps every value of a name given more than once, in order, an empty first one included", async () => {
    expect(await queryOf("?name=&name=x")).toEqual({ name: ["", "x"] });
    expect(await queryOf("?a=1&a=&a=3&b=")).toEqual({ a: ["1", "", "3"], b: "" });
    expect(await queryOf("?__proto__=x&constructor=y")).toEqual({ ["__proto__"]: "x", constructor: "y" });
    expect(await queryOf("")).toEqual({});
  });
});

describe.each(["Router", "IttyRouter"] as const)("itty-router's URL (patches/): %s", (kind) => {
  /** What a route saw of a request: its route, params and query. */
  const seen = async (request: { method: string; url: string }) => {
    const router = kind === "Router" ? Router() : IttyRouter();
    const saw = ({ route, params, query }: IRequest) => ({ route, params: { ...params }, query: { ...query } });
    router.get("/q/*", saw);
    router.get("/:a/:b", saw);
    router.get("/:a", saw);
    router.all("*", saw);
    return router.fetch(request);
  };

  it("reads a Request's path and query off its URL's text as `new URL` gives them, without making one (property)", async () => {
    const text = fc.string({ unit: fc.constantFrom("a", "Z", "0", " ", "%", "%20", "%2F", "+", "&", "=", ";", "'", '"', "<", "é", "😀", ".", "..", "~", ":", "@", "/", "?") });
    // A query in four of five URLs, a fragment (which the patch leaves to `new URL`) in one of five.
    const url = fc.tuple(fc.array(text, { maxLength: 3 }), fc.option(text, { nil: undefined }), fc.oneof({ arbitrary: fc.constant(undefined), weight: 4 }, { arbitrary: text, weight: 1 })).map(
      ([segments, query, fragment]) => `http://h/${segments.join("/")}${query === undefined ? "" : `?${query}`}${fragment === undefined ? "" : `#${fragment}`}`,
    );
    const RealURL = globalThis.URL;
    let made = 0;
    let fast = 0;
    await fc.assert(
      fc.asyncProperty(url, async (raw) => {
        const request = new Request(raw);
        made = 0;
        globalThis.URL = class extends RealURL {
          constructor(...args: ConstructorParameters<typeof URL>) {
            super(...args);
            made++;
          }
        };
        let fromRequest: unknown;
        try {
          fromRequest = await seen(request);
        } finally {
          globalThis.URL = RealURL;
        }
        // A plain object is not a Request: its URL is parsed, as before the patch.
        expect(fromRequest).toEqual(await seen({ method: "GET", url: request.url }));
        if (!request.url.includes("#")) {
          expect(made).toBe(0);
          fast++;
        }
      }),
      { numRuns: 2000 },
    );
    expect(fast).toBeGreaterThan(1000);
  });
});
