/**
 * The front's reading of a request's URL (`requestUrl`): the path and query read off the serialized URL are
 * those `new URL` gives, for any URL a runtime hands over, and for the targets Node's bridge passes on as sent.
 * And its test of text the database can store (`storableText`, `madeStorable`), against their definition
 * as a regular expression.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { madeStorable, requestUrl, storableText } from "../src/front.js";

const parts = (url: { href: string; pathname: string; search: string }) => ({ href: url.href, pathname: url.pathname, search: url.search });
const text = fc.string({ unit: fc.constantFrom(..."aZ09-._~!$&'()*+,;=:@/?#[]% \"<>`{}|\\^é€\u0000\t\ud83d\ude00".split("")), maxLength: 24 });

describe("requestUrl", () => {
  it("gives the path and query `new URL` gives, for any serialized URL", () => {
    fc.assert(
      fc.property(fc.constantFrom("http://api.example.com", "https://h:8443", "http://127.0.0.1:3000", "http://[::1]:80"), text, text, (origin, path, rest) => {
        const href = new URL(`${origin}/${path}${rest}`).href;
        expect(parts(requestUrl(href))).toEqual(parts(new URL(href)));
      }),
      { numRuns: 3000 },
    );
    for (const href of ["http://h/", "http://h/a?", "http://h/a?b", "http://h/a/b/?c=1&c=2", "http://h/a#f", "http://h/a?b#f", "http://h/?x=/y"])
      expect(parts(requestUrl(new URL(href).href)), href).toEqual(parts(new URL(href)));
  });

  it("reads a target Node's bridge passes on as sent as `new URL` does (a ' in the query stays as sent)", () => {
    // @hono/node-server keeps `http://host` + the target when the target matches this and has no dot segment.
    const asSent = /^\/[!#$&-;=?-[\]_a-z~]*$/;
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(..."/aZ09-._~!$&'()*+,;=:@?#[]".split("")), maxLength: 30 }), (target) => {
        fc.pre(asSent.test(`/${target}`) && !/\/\.\.?(?:[/?#]|$)/.test(`/${target}`));
        const href = `http://127.0.0.1:3000/${target}`;
        const parsed = new URL(href);
        const read = requestUrl(href);
        expect(read.pathname).toBe(parsed.pathname);
        expect(read.search.replaceAll("'", "%27")).toBe(parsed.search);
        expect([...new URLSearchParams(read.search)]).toEqual([...parsed.searchParams]);
      }),
      { numRuns: 3000 },
    );
  });
});

describe("storable text", () => {
  // The definition: a NUL, or a high surrogate with no low one after it, or a low one with no high one before it.
  // eslint-disable-next-line no-control-regex -- the NUL character is what this looks for
  const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
  const anyText = fc.string({ unit: fc.constantFrom(..."a\u0000é€\ud83d\ude00\ud800\udc00\udbff\udfff".split("")), maxLength: 40 });

  it("finds text the database cannot store where the definition does, and replaces each such character with U+FFFD", () => {
    fc.assert(
      fc.property(anyText, (value) => {
        expect(storableText(value)).toBe(!new RegExp(UNSTORABLE.source).test(value));
        const made = madeStorable(value);
        expect(made).toBe(value.replace(UNSTORABLE, "\ufffd"));
        expect(storableText(made)).toBe(true);
      }),
      { numRuns: 5000 },
    );
    expect(madeStorable("\u0000a\u0000\u0000")).toBe("\ufffda\ufffd\ufffd");
    expect(madeStorable("ok")).toBe("ok");
  });
});
