/** The areas of the API as the docs title them: the platform's names for them, in the contract's order. */
import { AREAS, type Area } from "@cloudplane/contract";

/** The platform's names of the areas, shown as the tags' titles. */
export const AREA_TITLES: Record<Area, string> = {
  iam: "IAM",
  cdn: "CDN",
  edge: "Edge apps",
  streaming: "Video streaming",
  cloud: "Cloud",
  security: "Security",
  storage: "Object storage",
};

/** Every area, in the contract's order. */
export const AREA_NAMES = Object.keys(AREAS) as Area[];
