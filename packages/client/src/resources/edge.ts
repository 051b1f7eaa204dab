/**
 * Edge apps: apps, templates, secrets and binaries (`client.edge.*`), at the /edge/v1 paths.
 */
import type {
  CreateEdgeAppBody,
  CreateEdgeAppSecretBody,
  EdgeApp,
  EdgeAppList,
  EdgeAppSecret,
  EdgeAppSecretList,
  EdgeAppSecretShort,
  EdgeAppTemplate,
  EdgeAppTemplateBody,
  EdgeAppTemplateList,
  EdgeAppTemplateShort,
  EdgeBinary,
  EdgeBinaryList,
  ListEdgeAppSecretsQuery,
  ListEdgeAppsQuery,
  ListEdgeAppTemplatesQuery,
  ListEdgeBinariesQuery,
  ReplaceEdgeAppSecretBody,
  UpdateEdgeAppBody,
  UpdateEdgeAppSecretBody,
} from "@cloudplane/contract";
import type { APIPromise } from "../core/api-promise.js";
import type { ClientOptions, RequestOptions } from "../core/options.js";
import { offsetPaging, type PagePromise } from "../core/pagination.js";
import { APIResource } from "../core/resource.js";
import { edgeRoutes } from "../core/routes.generated.js";
import { Transport, type RawBody } from "../core/transport.js";

const appsPaging = /* @__PURE__ */ offsetPaging<EdgeApp, EdgeAppList, ListEdgeAppsQuery>((list) => list.apps);
const templatesPaging = /* @__PURE__ */ offsetPaging<EdgeAppTemplateShort, EdgeAppTemplateList, ListEdgeAppTemplatesQuery>(
  (list) => list.templates,
);
const secretsPaging = /* @__PURE__ */ offsetPaging<EdgeAppSecretShort, EdgeAppSecretList, ListEdgeAppSecretsQuery>((list) => list.secrets);
const binariesPaging = /* @__PURE__ */ offsetPaging<EdgeBinary, EdgeBinaryList, ListEdgeBinariesQuery>((list) => list.binaries);

/** `force` of the deletes that refuse an object still in use. */
export interface ForceDeleteOptions {
  /** true: delete it even while apps use it (see each method). */
  force?: boolean;
}

export class EdgeApps extends APIResource {
  /**
   * `GET /edge/v1/apps`: the account's apps that match every filter given, a page of `limit` (default 25)
   * from `offset`. Resolves to the page; `for await` over the result goes through every app of every page.
   */
  list(query?: ListEdgeAppsQuery, options?: RequestOptions): PagePromise<EdgeApp, EdgeAppList> {
    return this.transport.list(edgeRoutes.listApps, { query }, options, appsPaging);
  }

  /** `POST /edge/v1/apps`: a new app from a binary, a template, or both; it starts as a draft unless `status` says otherwise. */
  create(body: CreateEdgeAppBody, options?: RequestOptions): APIPromise<EdgeApp> {
    return this.transport.request(edgeRoutes.createApp, { body }, options);
  }

  /** `GET /edge/v1/apps/{id}`: one app, without its write-only fields. */
  get(appId: number, options?: RequestOptions): APIPromise<EdgeApp> {
    return this.transport.request(edgeRoutes.getApp, { params: { id: appId } }, options);
  }

  /**
   * `PUT /edge/v1/apps/{id}`: changes the fields given (none is required). Status moves a caller may make:
   * 0→1, 0→2, 1→2, 2→1, and 3, 4 or 5 → 2; others are ConflictError.
   */
  update(appId: number, body: UpdateEdgeAppBody, options?: RequestOptions): APIPromise<EdgeApp> {
    return this.transport.request(edgeRoutes.updateApp, { params: { id: appId }, body }, options);
  }

  /**
   * `PATCH /edge/v1/apps/{id}`: changes only the fields given, by the same rules as `update`, and resolves
   * to the app like it.
   */
  patch(appId: number, body: UpdateEdgeAppBody, options?: RequestOptions): APIPromise<EdgeApp> {
    return this.transport.request(edgeRoutes.patchApp, { params: { id: appId }, body }, options);
  }

  /** `DELETE /edge/v1/apps/{id}`: deletes the app; its binary and secrets stay. */
  delete(appId: number, options?: RequestOptions): APIPromise<void> {
    return this.transport.request(edgeRoutes.deleteApp, { params: { id: appId } }, options);
  }
}

export class EdgeTemplates extends APIResource {
  /** `GET /edge/v1/template`: the account's templates and the public ones, a page of `limit` (default 25) from `offset`. */
  list(query?: ListEdgeAppTemplatesQuery, options?: RequestOptions): PagePromise<EdgeAppTemplateShort, EdgeAppTemplateList> {
    return this.transport.list(edgeRoutes.listTemplates, { query }, options, templatesPaging);
  }

  /** `POST /edge/v1/template`: a new template of the account from one of its binaries. */
  create(body: EdgeAppTemplateBody, options?: RequestOptions): APIPromise<EdgeAppTemplateShort> {
    return this.transport.request(edgeRoutes.createTemplate, { body }, options);
  }

  /** `GET /edge/v1/template/{id}`: one of the account's templates, or a public one. */
  get(templateId: number, options?: RequestOptions): APIPromise<EdgeAppTemplate> {
    return this.transport.request(edgeRoutes.getTemplate, { params: { id: templateId } }, options);
  }

  /** `PUT /edge/v1/template/{id}`: sets every field of one of the account's templates. */
  replace(templateId: number, body: EdgeAppTemplateBody, options?: RequestOptions): APIPromise<EdgeAppTemplateShort> {
    return this.transport.request(edgeRoutes.replaceTemplate, { params: { id: templateId }, body }, options);
  }

  /** `DELETE /edge/v1/template/{id}`: ConflictError while apps are made from it, unless `force` detaches them. */
  delete(templateId: number, query?: ForceDeleteOptions, options?: RequestOptions): APIPromise<void> {
    return this.transport.request(edgeRoutes.deleteTemplate, { params: { id: templateId }, query }, options);
  }
}

export class EdgeSecrets extends APIResource {
  /** `GET /edge/v1/secrets`: the account's secrets without their slots, a page of `limit` (default 1000) from `offset`. */
  list(query?: ListEdgeAppSecretsQuery, options?: RequestOptions): PagePromise<EdgeAppSecretShort, EdgeAppSecretList> {
    return this.transport.list(edgeRoutes.listSecrets, { query }, options, secretsPaging);
  }

  /**
   * `POST /edge/v1/secrets`: a new secret with one or more slots. Values are stored encrypted and never
   * returned: each slot comes back with the SHA-256 `checksum` of its value.
   */
  create(body: CreateEdgeAppSecretBody, options?: RequestOptions): APIPromise<EdgeAppSecret> {
    return this.transport.request(edgeRoutes.createSecret, { body }, options);
  }

  /** `GET /edge/v1/secrets/{id}`: one secret with its slots' checksums. */
  get(secretId: number, options?: RequestOptions): APIPromise<EdgeAppSecret> {
    return this.transport.request(edgeRoutes.getSecret, { params: { id: secretId } }, options);
  }

  /** `PATCH /edge/v1/secrets/{id}`: changes the fields given; a slot listed without a value keeps its stored one. */
  update(secretId: number, body: UpdateEdgeAppSecretBody, options?: RequestOptions): APIPromise<EdgeAppSecret> {
    return this.transport.request(edgeRoutes.updateSecret, { params: { id: secretId }, body }, options);
  }

  /** `PUT /edge/v1/secrets/{id}`: sets the name and comment, and the slots if given. */
  replace(secretId: number, body: ReplaceEdgeAppSecretBody, options?: RequestOptions): APIPromise<EdgeAppSecret> {
    return this.transport.request(edgeRoutes.replaceSecret, { params: { id: secretId }, body }, options);
  }

  /** `DELETE /edge/v1/secrets/{id}`: ConflictError while apps use it, unless `force` takes it out of them. */
  delete(secretId: number, query?: ForceDeleteOptions, options?: RequestOptions): APIPromise<void> {
    return this.transport.request(edgeRoutes.deleteSecret, { params: { id: secretId }, query }, options);
  }
}

export class EdgeBinaries extends APIResource {
  /** `GET /edge/v1/binaries`: the account's binaries, a page of `limit` (default 1000) from `offset`. */
  list(query?: ListEdgeBinariesQuery, options?: RequestOptions): PagePromise<EdgeBinary, EdgeBinaryList> {
    return this.transport.list(edgeRoutes.listBinaries, { query }, options, binariesPaging);
  }

  /** `GET /edge/v1/binaries/{id}`: one of the account's binaries. */
  get(binaryId: number, options?: RequestOptions): APIPromise<EdgeBinary> {
    return this.transport.request(edgeRoutes.getBinary, { params: { id: binaryId } }, options);
  }

  /**
   * `POST /edge/v1/binaries/raw`: uploads a compiled WebAssembly module (at most 1 MiB), sent as its raw
   * bytes with Content-Type: application/octet-stream, and resolves to the new binary (its api_type read
   * from the module). Bytes that are not a WebAssembly module of version 1 are a BadRequestError.
   *
   *   const binary = await client.edge.binaries.upload(await readFile("app.wasm"));
   */
  upload(bytes: RawBody, options?: RequestOptions): APIPromise<EdgeBinary> {
    // The contract types the body as the bytes the server reads; an ArrayBuffer or a Blob is sent as the same bytes.
    return this.transport.request(edgeRoutes.uploadBinary, { body: bytes as Uint8Array }, options);
  }

  /** `DELETE /edge/v1/binaries/{id}`: deletes one of the account's binaries; ConflictError while an app or a template uses it. */
  delete(binaryId: number, options?: RequestOptions): APIPromise<void> {
    return this.transport.request(edgeRoutes.deleteBinary, { params: { id: binaryId } }, options);
  }
}

/** The Edge apps area. */
export class Edge {
  readonly apps: EdgeApps;
  readonly templates: EdgeTemplates;
  readonly secrets: EdgeSecrets;
  readonly binaries: EdgeBinaries;

  constructor(transport: Transport) {
    this.apps = new EdgeApps(transport);
    this.templates = new EdgeTemplates(transport);
    this.secrets = new EdgeSecrets(transport);
    this.binaries = new EdgeBinaries(transport);
  }
}

/** A client of the Edge apps area alone, for bundles that need nothing else. */
export function createEdgeClient(options?: ClientOptions): Edge {
  return new Edge(new Transport(options));
}
