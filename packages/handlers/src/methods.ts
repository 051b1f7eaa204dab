/**
 * The methods each path of the API has, for the 405 answer and its `Allow` header: one itty-router
 * Router (what @ts-rest/serverless matches requests with) over the paths of the contract's `ROUTES`,
 * built once per handler (when a request first matches no route), so a URL has methods here exactly
 * when ts-rest would match it with one of them. Every path with GET has HEAD too (router.ts serves it).
 */
import { ROUTES } from "@cloudplane/contract";
import { Router, type IRequest } from "itty-router";

/** The order methods are listed in. */
const METHOD_ORDER = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/** Every method the contract's routes use, and HEAD (what a browser's preflight may ask for). */
export const API_METHODS: readonly string[] = METHOD_ORDER.filter((method) => method === "HEAD" || ROUTES.some(({ route }) => route.method === method));

type Probe = IRequest & { methods: Set<string> };

/** The methods of the path of a URL, in the usual order; none for a path the API does not have. */
export type PathMethods = (url: string) => Promise<string[]>;

/**
 * `PathMethods` for a handler served under `basePath` ("" for the root), each path's list with `extra`
 * added (OPTIONS when CORS is on). The router is built on the first question, not with the handler:
 * on Workers a handler is built for each request, and most never ask.
 */
export function pathMethods(basePath: string, extra: readonly string[] = []): PathMethods {
  let router: ReturnType<typeof Router<Probe>> | undefined;
  return async (url) => {
    router ??= methodsRouter(basePath, extra);
    const probe = { method: "GET", url, methods: new Set<string>() } as Probe;
    await router.fetch(probe);
    return METHOD_ORDER.filter((method) => probe.methods.has(method));
  };
}

function methodsRouter(basePath: string, extra: readonly string[]) {
  const byPath = new Map<string, Set<string>>();
  for (const { route } of ROUTES) {
    const methods = byPath.get(route.path) ?? new Set(extra);
    methods.add(route.method);
    if (route.method === "GET") methods.add("HEAD");
    byPath.set(route.path, methods);
  }
  // Each path that matches adds its methods; none answers, so every path is tried.
  const router = Router<Probe>({ base: basePath });
  for (const [path, methods] of byPath)
    router.all(path, (probe) => {
      for (const method of methods) probe.methods.add(method);
    });
  return router;
}
