/**
 * The token lookup cache (`authCacheMs`; the authorization header's description): a revocation made in the database takes
 * effect once a lookup is no longer reused, an expiry at once, and with the cache off on the next request.
 */
import { demoToken, sql, type DemoTokenName } from "@cloudplane/db";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi, type Handler } from "./harness.js";

describe.each(engines())("token lookup cache on %s", (engine) => {
  const api = useApi(engine);
  const handlerWith = (authCacheMs: number): Handler => api.createHandler({ rateLimit: false, authCacheMs });
  const get = (handler: Handler, name: DemoTokenName) => api.call("GET", "/cdn/clients/me/features", { handler, as: [1, name] });
  const revoke = (name: DemoTokenName) =>
    api.database.db.execute(sql`update api_tokens set deleted = true where account_id = 1 and id = ${demoToken(1, name).id}`);

  it("with the cache off, refuses a token on the first request after it is revoked", async () => {
    const handler = handlerWith(0);
    expect((await get(handler, "role-5-active")).status).toBe(200);
    await revoke("role-5-active");
    const refused = await get(handler, "role-5-active");
    expect(expectEnvelope(refused, 401, "token_not_valid").message).toBe("The API token was revoked.");
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
    await api.database.db.execute(sql`update api_tokens set exp_date = ${expires.toISOString()} where account_id = 1 and id = ${demoToken(1, "role-1-active").id}`);
    expect((await get(handler, "role-1-active")).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, expires.getTime() - Date.now()) + 50));
    const refused = await get(handler, "role-1-active");
    expect(expectEnvelope(refused, 401, "token_not_valid").message).toBe("The API token has expired.");
  });
});
