/**
 * The API's timestamp formats (src/format.ts), built from a date's UTC fields: the same text as
 * `toISOString` gives, cut and joined as each area writes it, for any date a database can hold.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cdnTime, iamTime, isoTime } from "../src/format.js";

/** Each format as it was written with `toISOString`. */
const fromIso = {
  iso: (date: Date) => date.toISOString(),
  cdn: (date: Date) => `${date.toISOString().slice(0, 19).replace("T", " ")}.${date.toISOString().slice(20, 23)}000+00:00`,
  iam: (date: Date) => `${date.toISOString().slice(0, 19).replace("T", " ")}+00:00`,
};

describe("timestamp formats", () => {
  it("write every date of years 1000 to 9999 as toISOString does, each in its area's form", () => {
    const edges = [
      "1970-01-01T00:00:00.000Z",
      "1969-12-31T23:59:59.999Z",
      "2000-02-29T12:34:56.007Z",
      "2026-11-20T09:05:03.070Z",
      "1000-01-01T00:00:00.000Z",
      "9999-12-31T23:59:59.999Z",
    ].map((text) => new Date(text));
    const check = (date: Date) => {
      expect(isoTime(date)).toBe(fromIso.iso(date));
      expect(cdnTime(date)).toBe(fromIso.cdn(date));
      expect(iamTime(date)).toBe(fromIso.iam(date));
    };
    edges.forEach(check);
    expect(cdnTime(edges[2]!)).toBe("2000-02-29 12:34:56.007000+00:00");
    expect(iamTime(edges[3]!)).toBe("2026-11-20 09:05:03+00:00");
    fc.assert(
      fc.property(fc.date({ min: new Date("1000-01-01T00:00:00.000Z"), max: new Date("9999-12-31T23:59:59.999Z"), noInvalidDate: true }), check),
      { numRuns: 20_000 },
    );
  });

  it("write a year outside 1000–9999 through toISOString, and refuse an invalid date as it does", () => {
    const far = new Date("+010000-01-01T00:00:00.000Z");
    expect(isoTime(far)).toBe("+010000-01-01T00:00:00.000Z");
    expect(iamTime(far)).toBe("+010000-01-01 00:00:00+00:00");
    expect(cdnTime(new Date("0999-06-01T01:02:03.004Z"))).toBe("0999-06-01 01:02:03.004000+00:00");
    expect(() => isoTime(new Date(Number.NaN))).toThrow(RangeError);
    expect(() => cdnTime(new Date(Number.NaN))).toThrow(RangeError);
  });
});
