/**
 * CDN: resources and their origin shielding, the platform's shielding POPs, logs uploader targets, the
 * account's CDN settings and features, and origin groups (`client.cdn.*`).
 */
import type {
  CdnClientSettings,
  CdnFeatures,
  CdnResource,
  CdnResourceList,
  Contract,
  CreateCdnResourceBody,
  CreateOriginGroupBody,
  ListCdnResourcesQuery,
  ListOriginGroupsQuery,
  ListShieldingPopsQuery,
  OriginGroup,
  OriginGroupList,
  ReplaceCdnResourceBody,
  ReplaceOriginGroupBody,
  ShieldingPop,
  ShieldingPopList,
  ShieldingSetting,
  UpdateCdnResourceBody,
  UpdateOriginGroupBody,
} from "@cloudplane/contract";
import type { APIPromise } from "../core/api-promise.js";
import { offsetPaging, type PagePromise } from "../core/pagination.js";
import type { ClientOptions, RequestOptions } from "../core/options.js";
import { APIResource } from "../core/resource.js";
import type { Body } from "../core/routes.js";
import { cdnRoutes } from "../core/routes.generated.js";
import { Transport } from "../core/transport.js";
import { LogsUploader } from "./logs-uploader.js";

export { LogsUploader, LogsUploaderConfigs, LogsUploaderPolicies, LogsUploaderTargets } from "./logs-uploader.js";

/** The body of `client.cdn.resources.updateShielding`: `{ shielding_pop }`, null to switch shielding off. */
export type UpdateShieldingBody = Body<Contract["cdn"]["updateResourceShielding"]>;
/** The body of `client.cdn.clientSettings.update`. */
export type UpdateCdnClientSettingsBody = Body<Contract["cdn"]["updateClientSettings"]>;

const resourcesPaging = /* @__PURE__ */ offsetPaging<CdnResource, CdnResourceList, ListCdnResourcesQuery>((list) => list.results);
const originGroupsPaging = /* @__PURE__ */ offsetPaging<OriginGroup, OriginGroupList, ListOriginGroupsQuery>((list) => list.results);
const shieldingPopsPaging = /* @__PURE__ */ offsetPaging<ShieldingPop, ShieldingPopList, ListShieldingPopsQuery>((list) => list.results);

export class CdnResources extends APIResource {
  /**
   * `GET /cdn/resources`: a page of the account's resources that match the filters (default 25, at most
   * 1000 a page), ordered by id; iterate it (`for await`) to get every match.
   */
  list(query?: ListCdnResourcesQuery, options?: RequestOptions): PagePromise<CdnResource, CdnResourceList> {
    return this.transport.list(cdnRoutes.listResources, { query }, options, resourcesPaging);
  }

  /** `POST /cdn/resources`: a new resource for `cname`, pulling from `originGroup` or from a new group made for `origin`. */
  create(body: CreateCdnResourceBody, options?: RequestOptions): APIPromise<CdnResource> {
    return this.transport.request(cdnRoutes.createResource, { body }, options);
  }

  /** `GET /cdn/resources/{resource_id}`: one resource of the account. */
  get(resourceId: number, options?: RequestOptions): APIPromise<CdnResource> {
    return this.transport.request(cdnRoutes.getResource, { params: { resource_id: resourceId } }, options);
  }

  /** `DELETE /cdn/resources/{resource_id}`: deletes a deactivated resource for good (an active one is a ConflictError). */
  delete(resourceId: number, options?: RequestOptions): APIPromise<void> {
    return this.transport.request(cdnRoutes.deleteResource, { params: { resource_id: resourceId } }, options);
  }

  /**
   * `PATCH /cdn/resources/{resource_id}`: changes only the fields given. Inside `options`, each option
   * given replaces that option whole and `"<option>": null` removes it.
   */
  update(resourceId: number, body: UpdateCdnResourceBody, options?: RequestOptions): APIPromise<CdnResource> {
    return this.transport.request(cdnRoutes.updateResource, { params: { resource_id: resourceId }, body }, options);
  }

  /**
   * `PUT /cdn/resources/{resource_id}`: replaces every writable field; `originGroup` is required and
   * fields left out return to their defaults.
   */
  replace(resourceId: number, body: ReplaceCdnResourceBody, options?: RequestOptions): APIPromise<CdnResource> {
    return this.transport.request(cdnRoutes.replaceResource, { params: { resource_id: resourceId }, body }, options);
  }

  /** `GET /cdn/resources/{resource_id}/shielding_v2`: the shielding POP the resource uses, or null. */
  getShielding(resourceId: number, options?: RequestOptions): APIPromise<ShieldingSetting> {
    return this.transport.request(cdnRoutes.getResourceShielding, { params: { resource_id: resourceId } }, options);
  }

  /** `PUT /cdn/resources/{resource_id}/shielding_v2`: routes the resource through a shielding POP, or none (null). */
  updateShielding(resourceId: number, body: UpdateShieldingBody, options?: RequestOptions): APIPromise<ShieldingSetting> {
    return this.transport.request(cdnRoutes.updateResourceShielding, { params: { resource_id: resourceId }, body }, options);
  }
}

export class ShieldingPops extends APIResource {
  /** `GET /cdn/shieldingpop_v2`: the platform's shielding POPs (all of them in one page by default). */
  list(query?: ListShieldingPopsQuery, options?: RequestOptions): PagePromise<ShieldingPop, ShieldingPopList> {
    return this.transport.list(cdnRoutes.listShieldingPops, { query }, options, shieldingPopsPaging);
  }
}

export class CdnClientSettingsResource extends APIResource {
  /** `GET /cdn/clients/me`: the account's CDN settings. */
  get(options?: RequestOptions): APIPromise<CdnClientSettings> {
    return this.transport.request(cdnRoutes.getClientSettings, {}, options);
  }

  /** `PUT /cdn/clients/me`: changes the account's CDN settings (`utilization_level`). */
  update(body: UpdateCdnClientSettingsBody, options?: RequestOptions): APIPromise<CdnClientSettings> {
    return this.transport.request(cdnRoutes.updateClientSettings, { body }, options);
  }
}

export class CdnFeaturesResource extends APIResource {
  /** `GET /cdn/clients/me/features`: the account's paid and free CDN features. */
  get(options?: RequestOptions): APIPromise<CdnFeatures> {
    return this.transport.request(cdnRoutes.getClientFeatures, {}, options);
  }
}

export class OriginGroups extends APIResource {
  /** `GET /cdn/origin_groups`: a page of the account's origin groups that match the filters; iterate it for every match. */
  list(query?: ListOriginGroupsQuery, options?: RequestOptions): PagePromise<OriginGroup, OriginGroupList> {
    return this.transport.list(cdnRoutes.listOriginGroups, { query }, options, originGroupsPaging);
  }

  /** `POST /cdn/origin_groups`: a new origin group of 1 to 20 sources. */
  create(body: CreateOriginGroupBody, options?: RequestOptions): APIPromise<OriginGroup> {
    return this.transport.request(cdnRoutes.createOriginGroup, { body }, options);
  }

  /** `GET /cdn/origin_groups/{origin_group_id}`: one origin group, with whether any CDN resource uses it. */
  get(originGroupId: number, options?: RequestOptions): APIPromise<OriginGroup> {
    return this.transport.request(cdnRoutes.getOriginGroup, { params: { origin_group_id: originGroupId } }, options);
  }

  /** `PATCH /cdn/origin_groups/{origin_group_id}`: changes the fields given; `sources` replaces the whole list. */
  update(originGroupId: number, body: UpdateOriginGroupBody, options?: RequestOptions): APIPromise<OriginGroup> {
    return this.transport.request(cdnRoutes.updateOriginGroup, { params: { origin_group_id: originGroupId }, body }, options);
  }

  /** `PUT /cdn/origin_groups/{origin_group_id}`: replaces every writable field (`name`, `sources`, `use_next` required). */
  replace(originGroupId: number, body: ReplaceOriginGroupBody, options?: RequestOptions): APIPromise<OriginGroup> {
    return this.transport.request(cdnRoutes.replaceOriginGroup, { params: { origin_group_id: originGroupId }, body }, options);
  }

  /** `DELETE /cdn/origin_groups/{origin_group_id}`: deletes a group no resource uses (a used one is a ConflictError). */
  delete(originGroupId: number, options?: RequestOptions): APIPromise<void> {
    return this.transport.request(cdnRoutes.deleteOriginGroup, { params: { origin_group_id: originGroupId } }, options);
  }
}

/** The CDN area. */
export class Cdn {
  readonly resources: CdnResources;
  readonly logsUploader: LogsUploader;
  readonly clientSettings: CdnClientSettingsResource;
  readonly features: CdnFeaturesResource;
  readonly originGroups: OriginGroups;
  readonly shieldingPops: ShieldingPops;

  constructor(transport: Transport) {
    this.resources = new CdnResources(transport);
    this.logsUploader = new LogsUploader(transport);
    this.clientSettings = new CdnClientSettingsResource(transport);
    this.features = new CdnFeaturesResource(transport);
    this.originGroups = new OriginGroups(transport);
    this.shieldingPops = new ShieldingPops(transport);
  }
}

/** A client of the CDN area alone, for bundles that need nothing else. */
export function createCdnClient(options?: ClientOptions): Cdn {
  return new Cdn(new Transport(options));
}
