/**
 * Type tests, checked by `tsc --noEmit` (the package's typecheck): calls are typed from the contract,
 * so a wrong body, path parameter or query fails to compile, and so does a route table that strays
 * from the contract. Each `@ts-expect-error` fails the typecheck if its line compiles.
 */
import { expectTypeOf } from "vitest";
import { defineRoutes } from "../src/core/routes.js";
import type {
  APIConnectionTimeoutError,
  APIError,
  APIResponse,
  BadRequestError,
  CdnFeatures,
  CdnResource,
  CloudplaneClient,
  EdgeApp,
  NotFoundError,
  Page,
  Stream,
  WithRequestId,
} from "../src/index.js";

export async function typedCalls(client: CloudplaneClient) {
  // Bodies, path parameters and queries as the contract types them.
  expectTypeOf(await client.cdn.resources.update(1, { description: "ok" })).toEqualTypeOf<WithRequestId<CdnResource>>();
  // A returned object is its resource, with the request id that brought it.
  expectTypeOf<WithRequestId<CdnResource>>().toMatchTypeOf<CdnResource>();
  expectTypeOf((await client.cdn.resources.update(1, { description: "ok" }))._request_id).toEqualTypeOf<string | undefined>();
  // @ts-expect-error the request id is the answer's, not to be changed
  (await client.edge.apps.get(1))._request_id = "mine";
  // @ts-expect-error an unknown body field
  await client.cdn.resources.update(1, { descripton: "typo" });
  // @ts-expect-error a body field of the wrong type
  await client.cdn.resources.update(1, { active: "yes" });
  // @ts-expect-error originGroup is required by the full replace
  await client.cdn.resources.replace(1, { name: "no origin group" });
  // @ts-expect-error a path parameter of the wrong type
  await client.cdn.resources.update("1", { description: "ok" });
  // @ts-expect-error the bucket name is a string, the storage id a number
  await client.storage.s3.buckets.getCors("media-assets", 1);
  // @ts-expect-error a missing path parameter
  await client.cloud.gpu.images.list(1);
  // @ts-expect-error an option that does not exist
  await client.cdn.resources.update(1, { options: { gzip: { enabled: true, value: true } } });
  // @ts-expect-error a status the API does not know
  await client.edge.apps.list({ api_type: "wasm" });
  // @ts-expect-error the edge app ordering is one of the contract's values
  await client.edge.apps.list({ ordering: "created" });
  // @ts-expect-error slots need a value
  await client.edge.secrets.create({ name: "s", secret_slots: [{ slot: 0 }] });
  // @ts-expect-error the duration of a clip is a number of seconds
  await client.streaming.streams.createClipRecording(1, { duration: "60" });

  // Lists resolve to a page and iterate items.
  const page = await client.edge.apps.list({ limit: 10 });
  expectTypeOf(page).toEqualTypeOf<Page<EdgeApp, { apps: EdgeApp[]; count: number }>>();
  expectTypeOf(page.body.count).toEqualTypeOf<number>();
  for await (const stream of client.streaming.streams.list({ page: 2 })) expectTypeOf(stream).toEqualTypeOf<Stream>();

  // @ts-expect-error a field the cost report does not have, though the body's type is inferred from the call
  await client.cloud.costReports.totals({ time_from: "2026-01", time_to: "2026-02", tyeps: ["instance"] });

  // The cost report is CSV text when asked for, JSON otherwise.
  expectTypeOf(await client.cloud.costReports.totals({ time_from: "2026-01", time_to: "2026-02", response_format: "csv_totals" })).toEqualTypeOf<string>();
  expectTypeOf((await client.cloud.costReports.totals({ time_from: "2026-01", time_to: "2026-02" })).price_status).toEqualTypeOf<"show" | "error">();

  // withResponse() adds the response's metadata to the same body type.
  expectTypeOf(await client.streaming.streams.get(1).withResponse()).toEqualTypeOf<APIResponse<Stream>>();
}

export function errorCodes() {
  // Each error class narrows `code` to the codes the API answers with its status (or one a newer server sends).
  expectTypeOf<"not_found">().toMatchTypeOf<NotFoundError["code"]>();
  expectTypeOf<"validation_error" | "malformed_json" | "bad_request">().toMatchTypeOf<BadRequestError["code"]>();
  expectTypeOf<APIConnectionTimeoutError["code"]>().toEqualTypeOf<"connection_timeout">();
  expectTypeOf<BadRequestError["code"]>().not.toEqualTypeOf<APIError["code"]>();
  expectTypeOf<NotFoundError["code"]>().not.toEqualTypeOf<BadRequestError["code"]>();
}

export async function callsById(client: CloudplaneClient) {
  // Any route by its id, typed from the contract like the named methods.
  expectTypeOf(await client.request("cdn.updateResource", { params: { resource_id: 1 }, body: { description: "ok" } })).toEqualTypeOf<WithRequestId<CdnResource>>();
  expectTypeOf(await client.request("cdn.getClientFeatures")).toEqualTypeOf<WithRequestId<CdnFeatures>>();
  expectTypeOf((await client.request("edge.listApps", { query: { limit: 5 } })).apps).toEqualTypeOf<EdgeApp[]>();
  expectTypeOf(await client.request("streaming.getStream", { params: { stream_id: 1 } }, { timeout: 5_000 }).withResponse()).toEqualTypeOf<APIResponse<Stream>>();
  // @ts-expect-error a route the contract does not have
  await client.request("cdn.deleteEverything", { params: { resource_id: 1 } });
  // @ts-expect-error the path parameters are required
  await client.request("cdn.getOriginGroup");
  // @ts-expect-error a path parameter named otherwise
  await client.request("cdn.getOriginGroup", { params: { id: 1 } });
  // @ts-expect-error an unknown body field
  await client.request("cdn.updateResource", { params: { resource_id: 1 }, body: { descripton: "typo" } });
  // @ts-expect-error a route without a body takes none
  await client.request("cdn.getClientFeatures", { body: {} });
  // @ts-expect-error a query value the contract does not allow
  await client.request("edge.listApps", { query: { ordering: "created" } });
}

export function routeTables() {
  const security = {
    listProfileTemplates: ["GET", "/security/iaas/profile-templates"],
    listProfiles: ["GET", "/security/iaas/v2/profiles"],
    getProfile: ["GET", "/security/iaas/v2/profiles/:id"],
    createProfile: ["POST", "/security/iaas/v2/profiles"],
    updateProfile: ["PUT", "/security/iaas/v2/profiles/:id"],
    recreateProfile: ["PUT", "/security/iaas/v2/profiles/:id/recreate"],
    deleteProfile: ["DELETE", "/security/iaas/v2/profiles/:id"],
    listEvents: ["GET", "/security/notifier/v1/event_logs"],
    getEvent: ["GET", "/security/notifier/v1/event_logs/:event_log_id"],
    listBgpAnnounces: ["GET", "/security/sifter/v2/protected_addresses/announces"],
    toggleBgpAnnounce: ["POST", "/security/sifter/v2/protected_addresses/announces"],
  } as const;
  defineRoutes("security", security);
  // @ts-expect-error a path that is not the contract's
  defineRoutes("security", { ...security, getProfile: ["GET", "/security/v2/profile/:id"] });
  // @ts-expect-error a method that is not the contract's
  defineRoutes("security", { ...security, updateProfile: ["PATCH", "/security/iaas/v2/profiles/:id"] });
  // @ts-expect-error a route of the contract left out
  defineRoutes("security", { listProfiles: security.listProfiles });
  // @ts-expect-error a route the contract does not have
  defineRoutes("security", { ...security, cloneProfile: ["PUT", "/x"] });
}
