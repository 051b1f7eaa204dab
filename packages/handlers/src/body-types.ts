/**
 * The body type of the route a request reaches, read off the contract (`bodyTypeOf`): JSON for every
 * route but those whose metadata says they take raw bytes. The requests are matched the way
 * @ts-rest/serverless matches them (an itty-router Router over the contract's routes, in its order, the
 * first match winning), so the type is the one of the route that will serve the request. A request no
 * route serves is held to JSON, as before there were raw routes. Asked before ts-rest reads the body:
 * by the front, once per request, to know how to read the body and to check its type.
 */
import { bodyTypeOf, JSON_BODY, ROUTES, type BodyType } from "@cloudplane/contract";
import { Router, type IRequest } from "itty-router";

/** The body type of the route `method` and `url` reach. */
export type BodyTypeOf = (method: string, url: string) => Promise<BodyType>;

/** The methods of the routes that take something other than JSON: a request of another method needs no matching. */
const RAW_METHODS: ReadonlySet<string> = new Set(ROUTES.filter(({ route }) => bodyTypeOf(route) !== JSON_BODY).map(({ route }) => route.method));

/**
 * `BodyTypeOf` for a handler served under `basePath` ("" for the root). The router is built on the first
 * request of a method some raw route has, not with the handler.
 */
export function routeBodyTypes(basePath: string): BodyTypeOf {
  let router: ReturnType<typeof Router<IRequest>> | undefined;
  return async (method, url) => {
    if (!RAW_METHODS.has(method)) return JSON_BODY;
    router ??= bodyTypeRouter(basePath);
    const found = (await router.fetch({ method, url })) as BodyType | undefined;
    return found ?? JSON_BODY;
  };
}

function bodyTypeRouter(basePath: string) {
  // Every route of those methods, JSON ones too: a JSON route listed before a raw one that would match the same request wins, as in ts-rest.
  const router = Router<IRequest>({ base: basePath });
  for (const { route } of ROUTES) {
    if (!RAW_METHODS.has(route.method)) continue;
    const type = bodyTypeOf(route);
    router.all(route.path, (request: IRequest) => (request.method === route.method ? type : undefined));
  }
  return router;
}
