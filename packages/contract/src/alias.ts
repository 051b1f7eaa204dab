/**
 * Aliases: an operation the platform now also serves at another path (or method), answered by the same
 * implementation as its primary route. The primary keeps the specification's path; the alias says whose
 * it is in `metadata.aliasOf`, so the handlers, the route cases, the examples and the docs derive it.
 */
import type { AppRoute } from "@ts-rest/core";
import type { RouteMetadata } from "./roles.js";

/** The metadata of an alias: its primary's access, and the primary's name in the same area. */
export interface AliasMetadata<Name extends string = string> extends RouteMetadata {
  aliasOf: Name;
}

type Aliased<Route extends AppRoute, Name extends string, Path extends string, Method extends AppRoute["method"]> = Omit<
  Route,
  "path" | "method" | "metadata" | "summary" | "description"
> & {
  path: Path;
  method: Method;
  metadata: AliasMetadata<Name>;
  summary: string;
  description: string;
};

/**
 * The route `name` of `routes` served at `path` (and `method`, if given) too. Its parameters must have
 * the primary's names, since the same implementation takes them.
 */
export function alias<
  Routes extends Record<string, AppRoute>,
  Name extends keyof Routes & string,
  Path extends string,
  Method extends AppRoute["method"] = Routes[Name]["method"],
>(routes: Routes, name: Name, at: { path: Path; method?: Method }): Aliased<Routes[Name], Name, Path, Method> {
  const primary = routes[name]!;
  const method = (at.method ?? primary.method) as Method;
  return {
    ...primary,
    path: at.path,
    method,
    summary: `${primary.summary ?? name} (${method} ${at.path})`,
    description:
      `An alias of \`${primary.method} ${primary.path}\`, at the path the platform serves it under today: the same ` +
      `operation, the same parameters, body, answers and roles. ${primary.description ?? ""}`.trimEnd(),
    metadata: { ...(primary.metadata as RouteMetadata), aliasOf: name },
  } as unknown as Aliased<Routes[Name], Name, Path, Method>;
}

/** The names of the aliases among `Routes`. */
export type AliasNames<Routes> = {
  [Key in keyof Routes]: Routes[Key] extends { metadata: AliasMetadata } ? Key : never;
}[keyof Routes];

/** `Routes` without its aliases: the routes an area implements. */
export type PrimaryRoutes<Routes> = Omit<Routes, AliasNames<Routes>>;

/** The name of the primary route an alias stands for, or undefined for a primary route. */
export function aliasOf(route: AppRoute): string | undefined {
  return (route.metadata as Partial<AliasMetadata> | undefined)?.aliasOf;
}

/**
 * An area's routes typed without its aliases, for the handlers: an area implements its primary routes,
 * and the router serves each alias with its primary's implementation. The object is the area itself.
 */
export function primaryRoutes<Routes extends Record<string, unknown>>(routes: Routes): PrimaryRoutes<Routes> {
  return routes;
}
