/**
 * Edge apps: apps (a paged listing and updates), templates and secrets (`client.edge.*`).
 */
import type {
  CreateEdgeAppSecretBody,
  EdgeApp,
  EdgeAppList,
  EdgeAppSecret,
  EdgeAppTemplate,
  ListEdgeAppsQuery,
  UpdateEdgeAppBody,
} from "@cloudplane/contract";
import type { APIPromise } from "../core/api-promise.js";
import type { ClientOptions, RequestOptions } from "../core/options.js";
import { offsetPaging, type PagePromise } from "../core/pagination.js";
import { APIResource } from "../core/resource.js";
import { edgeRoutes } from "../core/routes.generated.js";
import { Transport } from "../core/transport.js";

const appsPaging = /* @__PURE__ */ offsetPaging<EdgeApp, EdgeAppList, ListEdgeAppsQuery>((list) => list.apps);

export class EdgeApps extends APIResource {
  /**
   * `GET /edge/v1/apps`: the account's apps that match every filter given, a page of `limit` (default 25)
   * from `offset`. Resolves to the page; `for await` over the result goes through every app of every page.
   */
  list(query?: ListEdgeAppsQuery, options?: RequestOptions): PagePromise<EdgeApp, EdgeAppList> {
    return this.transport.list(edgeRoutes.listApps, { query }, options, appsPaging);
  }

  /**
   * `PUT /edge/v1/apps/{id}`: changes the fields given (none is required). Status moves a caller may make:
   * 0→1, 0→2, 1→2, 2→1, and 3, 4 or 5 → 2; others are ConflictError.
   */
  update(appId: number, body: UpdateEdgeAppBody, options?: RequestOptions): APIPromise<EdgeApp> {
    return this.transport.request(edgeRoutes.updateApp, { params: { id: appId }, body }, options);
  }
}

export class EdgeTemplates extends APIResource {
  /** `GET /edge/v1/template/{id}`: one of the account's templates, or a public one. */
  get(templateId: number, options?: RequestOptions): APIPromise<EdgeAppTemplate> {
    return this.transport.request(edgeRoutes.getTemplate, { params: { id: templateId } }, options);
  }
}

export class EdgeSecrets extends APIResource {
  /**
   * `POST /edge/v1/secrets`: a new secret with one or more slots. Values are stored encrypted and never
   * returned: each slot comes back with the SHA-256 `checksum` of its value.
   */
  create(body: CreateEdgeAppSecretBody, options?: RequestOptions): APIPromise<EdgeAppSecret> {
    return this.transport.request(edgeRoutes.createSecret, { body }, options);
  }
}

/** The Edge apps area. */
export class Edge {
  readonly apps: EdgeApps;
  readonly templates: EdgeTemplates;
  readonly secrets: EdgeSecrets;

  constructor(transport: Transport) {
    this.apps = new EdgeApps(transport);
    this.templates = new EdgeTemplates(transport);
    this.secrets = new EdgeSecrets(transport);
  }
}

/** A client of the Edge apps area alone, for bundles that need nothing else. */
export function createEdgeClient(options?: ClientOptions): Edge {
  return new Edge(new Transport(options));
}
