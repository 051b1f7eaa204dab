/**
 * What the resources of the Cloud area share: their routes' access, and the region of the demo data's
 * GPU images, which the cases of the images and of the cost report use.
 */
import type { RouteMetadata } from "../roles.js";

export const read: RouteMetadata = { access: "read" };
export const write: RouteMetadata = { access: "write" };

/** The region the demo data's GPU images are in: the cases' images are there, and their cost report is of it. */
export const DEMO_REGION_ID = 1;
