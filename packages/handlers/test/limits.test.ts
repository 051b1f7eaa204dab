/**
 * The limits of what a client may send, on every route and every engine: integers out of their
 * column's range, lists and maps over their documented maximum, values too large or deep for a
 * security field, and bodies with thousands of problems. Each answers 400 in the envelope (never 500
 * or 503), names the field, reports at most 100 problems, and changes nothing. The integers, lists and
 * maps are found by walking the contract (ROUTES and limitedFields), on the route cases' valid requests.
 */
import { INT32_MAX, limitedFields, MAX_LISTED_REFERENCES, MAX_REPORTED_PATH_LENGTH, ROUTES, type FieldPath, type LimitedField } from "@cloudplane/contract";
import { demoFixture, sql } from "@cloudplane/db";
import type { RouteCase } from "@cloudplane/contract";
import { selectRows } from "@cloudplane/db/testing";
import { preparedCases } from "./routes.js";
import type { z } from "zod";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi } from "./harness.js";

const cases = await preparedCases();
const caseOf = (id: string): RouteCase => cases.find((candidate) => candidate.id === id)!;

/** A deep copy of `root` with `value` set at `path`, making the objects and arrays on the way (an index makes an array). */
function withValueAt(root: unknown, path: FieldPath, value: unknown): unknown {
  // The body itself (a list of a stream's overlays).
  if (path.length === 0) return value;
  const copy = structuredClone(root ?? {}) as Record<string, unknown>;
  let container: Record<string | number, unknown> = copy;
  path.forEach((key, index) => {
    if (index === path.length - 1) container[key] = value;
    else {
      const next = container[key];
      container = (next !== null && typeof next === "object" ? next : (container[key] = typeof path[index + 1] === "number" ? [] : {})) as Record<
        string | number,
        unknown
      >;
    }
  });
  return copy;
}

/** JSON text of `body` with `number` written as it is (digits or an exponent) at `path`, as a client may send it. */
function bodyWithNumber(body: unknown, path: FieldPath, number: string): string {
  const marker = "\u0001number\u0001";
  return JSON.stringify(withValueAt(body, path, marker)).replace(JSON.stringify(marker), number);
}

/** Numbers just out of the range of an integer field of the contract, as they are written in JSON or a URL. */
function outOfRange(field: Extract<LimitedField, { kind: "integer" }>): string[] {
  const bigint = field.max === Number.MAX_SAFE_INTEGER;
  return [
    ...(bigint ? [] : [String(INT32_MAX + 1), String(-INT32_MAX - 2)]),
    "9007199254740993", // 2^53 + 1: no double holds it
    "-9007199254740993",
    "1e300",
  ];
}

/** The route's path with the path parameter `name` written as `value` (the route case's values for the others). */
function pathWithParam(routeCase: RouteCase, name: string, value: string): string {
  const actual = routeCase.path(1).split("?")[0]!.split("/");
  const pattern = routeCase.route.path.split("/");
  return pattern.map((segment, index) => (segment === `:${name}` ? value : actual[index])).join("/");
}

/** The route case's path (and query) with the query parameter `name` set to `value`. */
function pathWithQuery(routeCase: RouteCase, name: string, value: string): string {
  const url = new URL(routeCase.path(1), "http://x");
  url.searchParams.set(name, value);
  return `${url.pathname}?${url.searchParams.toString()}`;
}

interface Probe {
  name: string;
  routeCase: RouteCase;
  where: "path" | "query" | "body";
  field: LimitedField;
}

/** Every limited field of every route: its path and query parameters and its body. */
const probes: Probe[] = ROUTES.flatMap(({ id, route }) => {
  const routeCase = caseOf(id);
  const parts: ["path" | "query" | "body", unknown][] = [
    ["path", route.pathParams],
    ["query", route.query],
    ["body", "body" in route ? route.body : undefined],
  ];
  return parts.flatMap(([where, schema]) =>
    schema ? limitedFields(schema as z.ZodTypeAny).map((field) => ({ name: `${id} ${where} ${field.path.join(".")}`, routeCase, where, field })) : [],
  );
});

const integerProbes = probes.filter((probe) => probe.field.kind === "integer");
const sizeProbes = probes.filter((probe) => probe.field.kind !== "integer" && probe.where === "body");

const app = demoFixture.edgeApps.find((candidate) => candidate.accountId === 1)!;
const secret = demoFixture.edgeSecrets.find((candidate) => candidate.accountId === 1)!;
const gameProfile = demoFixture.securityProfiles.find((candidate) => candidate.accountId === 1 && candidate.templateId === 2)!;
const gameTemplate = demoFixture.securityProfileTemplates.find((candidate) => candidate.id === 2)!;
const fieldId = (name: string) => demoFixture.securityTemplateFields.find((field) => field.templateId === gameTemplate.id && field.name === name)!.id;

/** A valid body for the game profile with `fields` as its values. */
const gameBody = (fields: { base_field: number; field_value: unknown }[]) => ({
  profile_template: gameTemplate.id,
  ip_address: gameProfile.ipAddress,
  site: gameProfile.site,
  fields,
});

describe("the probes walk the contract", () => {
  it("finds the integers and lists the probe found faults in", () => {
    const names = probes.map((probe) => probe.name);
    expect(names).toEqual(
      expect.arrayContaining([
        "cdn.updateClientSettings body utilization_level",
        "edge.updateApp body binary",
        "edge.updateApp body template",
        "edge.updateApp body secrets.KEY.id",
        "edge.updateApp body secrets",
        "cdn.updateResourceShielding body shielding_pop",
        "cdn.replaceResource body originGroup",
        "cdn.replaceResource body sslData",
        "security.updateProfile body profile_template",
        "cloud.getReservationCostReportTotals body regions.0",
        "edge.listApps query limit",
        "streaming.getStream path stream_id",
      ]),
    );
  });
});

describe.each(engines())("limits on %s", (engine) => {
  const api = useApi(engine);

  describe("integers out of their column's range answer 400 naming the field", () => {
    it.each(integerProbes.map((probe) => [probe.name, probe] as const))("%s", async (_name, { routeCase, where, field }) => {
      const integer = field as Extract<LimitedField, { kind: "integer" }>;
      for (const number of outOfRange(integer)) {
        const name = String(field.path[0]);
        const [path, rawBody, named] =
          where === "path"
            ? [pathWithParam(routeCase, name, number), undefined, `path.${name}`]
            : where === "query"
              ? [pathWithQuery(routeCase, name, number), undefined, `query.${field.path.join(".")}`]
              : [routeCase.path(1), bodyWithNumber(routeCase.body?.(1), field.path, number), field.path.join(".")];
        const reply = await api.call(routeCase.route.method, path, {
          rawBody,
          headers: rawBody === undefined ? {} : { "content-type": "application/json" },
        });
        const envelope = expectEnvelope(reply, 400, "validation_error", undefined, `${number} at ${named}`);
        expect(envelope.errors?.[named], `${number} at ${named}: ${reply.text}`).toEqual(
          expect.arrayContaining([expect.stringMatching(/^Must be (at most|at least|an integer)/)]),
        );
      }
    });
  });

  describe("lists and maps over their maximum answer 400 with the maximum, before any entry is checked", () => {
    it.each(sizeProbes.map((probe) => [probe.name, probe] as const))("%s", async (_name, { routeCase, field }) => {
      const size = field.max! + 1;
      const entries =
        field.kind === "list" ? Array.from({ length: size }, () => null) : Object.fromEntries(Array.from({ length: size }, (_, index) => [`K${index}`, null]));
      // A body that is itself the list is named `body`.
      const named = field.path.length > 0 ? field.path.join(".") : "body";
      const reply = await api.call(routeCase.route.method, routeCase.path(1), { body: withValueAt(routeCase.body?.(1), field.path, entries) });
      const envelope = expectEnvelope(reply, 400, "validation_error", undefined, named);
      expect(envelope.errors?.[named], reply.text).toEqual([expect.stringMatching(new RegExp(`^At most ${field.max} `))]);
      expect(Object.keys(envelope.errors ?? {}).filter((key) => key.startsWith(`${named}.`))).toEqual([]);
    });
  });

  describe("an edge app's secrets", () => {
    const appSecretRows = () => selectRows(api.database.db, sql`select name, secret_id from edge_app_secrets where app_id = ${app.id} order by name`);
    const secrets = (count: number, id = secret.id) => Object.fromEntries(Array.from({ length: count }, (_, index) => [`SECRET_${index}`, { id }]));

    it("takes 100, the maximum, in one write", async () => {
      const reply = await api.call("PUT", `/edge/v1/apps/${app.id}`, { body: { secrets: secrets(100) } });
      expect(reply.status, reply.text).toBe(200);
      expect(await appSecretRows()).toHaveLength(100);
    });

    it("refuses 16,384 (more than PostgreSQL's bind parameters would take) with 400, not an outage, and changes nothing", async () => {
      const before = await appSecretRows();
      for (const count of [101, 16_384, 30_000]) {
        const reply = await api.call("PUT", `/edge/v1/apps/${app.id}`, { body: { comment: "not written", secrets: secrets(count) } });
        expectEnvelope(reply, 400, "validation_error", { secrets: ["At most 100 secrets."] }, String(count));
      }
      expect(await appSecretRows()).toEqual(before);
      const [row] = await selectRows<{ comment: string }>(api.database.db, sql`select comment from edge_apps where id = ${app.id}`);
      expect(row!.comment).not.toBe("not written");
    });

    it("names each of up to 100 missing secrets", async () => {
      const reply = await api.call("PUT", `/edge/v1/apps/${app.id}`, { body: { secrets: secrets(100, 999_999) } });
      const envelope = expectEnvelope(reply, 400, "validation_error");
      expect(Object.keys(envelope.errors!)).toHaveLength(100);
      expect(envelope.errors!["secrets.SECRET_99.id"]).toEqual(["Must be a secret of the account."]);
      expect(envelope.message).toBe("The request did not pass validation: see errors.");
    });
  });

  describe("a security profile's field values", () => {
    const path = `/security/iaas/v2/profiles/${gameProfile.id}`;
    const storedFields = () =>
      selectRows(api.database.db, sql`select base_field_id, field_value from security_profile_fields where profile_id = ${gameProfile.id} order by id`);
    const ports = (count: number) => Array.from({ length: count }, (_, index) => 1000 + index);
    const countries = [{ base_field: fieldId("allowed_countries"), field_value: ["DE"] }];

    it("refuses 100,000 distinct ports (uniqueItems, maxItems 64) at once, by the contract's 1000 items a list", async () => {
      const before = await storedFields();
      const reply = await api.call("PUT", path, { body: gameBody([{ base_field: fieldId("udp_ports"), field_value: ports(100_000) }, ...countries]) });
      expectEnvelope(reply, 400, "validation_error", { "fields.0.field_value": ["At most 1000 items."] });
      expect(await storedFields()).toEqual(before);
    });

    it("refuses 1000 distinct ports by the field's maxItems before the rest of its schema is checked", async () => {
      const reply = await api.call("PUT", path, { body: gameBody([{ base_field: fieldId("udp_ports"), field_value: ports(1000) }, ...countries]) });
      expectEnvelope(reply, 400, "validation_error", { "fields.0.field_value": ["Array has too many items (1000 > 64)."] });
    });

    it("takes 64 distinct ports, the field's maximum", async () => {
      const reply = await api.call("PUT", path, { body: gameBody([{ base_field: fieldId("udp_ports"), field_value: ports(64) }, ...countries]) });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body.fields.find((field: { base_field: number }) => field.base_field === fieldId("udp_ports")).field_value).toEqual(ports(64));
    });

    it("refuses a value nested deeper than its field takes, naming where it goes too deep", async () => {
      // Within the body's nesting limit (64 levels: pipeline.test.ts), past the field's 8.
      const depth = 40;
      const value = `${"[".repeat(depth)}${"]".repeat(depth)}`;
      const rawBody = JSON.stringify(gameBody([{ base_field: fieldId("udp_ports"), field_value: "@" }, ...countries])).replace('"@"', value);
      const reply = await api.call("PUT", path, { rawBody, headers: { "content-type": "application/json" } });
      expectEnvelope(reply, 400, "validation_error", {
        "fields.0.field_value.0.0.0.0.0.0.0.0": ["Nested too deep: at most 8 levels of arrays and objects."],
      });
    });

    it("reports the first 100 of 1000 problems of one value, and says how many there were", async () => {
      const reply = await api.call("PUT", path, {
        body: gameBody([{ base_field: fieldId("udp_ports"), field_value: [22] }, { base_field: fieldId("allowed_countries"), field_value: Array(1000).fill("de") }]),
      });
      const envelope = expectEnvelope(reply, 400, "validation_error", ["fields.1.field_value"]);
      expect(envelope.errors!["fields.1.field_value"]).toHaveLength(100);
      expect(envelope.errors!["fields.1.field_value"]![99]).toMatch(/^\/99: /);
      expect(envelope.message).toBe("The request did not pass validation: 1000 problems, of which errors shows the first 100.");
    });
  });

  describe("answers are bounded: keys and lists a message echoes are cut to a documented length", () => {
    it(`a key of half a million characters is named by its first ${MAX_REPORTED_PATH_LENGTH} and …`, async () => {
      const key = "k".repeat(500_000);
      const reply = await api.call("PUT", "/cdn/clients/me", { body: { utilization_level: 1, [key]: 1, [`${key}x`]: 2 } });
      expectEnvelope(reply, 400, "validation_error", [`${"k".repeat(MAX_REPORTED_PATH_LENGTH)}…`]);
      expect(reply.text.length).toBeLessThan(1000);
    });

    it(`a 409 lists at most ${MAX_LISTED_REFERENCES} of the objects that refer to the one deleted, and counts the rest`, async () => {
      const group = await api.call("POST", "/cdn/origin_groups", { body: { name: "bounded-409", sources: [{ source: "origin.bounded.example" }] } });
      expect(group.status, group.text).toBe(201);
      const ids: number[] = [];
      for (let n = 0; n < MAX_LISTED_REFERENCES + 5; n++) {
        const made = await api.call("POST", "/cdn/resources", { body: { cname: `bounded-${n}.cdn-limits.example`, originGroup: group.body.id, active: false } });
        expect(made.status, made.text).toBe(201);
        ids.push(made.body.id);
      }
      const refused = await api.call("DELETE", `/cdn/origin_groups/${group.body.id}`);
      expectEnvelope(refused, 409, "conflict");
      expect(refused.body.message).toBe(
        `Origin group ${group.body.id} is used by CDN resources (${ids.slice(0, MAX_LISTED_REFERENCES).join(", ")} and 5 more): move or delete them first.`,
      );
    });
  });

  describe("a query with text the database cannot store", () => {
    it("a NUL, sent as %00 in a value or a name, is 400 naming the parameter; other escapes are text", async () => {
      expectEnvelope(await api.call("GET", "/edge/v1/apps?name=a%00b"), 400, "validation_error", ["query.name"]);
      expectEnvelope(await api.call("GET", "/edge/v1/apps?limit=5&na%00me=x"), 400, "validation_error", ["query.na\u0000me"]);
      // A surrogate's UTF-8 bytes are malformed UTF-8: decoded as U+FFFD, text the database stores (no app has it).
      const surrogate = await api.call("GET", "/edge/v1/apps?name=%ED%A0%80");
      expect(surrogate.status, surrogate.text).toBe(200);
      expect(surrogate.body).toEqual({ count: 0, apps: [] });
    });
  });

  describe("bodies with thousands of problems answer with at most 100, and say how many", () => {
    it("70,000 unknown fields are one problem that counts them", async () => {
      const body = Object.fromEntries(Array.from({ length: 70_000 }, (_, index) => [`f${index}`, 0]));
      const reply = await api.call("PUT", `/edge/v1/apps/${app.id}`, { body });
      const envelope = expectEnvelope(reply, 400, "validation_error", ["body"]);
      expect(envelope.errors!.body).toEqual([expect.stringMatching(/^70000 fields this operation does not take/)]);
      expect(reply.text.length).toBeLessThan(1000);
    });

    it("5,000 strings the database cannot store: the first 100, in order, and the count", async () => {
      const value = Array.from({ length: 5000 }, () => "bad\u0000");
      const reply = await api.call("PATCH", caseOf("cdn.updateResource").path(1), { body: { options: { cors: { enabled: true, value } } } });
      const envelope = expectEnvelope(reply, 400, "validation_error");
      expect(Object.keys(envelope.errors!)).toEqual(Array.from({ length: 100 }, (_, index) => `options.cors.value.${index}`));
      expect(envelope.message).toBe("The request did not pass validation: 5000 problems, of which errors shows the first 100.");
    });

    it("a body with more problems than 100 fields of its own: the first 100", async () => {
      const options = { cors: { enabled: true, value: Array.from({ length: 100 }, (_, index) => `not a domain ${index}`) }, query_params_whitelist: { enabled: true, value: Array(100).fill("") } };
      const reply = await api.call("PATCH", caseOf("cdn.updateResource").path(1), { body: { options } });
      const envelope = expectEnvelope(reply, 400, "validation_error");
      expect(Object.values(envelope.errors!).flat()).toHaveLength(100);
      expect(envelope.message).toBe("The request did not pass validation: 200 problems, of which errors shows the first 100.");
    });
  });
});
