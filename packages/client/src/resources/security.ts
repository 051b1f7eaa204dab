/**
 * Security: DDoS protection profiles of IP addresses (`client.security.profiles`) and the templates
 * they are built on (`client.security.profileTemplates`).
 */
import type {
  CreateSecurityProfileBody,
  ListProfileTemplatesQuery,
  ListSecurityProfilesQuery,
  SecurityProfile,
  SecurityProfileTemplate,
  UpdateSecurityProfileBody,
} from "@cloudplane/contract";
import type { APIPromise } from "../core/api-promise.js";
import type { ClientOptions, RequestOptions } from "../core/options.js";
import type { Paging, PagePromise } from "../core/pagination.js";
import { APIResource } from "../core/resource.js";
import { securityRoutes } from "../core/routes.generated.js";
import { Transport } from "../core/transport.js";

/** The page size the security lists use when the query does not set `limit`. */
const DEFAULT_LIMIT = 100;

/**
 * The security lists answer a bare array paged by `limit` and `offset`, with no total: a full page
 * may have another after it.
 */
function arrayPaging<Item, Query extends { limit?: number | undefined; offset?: number | undefined }>(): Paging<Item, Item[], Query> {
  return {
    items: (body) => body,
    total: () => undefined,
    next(query, pageItems) {
      const full = pageItems.length >= (query.limit ?? DEFAULT_LIMIT);
      return pageItems.length > 0 && full ? { ...query, offset: (query.offset ?? 0) + pageItems.length } : undefined;
    },
  };
}

const profilesPaging = /* @__PURE__ */ arrayPaging<SecurityProfile, ListSecurityProfilesQuery>();
const templatesPaging = /* @__PURE__ */ arrayPaging<SecurityProfileTemplate, ListProfileTemplatesQuery>();

export class SecurityProfiles extends APIResource {
  /**
   * `GET /security/iaas/v2/profiles`: the account's profiles by id after the filters (deleted ones only with
   * `include_deleted`), `limit` (default 100) at a time; `for await` goes through every page.
   */
  list(query?: ListSecurityProfilesQuery, options?: RequestOptions): PagePromise<SecurityProfile, SecurityProfile[]> {
    return this.transport.list(securityRoutes.listProfiles, { query }, options, profilesPaging);
  }

  /** `POST /security/iaas/v2/profiles`: creates a profile and turns its protection on; values are checked against the template. */
  create(body: CreateSecurityProfileBody, options?: RequestOptions): APIPromise<SecurityProfile> {
    return this.transport.request(securityRoutes.createProfile, { body }, options);
  }

  /** `GET /security/iaas/v2/profiles/{id}`: one live profile of the account. */
  get(profileId: number, options?: RequestOptions): APIPromise<SecurityProfile> {
    return this.transport.request(securityRoutes.getProfile, { params: { id: profileId } }, options);
  }

  /**
   * `PUT /security/iaas/v2/profiles/{id}`: replaces the profile's template, address, field values and
   * site; values are checked against the template's fields.
   */
  update(profileId: number, body: UpdateSecurityProfileBody, options?: RequestOptions): APIPromise<SecurityProfile> {
    return this.transport.request(securityRoutes.updateProfile, { params: { id: profileId }, body }, options);
  }

  /** `DELETE /security/iaas/v2/profiles/{id}`: turns the protection off and deletes the profile. */
  delete(profileId: number, options?: RequestOptions): APIPromise<void> {
    return this.transport.request(securityRoutes.deleteProfile, { params: { id: profileId } }, options);
  }
}

export class SecurityProfileTemplates extends APIResource {
  /** `GET /security/iaas/profile-templates`: the common templates and the account's own, by id; `for await` goes through every page. */
  list(query?: ListProfileTemplatesQuery, options?: RequestOptions): PagePromise<SecurityProfileTemplate, SecurityProfileTemplate[]> {
    return this.transport.list(securityRoutes.listProfileTemplates, { query }, options, templatesPaging);
  }
}

/** The Security area. */
export class Security {
  readonly profiles: SecurityProfiles;
  readonly profileTemplates: SecurityProfileTemplates;

  constructor(transport: Transport) {
    this.profiles = new SecurityProfiles(transport);
    this.profileTemplates = new SecurityProfileTemplates(transport);
  }
}

/** A client of the Security area alone, for bundles that need nothing else. */
export function createSecurityClient(options?: ClientOptions): Security {
  return new Security(new Transport(options));
}
