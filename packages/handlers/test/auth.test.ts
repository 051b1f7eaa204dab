/**
 * The auth matrix of the guide's Authentication and Roles over every route: missing, malformed, unknown, expired and
 * deleted credentials, each role, and another account's objects (404, or 403 where the path names
 * the account).
 */
import { demoToken } from "@cloudplane/db";
import { describe, expect, it } from "vitest";
import { authorization, engines, expectEnvelope, useApi, type CallOptions } from "./harness.js";
import { mayCall, routeCases, successStatus, type RouteCase } from "./routes.js";

const NUMERIC_ID = /\/\d+(?=\/|$|\?)/;
const UUID_ID = /\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?=\/|$|\?)/;
const UUID_TEXT = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const MISSING_UUID = "00000000-0000-4000-8000-000000000000";

describe.each(engines())("auth matrix on %s", (engine) => {
  const api = useApi(engine);

  // A route that uses its object up gets a fresh one made in the account whose objects the path names.
  const send = async (route: RouteCase, options: CallOptions & { other?: boolean } = {}) => {
    const account = options.other ? 2 : 1;
    const path = await route.pathOn(api, account);
    return api.call(route.route.method, path, { ...options, body: route.body?.(account) });
  };

  describe.each(routeCases)("$name", (route) => {
    it("answers 401 not_authenticated without an Authorization header", async () => {
      expectEnvelope(await send(route, { authorization: null }), 401, "not_authenticated");
    });

    it.each([
      ["a Bearer token", `Bearer ${demoToken(1, "role-1-active").plaintext}`],
      ["an unknown token", "apikey cp_demo_00000000000000000000000000000000"],
      ["the scheme alone", "apikey"],
      ["an expired token", authorization([1, "role-5-expired"])],
      ["a deleted token", authorization([1, "role-2-deleted"])],
    ])("answers 401 token_not_valid for %s", async (_what, header) => {
      expectEnvelope(await send(route, { authorization: header }), 401, "token_not_valid");
    });

    it("takes the scheme word in any case", async () => {
      const reply = await send(route, { authorization: `APIKey ${demoToken(1, "role-1-active").plaintext}` });
      expect(reply.status, reply.text).toBe(successStatus(route.route));
    });

    it.each(["role-1-active", "role-5-active", "role-2-active", "role-3009-active", "role-3022-active"] as const)("lets %s through as the role table says", async (token) => {
      const allowed = mayCall(route.route, Number(token.split("-")[1]));
      const reply = await send(route, { as: [1, token] });
      const expected = route.roleStatus?.[Number(token.split("-")[1])] ?? (allowed ? successStatus(route.route) : 403);
      if (expected < 300) expect(reply.status, reply.text).toBe(expected);
      else expectEnvelope(reply, expected, expected === 404 ? "not_found" : "permission_denied");
    });
  });

  describe.each(routeCases.filter((route) => route.otherPath !== null))("$name on another account's objects", (route) => {
    it("keeps them out of reach, answering as for an id that does not exist", async () => {
      const reply = await send(route, { other: true });
      // A path that names the account itself is 403 for another account.
      if (route.route.path.includes(":clientId")) expectEnvelope(reply, 403, "permission_denied");
      else {
        expectEnvelope(reply, 404, "not_found");
        // The same path with its first id one no object has: a number, or a UUID where the path has no number (cloud tasks).
        const otherPath = route.otherPath!;
        const missingPath = NUMERIC_ID.test(otherPath) ? otherPath.replace(NUMERIC_ID, "/999999") : otherPath.replace(UUID_ID, `/${MISSING_UUID}`);
        const missing = await api.call(route.route.method, missingPath, { body: route.body?.(1) });
        expectEnvelope(missing, 404, "not_found");
        const shape = (message: string) => message.replace(UUID_TEXT, "U").replace(/\d+/g, "N");
        expect(shape(missing.body.message)).toBe(shape(reply.body.message));
      }
    });

    it("serves them to their own account", async () => {
      const own = await send(route, { other: true, as: [2, "role-1-active"] });
      expect(own.status, own.text).toBe(successStatus(route.route));
    });
  });
});
