/**
 * The route cases the contract declares beside its routes: one for every route of ROUTES, in its
 * order, each a request the route's own schemas accept, on objects of the account it is made for
 * (found on the demo data through the API's read routes).
 */
import { pathParams, ROUTES } from "@cloudplane/contract";
import { describe, expect, it } from "vitest";
import { preparedCases } from "./routes.js";

interface Schema {
  safeParse(value: unknown): { success: boolean; error?: { issues: unknown[] } };
}

const cases = await preparedCases();

describe("route cases", () => {
  it("hold one case for every route of ROUTES, in its order, with its access and success status", () => {
    expect(cases.map((routeCase) => routeCase.id)).toEqual(ROUTES.map((entry) => entry.id));
    for (const [index, entry] of ROUTES.entries()) {
      const routeCase = cases[index]!;
      expect(routeCase.route).toBe(entry.route);
      expect(routeCase.access).toBe(entry.access);
      expect(Object.keys(entry.route.responses).map(Number)).toContain(routeCase.status);
      expect(routeCase.status).toBeLessThan(300);
    }
  });

  it.each(cases.map((routeCase) => [routeCase.id, routeCase] as const))("%s: paths and body the route's schemas accept", (id, routeCase) => {
    const { route } = routeCase;
    for (const account of [1, 2] as const) {
      const path = routeCase.path(account);
      const params = pathParams(route.path, path);
      expect(params, `${id} ${path}`).toBeDefined();
      if (route.pathParams) expect((route.pathParams as Schema).safeParse(params).error?.issues, `${id} ${path}`).toBeUndefined();
      const query = Object.fromEntries(new URLSearchParams(path.split("?")[1] ?? ""));
      if (route.query) expect((route.query as Schema).safeParse(query).error?.issues, `${id} ${path}`).toBeUndefined();
      else expect(query, id).toEqual({});
      if ("body" in route) expect((route.body as Schema).safeParse(routeCase.body?.(account)).error?.issues, `${id} body`).toBeUndefined();
      else expect(routeCase.body, id).toBeUndefined();
    }
    // A case that owns objects names other ones for the other account; one that does not, the same path.
    const made = (account: 1 | 2) => (routeCase.maker ? { id: 1_000 + account } : undefined);
    expect(routeCase.path(1, made(1)) !== routeCase.path(2, made(2)), id).toBe(routeCase.ownsObjects);
  });

  it("make the object of a case that uses one up with a case that answers it", () => {
    for (const routeCase of cases.filter((candidate) => candidate.makes)) {
      expect(routeCase.maker?.id, routeCase.id).toBe(routeCase.makes);
      expect(routeCase.maker!.status, routeCase.id).toBeLessThan(300);
      expect(routeCase.ownsObjects, routeCase.id).toBe(true);
    }
  });

  it("serve an alias with its primary's request at the alias's own path", () => {
    for (const routeCase of cases.filter(({ id }) => ROUTES.find((entry) => entry.id === id)!.aliasOf)) {
      const primary = cases.find(({ id }) => id === ROUTES.find((entry) => entry.id === routeCase.id)!.aliasOf)!;
      expect(pathParams(routeCase.route.path, routeCase.path(1)), routeCase.id).toEqual(pathParams(primary.route.path, primary.path(1)));
      expect(routeCase.body, routeCase.id).toBe(primary.body);
    }
  });

  it("make names that must be unique fresh on every call", () => {
    const target = cases.find((routeCase) => routeCase.id === "cdn.createLogsUploaderTarget")!;
    const [first, second] = [target.body!(1), target.body!(1)] as { name: string }[];
    expect(first!.name).not.toBe(second!.name);
  });
});
