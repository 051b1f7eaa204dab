/**
 * Publishing a site on the CDN: the delivery host name gets a CDN resource pulling from the site's
 * origin, made once; publishing again finds it. What a product's deploy step would do.
 */
import { type CdnResource, type CloudplaneClient } from "@cloudplane/client";
import { asPlatformProblem } from "./problems.js";

export interface Site {
  /** The delivery host name, e.g. `static.shop.example`. */
  hostname: string;
  /** Where the CDN pulls from, host and port: `origin.shop.example:8080`. */
  origin: string;
}

export interface Publication {
  resource: CdnResource;
  /** false when the site was published before and its resource was found. */
  created: boolean;
}

/** Publishes `site`: finds its CDN resource by host name, or makes one (and its origin group). */
export async function publishSite(client: CloudplaneClient, site: Site): Promise<Publication> {
  try {
    const found = await client.cdn.resources.list({ cname: site.hostname, limit: 1 });
    const [existing] = found.items;
    if (existing) return { resource: existing, created: false };
    const resource = await client.cdn.resources.create({ cname: site.hostname, origin: site.origin, description: `Site ${site.hostname}` });
    return { resource, created: true };
  } catch (error) {
    throw asPlatformProblem(error, `publishing ${site.hostname}`);
  }
}

/** Takes a published site off the CDN: deactivates its resource, then deletes it. false if it was not published. */
export async function unpublishSite(client: CloudplaneClient, hostname: string): Promise<boolean> {
  try {
    const [resource] = (await client.cdn.resources.list({ cname: hostname, limit: 1 })).items;
    if (!resource) return false;
    // The platform deletes only a resource that no longer serves traffic.
    if (resource.active) await client.cdn.resources.update(resource.id, { active: false });
    await client.cdn.resources.delete(resource.id);
    return true;
  } catch (error) {
    throw asPlatformProblem(error, `unpublishing ${hostname}`);
  }
}
