/**
 * What the resources of the Security area share: their routes' access, the paging of their listings,
 * and a template's field, which a profile's fields extend with their values.
 */
import { z } from "zod";
import { integer, integerParam, stringEnum } from "../common.js";
export { read, write } from "../roles.js";

/** The types of a template field's value, in the platform's words. */
export const SECURITY_FIELD_TYPES = ["int", "bool", "str"] as const;

const jsonSchema = z.record(z.unknown()).describe("A JSON Schema that the field's value must satisfy.");

/** A field of a profile template; a profile's fields are these with the profile's value. */
export const templateField = {
  id: integer(),
  name: z.string(),
  description: z.string(),
  field_type: stringEnum(SECURITY_FIELD_TYPES).describe("The type of the value's items, as the platform names it: int, bool or str."),
  required: z.boolean().describe("Whether every profile must give this field."),
  default: z.string().nullable().describe("The default value as text; null when the field has none."),
  validation_schema: jsonSchema,
};

/** The paging of the area's listings, which answer arrays as on the platform. */
export const pageQuery = {
  limit: integerParam({ min: 1, max: 1000, description: "At most this many, 1 to 1000. Default 100." }).default(100),
  offset: integerParam({ min: 0, description: "Number of leading entries skipped. Default 0." }).default(0),
};

