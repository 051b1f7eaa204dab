/**
 * Which route of the contract a request is for, so that faults can be set per route id and the
 * platform's call log can name the route of each call.
 */
import { ROUTES, type ContractRoute } from "@cloudplane/contract";

interface Matcher {
  route: ContractRoute;
  method: string;
  /** The path's segments; null where a parameter stands. */
  segments: (string | null)[];
}

const MATCHERS: Matcher[] = ROUTES.map((route) => ({
  route,
  method: route.route.method,
  segments: route.route.path
    .split("/")
    .slice(1)
    .map((segment) => (segment.startsWith(":") ? null : segment)),
}));

/**
 * The route `method pathname` is for (HEAD is a GET route's), or undefined. Where a literal segment and
 * a parameter could both match, the literal wins, as in the API's own router.
 */
export function routeOf(method: string, pathname: string): ContractRoute | undefined {
  const wanted = method.toUpperCase() === "HEAD" ? "GET" : method.toUpperCase();
  const segments = pathname.split("/").slice(1);
  let best: { matcher: Matcher; literals: string } | undefined;
  for (const matcher of MATCHERS) {
    if (matcher.method !== wanted || matcher.segments.length !== segments.length) continue;
    let literals = "";
    let matches = true;
    for (let index = 0; index < segments.length; index++) {
      const expected = matcher.segments[index];
      if (expected === null) {
        if (segments[index] === "") matches = false;
        literals += "0";
      } else if (expected === segments[index]) literals += "1";
      else matches = false;
      if (!matches) break;
    }
    // "1" before "0" position by position: the earliest literal segment decides.
    if (matches && (!best || literals > best.literals)) best = { matcher, literals };
  }
  return best?.matcher.route;
}
