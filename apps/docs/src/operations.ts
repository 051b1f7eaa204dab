/**
 * What the docs show for each operation beyond its route: the example call the route declares beside
 * it in the contract (path parameters, query, body, response), and the variable its client snippet
 * assigns the result to. Derived for every route of `ROUTES`, with no row written per route; a route
 * without an example still builds, with no example values and no snippet body.
 */
import { routeExample, type ContractRoute, type ExampleResponseHeader, type RouteId } from "@cloudplane/contract";

export interface OperationDocs {
  /** The route's id, by which the client snippet finds its method: `cdn.updateResource` → `client.cdn.resources.update`. */
  id: RouteId;
  /** The name of the variable the snippet assigns the result to. */
  result: string;
  /** Example path parameters, by name. */
  pathParams?: Record<string, string | number>;
  /** Example query parameters; only the ones worth showing. */
  query?: Record<string, string | number | boolean>;
  /** Example body, for routes that take one. */
  body?: unknown;
  /** Example of the success response's body. */
  response?: unknown;
  /** Response headers of the success response besides `x-request-id`, with what they carry. */
  responseHeaders?: Record<string, ExampleResponseHeader>;
}

const VERB = /^(get|list|update|replace|create|delete)(?=[A-Z])/;

/** What a route gives, from its name: `updateResource` → `resource`, `listTokens` → `tokens`. */
export function resultName(name: string): string {
  const noun = name.replace(VERB, "");
  return noun === name || noun === "" ? "result" : noun[0]!.toLowerCase() + noun.slice(1);
}

/** The docs of one operation: the contract's example of the route, where it has one. */
export function operationDocs({ id, name }: Pick<ContractRoute, "id" | "name">): OperationDocs {
  const example = routeExample(id);
  const docs: OperationDocs = { id, result: resultName(name) };
  if (example?.pathParams) docs.pathParams = example.pathParams;
  // The example's query holds only the parameters it shows.
  if (example?.query) docs.query = example.query as Record<string, string | number | boolean>;
  if (example?.body !== undefined) docs.body = example.body;
  if (example?.response !== undefined) docs.response = example.response;
  if (example?.responseHeaders) docs.responseHeaders = example.responseHeaders;
  return docs;
}
