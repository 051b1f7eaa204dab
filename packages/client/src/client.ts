/**
 * `createClient`: the whole API as one object, `client.<area>.<resource>.<method>(…)`, every area
 * sharing one transport (options, retries, timeouts).
 */
import type { ClientOptions } from "./core/options.js";
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
