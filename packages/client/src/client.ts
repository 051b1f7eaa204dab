/**
 * `createClient`: the whole API as one object, `client.<area>.<resource>.<method>(…)`, every area
 * sharing one transport (options, retries, timeouts), and `client.request(id, …)` for any route by id.
 */
import { APIPromise } from "./core/api-promise.js";
import { CloudplaneError } from "./core/errors.js";
import type { ClientOptions } from "./core/options.js";
import { routesByArea } from "./core/routes.generated.js";
import type { RequestArgs, ResponseBody, RouteAddress, RouteId } from "./core/routes.js";
import { Transport } from "./core/transport.js";
import { Cdn } from "./resources/cdn.js";
import { Cloud } from "./resources/cloud.js";
import { Edge } from "./resources/edge.js";
import { Iam } from "./resources/iam.js";
import { Security } from "./resources/security.js";
import { Storage } from "./resources/storage.js";
import { Streaming } from "./resources/streaming.js";

/** The client of every area of the API. */
export class CloudplaneClient {
  readonly iam: Iam;
  readonly cdn: Cdn;
  readonly edge: Edge;
  readonly streaming: Streaming;
  readonly cloud: Cloud;
  readonly security: Security;
  readonly storage: Storage;
  readonly #transport: Transport;

  constructor(options: ClientOptions = {}) {
    const transport = new Transport(options);
    this.#transport = transport;
    this.iam = new Iam(transport);
    this.cdn = new Cdn(transport);
    this.edge = new Edge(transport);
    this.streaming = new Streaming(transport);
    this.cloud = new Cloud(transport);
    this.security = new Security(transport);
    this.storage = new Storage(transport);
  }

  /**
   * Calls any route of the contract by its id, typed from the contract: `params`, `query` and `body`
   * are what the route takes, and the call resolves to its success body (`.withResponse()` works too).
   * `client.request("cdn.updateResource", { params: { resource_id: 42 }, body: { description: "…" } })`.
   * A paged list resolves to the one page its query asks for.
   */
  request<Id extends RouteId>(id: Id, ...[input, options]: RequestArgs<Id>): APIPromise<ResponseBody<Id>> {
    const [area = "", name = ""] = String(id).split(".");
    const has = (table: object, key: string) => Object.prototype.hasOwnProperty.call(table, key);
    const table = has(routesByArea, area) ? (routesByArea as Record<string, Record<string, RouteAddress>>)[area]! : {};
    if (!has(table, name)) return new APIPromise(Promise.reject(new CloudplaneError(`The contract has no route ${String(id)}.`)));
    // Widened first: checking the generic input against `object` would expand every route's input.
    return this.#transport.request(table[name] as never, ((input as unknown) ?? {}) as never, options);
  }

  /** A client like this one with some options changed: `client.withOptions({ timeout: 5_000 })`. */
  withOptions(options: ClientOptions): CloudplaneClient {
    return new CloudplaneClient({ ...this.#transport.clientOptions, ...options });
  }
}

/**
 * A client of the whole API. `apiKey` and `baseUrl` default to the CLOUDPLANE_API_KEY and
 * CLOUDPLANE_BASE_URL environment variables where the runtime has an environment.
 */
export function createClient(options: ClientOptions = {}): CloudplaneClient {
  return new CloudplaneClient(options);
}
