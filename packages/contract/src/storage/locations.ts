/**
 * Object storage locations: the regions storages are made in, each for one kind of storage (S3-compatible
 * object storage or SFTP), fixed by the platform and kept here as constants; their schema and route.
 */
import { z } from "zod";
import { errorResponses, integerParam, pageOf, stringEnum } from "../common.js";
import { route } from "../route.js";
import { read } from "./shared.js";
import { type STORAGE_LOCATIONS } from "./storages.js";

/** The kinds of storage a location serves, in the current API's words. */
export const LOCATION_TYPES = ["s3_compatible", "sftp"] as const;
export type LocationType = (typeof LOCATION_TYPES)[number];

/** Every location: its code (`STORAGE_LOCATIONS`), the city it is in and the kind of storage it serves. */
export const LOCATIONS = [
  { code: "s-ed1", title: "Luxembourg", type: "s3_compatible" },
  { code: "s-drc2", title: "Frankfurt", type: "s3_compatible" },
  { code: "s-sgc1", title: "Singapore", type: "s3_compatible" },
  { code: "s-nhn2", title: "Tokyo", type: "s3_compatible" },
  { code: "s-darz", title: "Dallas", type: "s3_compatible" },
  { code: "s-ws1", title: "Santa Clara", type: "s3_compatible" },
  { code: "s-ams1", title: "Amsterdam", type: "s3_compatible" },
  { code: "ams", title: "Amsterdam", type: "sftp" },
  { code: "sin", title: "Singapore", type: "sftp" },
  { code: "fra", title: "Frankfurt", type: "sftp" },
  { code: "mia", title: "Miami", type: "sftp" },
] as const satisfies readonly { code: (typeof STORAGE_LOCATIONS)[number]; title: string; type: LocationType }[];

/** The codes of the locations of one kind, in the catalogue's order, typed as those codes. */
type CodesOf<Type extends LocationType> = Extract<(typeof LOCATIONS)[number], { type: Type }>["code"];
function codesOf<Type extends LocationType>(type: Type): readonly [CodesOf<Type>, ...CodesOf<Type>[]] {
  return LOCATIONS.filter((entry) => entry.type === type).map((entry) => entry.code) as unknown as readonly [CodesOf<Type>, ...CodesOf<Type>[]];
}

/** The location codes of S3-compatible object storage. */
export const OBJECT_STORAGE_LOCATIONS = codesOf("s3_compatible");
/** The location codes of SFTP storage. */
export const SFTP_STORAGE_LOCATIONS = codesOf("sftp");

/** The host clients reach a storage of a location at. */
export function locationAddress(code: string): string {
  return `${code}.storage.cloudplane.example`;
}

/** The orders the location listing takes: a field, ascending, or with `-` before it, descending. */
export const LOCATION_ORDERS = ["name", "-name", "title", "-title", "type", "-type"] as const;

const locationSchema = z
  .object({
    name: z.string().describe("The location's code, which `location_name` names when a storage is made (`s-ed1`)."),
    technical_name: z.string().describe("The location's code again, as the platform names it internally."),
    title: z.string().describe("The city the location is in, in English."),
    address: z.string().describe("The host name clients of the location's storages connect to."),
    type: stringEnum(LOCATION_TYPES).describe("`s3_compatible`: object storages are made here; `sftp`: SFTP storages are."),
  })
  .strict()
  .describe("A location storages are made in, for one kind of storage.");
export interface LocationSchema extends LocationSchemaType {}
type LocationSchemaType = typeof locationSchema;
export const location: LocationSchema = locationSchema;

export type Location = z.infer<typeof location>;

const locationListSchema = pageOf(location, "locations");
export interface LocationListSchema extends LocationListSchemaType {}
type LocationListSchemaType = typeof locationListSchema;
export const locationList: LocationListSchema = locationListSchema;

export type LocationList = z.infer<typeof locationList>;

/** A location as the API shows it. */
export function toLocation(entry: (typeof LOCATIONS)[number]): Location {
  return { name: entry.code, technical_name: entry.code, title: entry.title, address: locationAddress(entry.code), type: entry.type };
}

export const storageLocationsRoutes = {
  listLocations: route(
    {
      method: "GET",
      path: "/storage/v4/locations",
      query: z.object({
        limit: integerParam({ min: 1, max: 1000, description: "Page size, 1 to 1000. Default 100." }).default(100),
        offset: integerParam({ min: 0, description: "Number of locations skipped. Default 0." }).default(0),
        order_by: stringEnum(LOCATION_ORDERS)
          .default("name")
          .describe("Sort by `name`, `title` or `type`, ascending; with `-` before it (`-title`), descending. Default name; ties by name."),
      }),
      responses: { 200: locationList, ...errorResponses() },
      summary: "List locations",
      description:
        "The locations storages are made in, the same for every account: each serves one kind of storage, `s3_compatible` " +
        "(object storages) or `sftp` (SFTP storages), and its `name` is the `location_name` a new storage of that kind takes. " +
        "A page of `limit` (default 100) from `offset`, sorted by `order_by`; `count` is the number of all locations.",
      metadata: read,
    },
    {
      example: {
        query: { limit: 2, offset: 0, order_by: "name" },
        response: {
          count: LOCATIONS.length,
          results: [toLocation(LOCATIONS[7]), toLocation(LOCATIONS[9])],
        },
      },
      case: { path: () => "/storage/v4/locations", ownsObjects: false },
    },
  ),
} as const;
