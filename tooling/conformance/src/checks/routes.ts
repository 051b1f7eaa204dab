/** Every route answers its success status to the demo administrator, in the contract's shape. */
import { callCase, type ConformanceCheck } from "../check.js";
import { expectSuccess } from "../expect.js";

export const routeChecks: ConformanceCheck[] = [
  {
    name: "routes: every route answers its success status to the administrator, with a body the contract accepts",
    async run(context) {
      for (const route of context.cases) expectSuccess(await callCase(context, route), route.route, route.status);
    },
  },
  {
    name: "routes: account 2's administrator reaches account 2's objects on every route",
    async run(context) {
      for (const route of context.cases) expectSuccess(await callCase(context, route, { account: 2, as: [2, "role-1-active"] }), route.route, route.status);
    },
  },
];
