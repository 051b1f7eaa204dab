/**
 * Security: DDoS protection profiles of IP addresses (`client.security.profiles`).
 */
import type { SecurityProfile, UpdateSecurityProfileBody } from "@cloudplane/contract";
import type { APIPromise } from "../core/api-promise.js";
import type { ClientOptions, RequestOptions } from "../core/options.js";
import { APIResource } from "../core/resource.js";
import { securityRoutes } from "../core/routes.generated.js";
import { Transport } from "../core/transport.js";

export class SecurityProfiles extends APIResource {
  /**
   * `PUT /security/iaas/v2/profiles/{id}`: replaces the profile's template, address, field values and
   * site (every field is required); values are checked against the template's fields.
   */
  update(profileId: number, body: UpdateSecurityProfileBody, options?: RequestOptions): APIPromise<SecurityProfile> {
    return this.transport.request(securityRoutes.updateProfile, { params: { id: profileId }, body }, options);
  }
}

/** The Security area. */
export class Security {
  readonly profiles: SecurityProfiles;

  constructor(transport: Transport) {
    this.profiles = new SecurityProfiles(transport);
  }
}

/** A client of the Security area alone, for bundles that need nothing else. */
export function createSecurityClient(options?: ClientOptions): Security {
  return new Security(new Transport(options));
}
