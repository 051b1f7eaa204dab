/**
 * The name of every route in the typed client, `client.<area>.<resource>.<method>(…)`, derived from its
 * path and method by one rule; the client's generator and the docs' samples both read it from here.
 */
import type { AppRoute } from "@ts-rest/core";
import { bodyTypeOf, RAW_BODY } from "./body.js";
import type { RouteMetadata } from "./roles.js";
import { ROUTES, type ContractRoute, type RouteId } from "./routes.js";

/**
 * A route's own client name, for the few whose path does not say what they are (`/cdn/clients/me` is
 * the account's CDN settings): `resource` is dotted under the area (`"logsUploader.targets"`).
 */
export interface ClientNameMetadata {
  resource?: string;
  method?: string;
  /** The items a page of a list paged by `page` holds, which neither the query nor the body says. */
  pageSize?: number;
  /**
   * A type the contract exports, generic in the request body, that narrows the answer by what the body
   * asks for (the cost report's CSV): the method's body is a type parameter and it answers this type of it.
   * The client's plain types define it again under the same name (its src/core/answers.ts).
   */
  answer?: string;
}

/** The metadata of a route with a client name of its own. */
export interface ClientMetadata extends RouteMetadata {
  client: ClientNameMetadata;
}

/** Where a route is in the client. */
export interface ClientMethod {
  /** The resource's path under the area: `["logsUploader", "targets"]` for `client.cdn.logsUploader.targets`. */
  resource: string[];
  /** The method: `list`, `create`, `get`, `update`, `replace`, `delete`, or an action's own (`validate`, `getShielding`). */
  method: string;
  /** The path parameters in path order, each with the name of its argument (`resource_id` → `resourceId`, `:id` of apps → `appId`). */
  args: Array<{ param: string; name: string }>;
  /** The body argument, after the path parameters: `json` (the body as the route takes it), `raw` (bytes), or none, for a route without a body. */
  body?: "json" | "raw";
  /** Whether the body may be left out (an optional argument, sent as no body when it is). */
  bodyOptional?: boolean;
  /** Whether the route takes a query, an optional argument after the body. */
  query: boolean;
}

const VERSION = /^v\d+$/;
/** `me` stands for the caller's own item of a collection (`/iam/clients/me`): an item with no argument. */
const OWN = "me";

const isParam = (segment: string) => segment.startsWith(":") || segment === OWN;

const camel = (word: string) => word.replace(/[-_]+([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());
const pascal = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

function plural(word: string): string {
  if (word.endsWith("s")) return word;
  return /[^aeiou]y$/.test(word) ? `${word.slice(0, -1)}ies` : `${word}s`;
}

function singular(word: string): string {
  if (word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  return word.endsWith("s") && !word.endsWith("ss") ? word.slice(0, -1) : word;
}

/** The path after the area, without versions (`v2`, `shielding_v2`). */
function segmentsOf(route: AppRoute): string[] {
  return route.path
    .split("/")
    .filter(Boolean)
    .slice(1)
    .filter((segment) => !VERSION.test(segment))
    .map((segment) => (isParam(segment) ? segment : segment.replace(/_v\d+$/, "")));
}

/** The key of a path prefix, so that `bucket/:name` and `buckets` (the same collection) meet: words in the plural, parameters as `:`. */
const keyOf = (segments: string[]) => segments.map((segment) => (isParam(segment) ? ":" : plural(camel(segment)))).join("/");

const clientNameOf = (route: AppRoute) => (route.metadata as Partial<ClientMetadata> | undefined)?.client;

/**
 * Where each route of `routes` is in the client, by id; an alias is where its primary is. The rule:
 *
 * - The path after the area, without version segments, and without the words every route of the area
 *   starts with (`/security/iaas`, `/storage/provisioning`): those address the area, not a resource.
 * - A word that some route follows with a parameter (`tokens/{tokenId}`) names a collection; `me` counts as
 *   one of its items. Parameters are the method's arguments, in path order.
 * - The resource is the last collection of the path, in the plural, under the other words before it
 *   (`logs_uploader/targets` → `logsUploader.targets`); collections it is nested in by a parameter are not
 *   part of its name (`clients/{clientId}/tokens` → `tokens`). A path with no collection is a resource of
 *   its own words (`/cdn/shieldingpop_v2`).
 * - The method: on the collection GET `list` and POST `create`; on an item GET `get`, PATCH `update`,
 *   PUT `replace`, DELETE `delete`. Any other route is an action: the route's name without the words of
 *   its resource (`validateLogsUploaderTarget` → `validate`, `updateResourceShielding` → `updateShielding`).
 * - `metadata.client` (`{ resource, method }`) names a route the rule does not name well.
 *
 * Throws when two routes would share a method, or a method would share its name with a resource.
 */
export function clientMethods(routes: readonly ContractRoute[] = ROUTES): Map<RouteId, ClientMethod> {
  const primaries = routes.filter((entry) => !entry.aliasOf);
  const methods = new Map<RouteId, ClientMethod>();
  const areas = [...new Set(primaries.map((entry) => entry.area))];
  for (const area of areas) {
    const inArea = primaries.filter((entry) => entry.area === area);
    const paths = inArea.map((entry) => segmentsOf(entry.route));
    const collections = new Set<string>();
    for (const segments of paths)
      segments.forEach((segment, index) => {
        if (index > 0 && isParam(segment) && !isParam(segments[index - 1]!)) collections.add(keyOf(segments.slice(0, index)));
      });
    const shared = sharedGroupWords(paths, collections);
    inArea.forEach((entry, index) => methods.set(entry.id, methodOf(entry, paths[index]!, shared, collections)));
  }
  for (const entry of routes) if (entry.aliasOf) methods.set(entry.id, methods.get(entry.aliasOf)!);
  assertDistinct(primaries, methods);
  return methods;
}

/** How many leading words every path of an area shares and are no collection, each followed by another word. */
function sharedGroupWords(paths: string[][], collections: Set<string>): number {
  let shared = 0;
  for (;;) {
    const word = paths[0]?.[shared];
    const isGroup = (segments: string[]) =>
      segments[shared] === word && segments[shared + 1] !== undefined && !isParam(segments[shared + 1]!) && !collections.has(keyOf(segments.slice(0, shared + 1)));
    if (word === undefined || isParam(word) || !paths.every(isGroup)) return shared;
    shared += 1;
  }
}

function methodOf(entry: ContractRoute, segments: string[], shared: number, collections: Set<string>): ClientMethod {
  const { route, name } = entry;
  const args: ClientMethod["args"] = [];
  segments.forEach((segment, index) => {
    if (!segment.startsWith(":")) return;
    const param = segment.slice(1);
    const before = segments[index - 1];
    const bare = param === "id" || param === "name";
    args.push({ param, name: bare && before && !isParam(before) ? `${singular(camel(before))}${pascal(param)}` : camel(param) });
  });

  const words = segments.map((segment, index) => ({ segment, index })).slice(shared).filter(({ segment }) => !isParam(segment));
  const isCollection = (index: number) => collections.has(keyOf(segments.slice(0, index + 1)));
  const last = [...words].reverse().find(({ index }) => isCollection(index));
  let resourceWords: typeof words;
  let shape: "collection" | "item" | "action";
  if (last) {
    let end = last.index + 1;
    while (end < segments.length && isParam(segments[end]!)) end += 1;
    resourceWords = words.filter(({ index }) => index === last.index || (index < last.index && !isCollection(index)));
    shape = end < segments.length ? "action" : end > last.index + 1 ? "item" : "collection";
  } else {
    resourceWords = words;
    shape = "collection";
  }
  const resource = resourceWords.map(({ segment }, position) => (position === resourceWords.length - 1 ? plural(camel(segment)) : camel(segment)));

  const crud: Partial<Record<string, string>> =
    shape === "collection" ? { GET: "list", POST: "create" } : shape === "item" ? { GET: "get", PATCH: "update", PUT: "replace", DELETE: "delete" } : {};
  const own = clientNameOf(route);
  const ownResource = own?.resource?.split(".");
  const method = own?.method ?? crud[route.method] ?? actionName(name, ownResource ?? resource);
  return { resource: ownResource ?? resource, method, args, ...bodyArgumentOf(route), query: Boolean(route.query) };
}

function bodyArgumentOf(route: AppRoute): Pick<ClientMethod, "body" | "bodyOptional"> {
  if (!("body" in route) || typeof route.body === "symbol" || route.body === null) return {};
  if (bodyTypeOf(route) === RAW_BODY) return { body: "raw" };
  const schema = route.body as { safeParse?: (value: unknown) => { success: boolean } };
  return schema.safeParse?.(undefined).success ? { body: "json", bodyOptional: true } : { body: "json" };
}

/** An action's name: the route's name without the words of its resource (`getBucketCors` of `s3.buckets` → `getCors`). */
function actionName(name: string, resource: string[]): string {
  const own = new Set(resource.flatMap((part) => part.split(/(?=[A-Z])/)).map((word) => singular(word.toLowerCase())));
  const [verb = name, ...rest] = name.split(/(?=[A-Z])/);
  return verb + rest.filter((word) => !own.has(singular(word.toLowerCase()))).join("");
}

function assertDistinct(primaries: readonly ContractRoute[], methods: Map<RouteId, ClientMethod>): void {
  const taken = new Map<string, RouteId>();
  const resources = new Set<string>();
  for (const { id, area } of primaries) {
    const { resource } = methods.get(id)!;
    for (let depth = 1; depth <= resource.length; depth += 1) resources.add([area, ...resource.slice(0, depth)].join("."));
  }
  for (const { id, area } of primaries) {
    const { resource, method } = methods.get(id)!;
    const path = [area, ...resource, method].join(".");
    const other = taken.get(path);
    if (other) throw new Error(`The routes ${other} and ${id} are both client.${path}: give one a name of its own in metadata.client.`);
    if (resources.has(path)) throw new Error(`client.${path} of ${id} is also a resource: give the route a name of its own in metadata.client.`);
    taken.set(path, id);
  }
}

let fromContract: Map<RouteId, ClientMethod> | undefined;

/** Where the contract's route `id` is in the client (an alias: where its primary is). */
export function clientMethodOf(id: RouteId): ClientMethod {
  fromContract ??= clientMethods(ROUTES);
  const found = fromContract.get(id);
  if (!found) throw new Error(`The contract has no route ${id}.`);
  return found;
}
