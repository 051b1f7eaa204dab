/** Authentication and roles (the guide's Authentication and Roles sections), on every route. */
import { bodyTypeOf, RAW_BODY } from "@cloudplane/contract";
import { callCase, type ConformanceCheck } from "../check.js";
import { expectEnvelope, expectSuccess } from "../expect.js";

export const authChecks: ConformanceCheck[] = [
  {
    name: "auth: no Authorization header is 401 not_authenticated on every route",
    async run(context) {
      for (const route of context.cases) expectEnvelope(await callCase(context, route, { authorization: null }), 401, "not_authenticated");
    },
  },
  {
    name: "auth: a Bearer token is 401 token_not_valid on every route",
    async run(context) {
      const bearer = context.client.apikey([1, "role-1-active"]).replace(/^apikey /, "Bearer ");
      for (const route of context.cases) expectEnvelope(await callCase(context, route, { authorization: bearer }), 401, "token_not_valid");
    },
  },
  {
    name: "auth: unknown, expired and deleted tokens and a bare scheme are 401 token_not_valid",
    async run(context) {
      const route = context.cases.find((candidate) => candidate.id === "cdn.getClientFeatures") ?? context.cases[0]!;
      for (const authorization of [
        "apikey cp_conformance_00000000000000000000000000000000",
        context.client.apikey([1, "role-5-expired"]),
        context.client.apikey([1, "role-2-deleted"]),
        "apikey",
      ]) {
        expectEnvelope(await callCase(context, route, { authorization }), 401, "token_not_valid");
      }
    },
  },
  {
    name: "auth: the scheme word is taken in any case",
    async run(context) {
      const route = context.cases.find((candidate) => candidate.id === "cdn.getClientFeatures") ?? context.cases[0]!;
      const token = context.client.apikey([1, "role-1-active"]).replace(/^apikey /, "");
      for (const scheme of ["APIKey", "APIKEY", "ApiKey"]) expectSuccess(await callCase(context, route, { authorization: `${scheme} ${token}` }), route.route, route.status);
    },
  },
  {
    name: "auth: the Purge and Prefetch roles (3009, 3022) purge and prefetch, and are 403 permission_denied on every other route",
    async run(context) {
      for (const route of context.cases)
        for (const token of ["role-3022-active", "role-3009-active"] as const) {
          const reply = await callCase(context, route, { as: [1, token] });
          if (route.access === "purge") expectSuccess(reply, route.route, route.status);
          else expectEnvelope(reply, 403, "permission_denied");
        }
    },
  },
  {
    name: "auth: the Users role reads but may not write (403 permission_denied, checked before the body)",
    async run(context) {
      for (const route of context.cases) {
        const reply = await callCase(context, route, { as: [1, "role-2-active"] });
        const special = route.roleStatus?.[2];
        if (special !== undefined && special !== route.status) expectEnvelope(reply, special, special === 404 ? "not_found" : "permission_denied");
        else if (route.access === "read") expectSuccess(reply, route.route, route.status);
        else {
          expectEnvelope(reply, 403, "permission_denied");
          // The role is checked before the input: a bad body (of the type the route takes) changes nothing about the answer.
          const nonsense = bodyTypeOf(route.route) === RAW_BODY ? new TextEncoder().encode("conformance nonsense") : { conformance_nonsense: true };
          expectEnvelope(await callCase(context, route, { as: [1, "role-2-active"], body: nonsense }), 403, "permission_denied");
        }
      }
    },
  },
  {
    name: "auth: the Engineers role may call every route (but create tokens, and see others' tokens)",
    async run(context) {
      for (const route of context.cases) {
        const reply = await callCase(context, route, { as: [1, "role-5-active"] });
        const special = route.roleStatus?.[5];
        if (special !== undefined && special !== route.status) expectEnvelope(reply, special, special === 404 ? "not_found" : "permission_denied");
        else expectSuccess(reply, route.route, route.status);
      }
    },
  },
];
