/**
 * CDN: resources and their origin shielding, logs uploader targets, the account's CDN settings and
 * features, and origin groups (`client.cdn.*`).
 */
import type {
  CdnClientSettings,
  CdnFeatures,
  CdnResource,
  Contract,
  CreateLogsUploaderTargetBody,
  LogsUploaderTarget,
  OriginGroup,
  ReplaceCdnResourceBody,
  ShieldingSetting,
  UpdateCdnResourceBody,
} from "@cloudplane/contract";
import type { APIPromise } from "../core/api-promise.js";
import type { ClientOptions, RequestOptions } from "../core/options.js";
import { APIResource } from "../core/resource.js";
import type { Body } from "../core/routes.js";
import { cdnRoutes } from "../core/routes.generated.js";
import { Transport } from "../core/transport.js";

/** The body of `client.cdn.resources.updateShielding`: `{ shielding_pop }`, null to switch shielding off. */
export type UpdateShieldingBody = Body<Contract["cdn"]["updateResourceShielding"]>;
/** The body of `client.cdn.clientSettings.update`. */
export type UpdateCdnClientSettingsBody = Body<Contract["cdn"]["updateClientSettings"]>;

export class CdnResources extends APIResource {
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

  /** `PUT /cdn/resources/{resource_id}/shielding_v2`: routes the resource through a shielding POP, or none (null). */
  updateShielding(resourceId: number, body: UpdateShieldingBody, options?: RequestOptions): APIPromise<ShieldingSetting> {
    return this.transport.request(cdnRoutes.updateResourceShielding, { params: { resource_id: resourceId }, body }, options);
  }
}

export class LogsUploaderTargets extends APIResource {
  /** `POST /cdn/logs_uploader/targets`: a new target (S3-style storage); its secret key is never returned. */
  create(body: CreateLogsUploaderTargetBody, options?: RequestOptions): APIPromise<LogsUploaderTarget> {
    return this.transport.request(cdnRoutes.createLogsUploaderTarget, { body }, options);
  }
}

export class LogsUploader {
  readonly targets: LogsUploaderTargets;

  constructor(transport: Transport) {
    this.targets = new LogsUploaderTargets(transport);
  }
}

export class CdnClientSettingsResource extends APIResource {
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
  /** `GET /cdn/origin_groups/{origin_group_id}`: one origin group, with whether any CDN resource uses it. */
  get(originGroupId: number, options?: RequestOptions): APIPromise<OriginGroup> {
    return this.transport.request(cdnRoutes.getOriginGroup, { params: { origin_group_id: originGroupId } }, options);
  }
}

/** The CDN area. */
export class Cdn {
  readonly resources: CdnResources;
  readonly logsUploader: LogsUploader;
  readonly clientSettings: CdnClientSettingsResource;
  readonly features: CdnFeaturesResource;
  readonly originGroups: OriginGroups;

  constructor(transport: Transport) {
    this.resources = new CdnResources(transport);
    this.logsUploader = new LogsUploader(transport);
    this.clientSettings = new CdnClientSettingsResource(transport);
    this.features = new CdnFeaturesResource(transport);
    this.originGroups = new OriginGroups(transport);
  }
}

/** A client of the CDN area alone, for bundles that need nothing else. */
export function createCdnClient(options?: ClientOptions): Cdn {
  return new Cdn(new Transport(options));
}
