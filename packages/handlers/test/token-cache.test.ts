/**
 * The token lookup cache (decisions.md §2, `authCacheMs`): a revocation made in the database takes
 * effect once a lookup is no longer reused, an expiry at once, and with the cache off on the next request.
 */
import { demoToken, sql, type DemoTokenName } from "@cloudplane/db";
import { createTestDatabase, engines, type TestDatabase } from "@cloudplane/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHandler, type Handler } from "../src/index.js";
import { BASE } from "./api.js";

describe.each(engines())("token lookup cache on %s", (engine) => {
  let database: TestDatabase;
  const errors: unknown[] = [];
  const handlerWith = (authCacheMs: number): Handler =>
    createHandler({ db: database.db, secretsKey: database.secretsKey, rateLimit: false, authCacheMs, onError: (report) => errors.push(report) });
  const get = (handler: Handler, name: DemoTokenName) =>
    handler(new Request(`${BASE}/cdn/clients/me/features`, { headers: { authorization: `apikey ${demoToken(1, name).plaintext}` } }));
  const revoke = (name: DemoTokenName) =>
    database.db.execute(sql`update api_tokens set deleted = true where account_id = 1 and id = ${demoToken(1, name).id}`);

  beforeAll(async () => {
    database = await createTestDatabase({ engine });
  });
  afterAll(async () => {
    expect(errors).toEqual([]);
    await database.close();
  });

  it("with the cache off, refuses a token on the first request after it is revoked", async () => {
    const handler = handlerWith(0);
    expect((await get(handler, "role-5-active")).status).toBe(200);
    await revoke("role-5-active");
    const refused = await get(handler, "role-5-active");
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ code: "token_not_valid", message: "The API token was revoked." });
  });

  it("reuses a lookup for its time, then sees the revocation", async () => {
    const handler = handlerWith(60_000);
    expect((await get(handler, "role-2-active")).status).toBe(200);
    await revoke("role-2-active");
    // Within the cache time this handler still knows the token; a handler without the lookup does not.
    expect((await get(handler, "role-2-active")).status).toBe(200);
    expect((await get(handlerWith(60_000), "role-2-active")).status).toBe(401);
  });

  it("refuses a cached token as soon as its exp_date passes", async () => {
    const handler = handlerWith(60_000);
    const expires = new Date(Date.now() + 1500);
    await database.db.execute(sql`update api_tokens set exp_date = ${expires.toISOString()} where account_id = 1 and id = ${demoToken(1, "role-1-active").id}`);
    expect((await get(handler, "role-1-active")).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, expires.getTime() - Date.now()) + 50));
    const refused = await get(handler, "role-1-active");
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ code: "token_not_valid", message: "The API token has expired." });
  });
});
