/**
 * The CDN logs uploader (`client.cdn.logsUploader.*`): targets, policies and configs, with their paged
 * listings and checks.
 */
import type {
  CreateLogsUploaderConfigBody,
  CreateLogsUploaderTargetBody,
  ListLogsUploaderConfigsQuery,
  ListLogsUploaderPoliciesQuery,
  ListLogsUploaderTargetsQuery,
  LogsUploaderConfig,
  LogsUploaderConfigList,
  LogsUploaderPolicy,
  LogsUploaderPolicyBody,
  LogsUploaderPolicyList,
  LogsUploaderTarget,
  LogsUploaderTargetList,
  LogsUploaderValidation,
  ReplaceLogsUploaderTargetBody,
  UpdateLogsUploaderConfigBody,
  UpdateLogsUploaderTargetBody,
} from "@cloudplane/contract";
import type { APIPromise } from "../core/api-promise.js";
import type { RequestOptions } from "../core/options.js";
import { offsetPaging, type PagePromise } from "../core/pagination.js";
import { APIResource } from "../core/resource.js";
import { cdnRoutes } from "../core/routes.generated.js";
import type { Transport } from "../core/transport.js";

const targetsPaging = /* @__PURE__ */ offsetPaging<LogsUploaderTarget, LogsUploaderTargetList, ListLogsUploaderTargetsQuery>((page) => page.results);
const policiesPaging = /* @__PURE__ */ offsetPaging<LogsUploaderPolicy, LogsUploaderPolicyList, ListLogsUploaderPoliciesQuery>((page) => page.results);
const configsPaging = /* @__PURE__ */ offsetPaging<LogsUploaderConfig, LogsUploaderConfigList, ListLogsUploaderConfigsQuery>((page) => page.results);

export class LogsUploaderTargets extends APIResource {
  /**
   * `GET /cdn/logs_uploader/targets`: the account's targets, a page of `limit` (default 100) from `offset`;
   * `for await` over the result goes through every target of every page.
   */
  list(query?: ListLogsUploaderTargetsQuery, options?: RequestOptions): PagePromise<LogsUploaderTarget, LogsUploaderTargetList> {
    return this.transport.list(cdnRoutes.listLogsUploaderTargets, { query }, options, targetsPaging);
  }

  /** `POST /cdn/logs_uploader/targets`: a new target (S3-style storage); its secret key is never returned. */
  create(body: CreateLogsUploaderTargetBody, options?: RequestOptions): APIPromise<LogsUploaderTarget> {
    return this.transport.request(cdnRoutes.createLogsUploaderTarget, { body }, options);
  }

  /** `GET /cdn/logs_uploader/targets/{id}`: one target, with the configs that use it. */
  get(targetId: number, options?: RequestOptions): APIPromise<LogsUploaderTarget> {
    return this.transport.request(cdnRoutes.getLogsUploaderTarget, { params: { id: targetId } }, options);
  }

  /** `PUT /cdn/logs_uploader/targets/{id}`: replaces the storage and config whole (the secret included). */
  replace(targetId: number, body: ReplaceLogsUploaderTargetBody, options?: RequestOptions): APIPromise<LogsUploaderTarget> {
    return this.transport.request(cdnRoutes.replaceLogsUploaderTarget, { params: { id: targetId }, body }, options);
  }

  /** `PATCH /cdn/logs_uploader/targets/{id}`: changes the fields given; the secret is kept unless given. */
  update(targetId: number, body: UpdateLogsUploaderTargetBody, options?: RequestOptions): APIPromise<LogsUploaderTarget> {
    return this.transport.request(cdnRoutes.updateLogsUploaderTarget, { params: { id: targetId }, body }, options);
  }

  /** `DELETE /cdn/logs_uploader/targets/{id}`: ConflictError while a config uses it; resolves with no value. */
  delete(targetId: number, options?: RequestOptions): APIPromise<void> {
    return this.transport.request(cdnRoutes.deleteLogsUploaderTarget, { params: { id: targetId } }, options);
  }

  /** `POST /cdn/logs_uploader/targets/{id}/validate`: checks the target (without contacting it) and resolves to the result. */
  validate(targetId: number, options?: RequestOptions): APIPromise<LogsUploaderValidation> {
    return this.transport.request(cdnRoutes.validateLogsUploaderTarget, { params: { id: targetId }, body: undefined }, options);
  }
}

export class LogsUploaderPolicies extends APIResource {
  /** `GET /cdn/logs_uploader/policies`: the account's policies, paged like the targets. */
  list(query?: ListLogsUploaderPoliciesQuery, options?: RequestOptions): PagePromise<LogsUploaderPolicy, LogsUploaderPolicyList> {
    return this.transport.list(cdnRoutes.listLogsUploaderPolicies, { query }, options, policiesPaging);
  }

  /** `POST /cdn/logs_uploader/policies`: a new policy; every field left out takes its default. */
  create(body: LogsUploaderPolicyBody, options?: RequestOptions): APIPromise<LogsUploaderPolicy> {
    return this.transport.request(cdnRoutes.createLogsUploaderPolicy, { body }, options);
  }

  /** `GET /cdn/logs_uploader/policies/fields`: the field names a policy's `fields` may hold. */
  fields(options?: RequestOptions): APIPromise<string[]> {
    return this.transport.request(cdnRoutes.getLogsUploaderPolicyFields, {}, options);
  }

  /** `GET /cdn/logs_uploader/policies/{id}`: one policy, with the configs that use it. */
  get(policyId: number, options?: RequestOptions): APIPromise<LogsUploaderPolicy> {
    return this.transport.request(cdnRoutes.getLogsUploaderPolicy, { params: { id: policyId } }, options);
  }

  /** `PUT /cdn/logs_uploader/policies/{id}`: replaces every field; those left out go back to their defaults. */
  replace(policyId: number, body: LogsUploaderPolicyBody, options?: RequestOptions): APIPromise<LogsUploaderPolicy> {
    return this.transport.request(cdnRoutes.replaceLogsUploaderPolicy, { params: { id: policyId }, body }, options);
  }

  /** `PATCH /cdn/logs_uploader/policies/{id}`: changes the fields given. */
  update(policyId: number, body: LogsUploaderPolicyBody, options?: RequestOptions): APIPromise<LogsUploaderPolicy> {
    return this.transport.request(cdnRoutes.updateLogsUploaderPolicy, { params: { id: policyId }, body }, options);
  }

  /** `DELETE /cdn/logs_uploader/policies/{id}`: ConflictError while a config uses it; resolves with no value. */
  delete(policyId: number, options?: RequestOptions): APIPromise<void> {
    return this.transport.request(cdnRoutes.deleteLogsUploaderPolicy, { params: { id: policyId } }, options);
  }
}

export class LogsUploaderConfigs extends APIResource {
  /** `GET /cdn/logs_uploader/configs`: the account's configs, paged like the targets. */
  list(query?: ListLogsUploaderConfigsQuery, options?: RequestOptions): PagePromise<LogsUploaderConfig, LogsUploaderConfigList> {
    return this.transport.list(cdnRoutes.listLogsUploaderConfigs, { query }, options, configsPaging);
  }

  /** `POST /cdn/logs_uploader/configs`: a policy and a target applied to CDN resources. */
  create(body: CreateLogsUploaderConfigBody, options?: RequestOptions): APIPromise<LogsUploaderConfig> {
    return this.transport.request(cdnRoutes.createLogsUploaderConfig, { body }, options);
  }

  /** `GET /cdn/logs_uploader/configs/{id}`: one config. */
  get(configId: number, options?: RequestOptions): APIPromise<LogsUploaderConfig> {
    return this.transport.request(cdnRoutes.getLogsUploaderConfig, { params: { id: configId } }, options);
  }

  /** `PUT /cdn/logs_uploader/configs/{id}`: replaces every field; `name`, `policy` and `target` are required. */
  replace(configId: number, body: CreateLogsUploaderConfigBody, options?: RequestOptions): APIPromise<LogsUploaderConfig> {
    return this.transport.request(cdnRoutes.replaceLogsUploaderConfig, { params: { id: configId }, body }, options);
  }

  /** `PATCH /cdn/logs_uploader/configs/{id}`: changes the fields given. */
  update(configId: number, body: UpdateLogsUploaderConfigBody, options?: RequestOptions): APIPromise<LogsUploaderConfig> {
    return this.transport.request(cdnRoutes.updateLogsUploaderConfig, { params: { id: configId }, body }, options);
  }

  /** `DELETE /cdn/logs_uploader/configs/{id}`: resolves with no value. */
  delete(configId: number, options?: RequestOptions): APIPromise<void> {
    return this.transport.request(cdnRoutes.deleteLogsUploaderConfig, { params: { id: configId } }, options);
  }

  /** `POST /cdn/logs_uploader/configs/{id}/validate`: checks the config (without contacting the storage) and resolves to the result. */
  validate(configId: number, options?: RequestOptions): APIPromise<LogsUploaderValidation> {
    return this.transport.request(cdnRoutes.validateLogsUploaderConfig, { params: { id: configId }, body: undefined }, options);
  }
}

export class LogsUploader {
  readonly targets: LogsUploaderTargets;
  readonly policies: LogsUploaderPolicies;
  readonly configs: LogsUploaderConfigs;

  constructor(transport: Transport) {
    this.targets = new LogsUploaderTargets(transport);
    this.policies = new LogsUploaderPolicies(transport);
    this.configs = new LogsUploaderConfigs(transport);
  }
}
