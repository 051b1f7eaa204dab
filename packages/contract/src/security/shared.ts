/**
 * What the resources of the Security area share: their routes' access, the paging of their listings,
 * and a template's field, which a profile's fields extend with their values.
 */
import { z } from "zod";
import { integer, integerParam } from "../common.js";
import type { RouteMetadata } from "../roles.js";

const jsonSchema = z.record(z.unknown()).describe("A JSON Schema that the field's value must satisfy.");

/** A field of a profile template; a profile's fields are these with the profile's value. */
export const templateField = {
  id: integer(),
  name: z.string(),
  description: z.string(),
  field_type: z.string().describe('The value\'s type, e.g. "int".'),
  required: z.boolean().describe("Whether every profile must give this field."),
  default: z.string().nullable().describe("The default value as text, or null."),
  validation_schema: jsonSchema,
};

/** The paging of the area's listings, which answer arrays as on the platform. */
export const pageQuery = {
  limit: integerParam({ min: 1, max: 1000, description: "At most this many, 1 to 1000. Default 100." }).default(100),
  offset: integerParam({ min: 0, description: "Number of leading entries skipped. Default 0." }).default(0),
};

export const read: RouteMetadata = { access: "read" };
export const write: RouteMetadata = { access: "write" };
