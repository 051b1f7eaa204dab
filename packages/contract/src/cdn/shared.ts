/**
 * What several resources of the CDN area share: the page size of its lists, an origin's format (a resource's
 * `origin`, an origin group's sources), the routes' access metadata and the cases' origin group.
 */
import { z } from "zod";
import { isHostname, isIPv4, isIPv6, PAGE_MAX } from "../common.js";
import type { CaseWorld } from "../route-case.js";
export { read, write, purge } from "../roles.js";

/** The most items a page of any CDN list holds. */
export const CDN_PAGE_MAX = PAGE_MAX;

/** Is `value` an origin: a host name or IP address, with an optional port (an IPv6 address with a port in brackets)? */
export function isOriginSource(value: string): boolean {
  const bracketed = /^\[([0-9A-Fa-f:.]+)\](?::(\d{1,5}))?$/.exec(value);
  if (bracketed) return isIPv6(bracketed[1]!) && validPort(bracketed[2]);
  if (isIPv6(value)) return true;
  const [host, port, extra] = value.split(":");
  if (extra !== undefined || host === undefined) return false;
  return (isIPv4(host) || isHostname(host)) && validPort(port);
}

function validPort(port: string | undefined): boolean {
  return port === undefined || (/^\d{1,5}$/.test(port) && Number(port) >= 1 && Number(port) <= 65535);
}

export const originSource = z
  .string()
  .max(261)
  .refine(isOriginSource, "Must be a host name or IP address with an optional port, such as origin.example.com:8080.")
  .describe("A host name or IP address with an optional port (1 to 65535): `origin.example.com`, `203.0.113.7:8080`, `[2001:db8::1]:8443`.");

/** Purging or prefetching a resource's cache: what the Purge and Prefetch roles may call, beside Administrators and Engineers. */

/** The cases' origin group: the account's first. */
export const originGroupOf = (w: CaseWorld) => w.first("cdn.listOriginGroups");
