/**
 * What the resources of the Cloud area share: their routes' access, and the region of the demo data's
 * GPU images, which the cases of the images and of the cost report use.
 */
import { z } from "zod";
export { read, write } from "../roles.js";

/** The region the demo data's GPU images are in: the cases' images are there, and their cost report is of it. */
export const DEMO_REGION_ID = 1;

/**
 * The instant an ISO 8601 date and time of a Cloud query or body stands for (zod's `datetime` with `offset`
 * and `local`): without a zone it is UTC, and a zone of hours alone (`+05`) or without a colon (`+0530`) is
 * read as `+05:00` or `+05:30`. Undefined for a text that is no such time.
 */
export function instantOf(text: string): Date | undefined {
  const zone = /(?:[zZ]|[+-]\d\d(?::?\d\d)?)$/.exec(text)?.[0];
  const normalized =
    zone === undefined
      ? `${text}Z`
      : /^[+-]\d\d$/.test(zone)
        ? `${text}:00`
        : /^[+-]\d{4}$/.test(zone)
          ? `${text.slice(0, -2)}:${text.slice(-2)}`
          : text;
  const instant = new Date(normalized);
  return Number.isNaN(instant.getTime()) ? undefined : instant;
}

/**
 * An ISO 8601 date and time a Cloud query or body gives (with a zone, or without one for UTC), held to the
 * years 1 to 9999 that every database and runtime keeps.
 */
export function isoInstant(description: string) {
  return z
    .string()
    .datetime({ offset: true, local: true, message: "Must be an ISO 8601 date and time, such as 2026-11-01T00:00:00Z (without a zone: UTC)." })
    .refine((text) => {
      const year = instantOf(text)?.getUTCFullYear();
      // A text that is no time at all is told so by the check above.
      return year === undefined || (year >= 1 && year <= 9999);
    }, "Must be a time between the years 1 and 9999 (UTC).")
    .describe(description);
}
