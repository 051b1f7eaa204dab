/**
 * Integration tests of broadcasts on every engine: the paged listing and one broadcast as the fixture
 * holds them, the viewer count (kept while live, 0 once the status leaves live), creation, changes of
 * every field and of the status through its states, deletion, 404 for another account's, and the roles.
 */
import { BROADCAST_STREAMS_MAX, BROADCASTS_PAGE_SIZE, broadcastDetail, type BroadcastDetail, type Stream } from "@cloudplane/contract";
import { demoFixture, sql } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi, type TestApi } from "../harness.js";
import { shownBroadcast } from "./shown.js";

const { broadcasts, streams } = demoFixture;

const BROADCAST_FIELDS = Object.keys(broadcastDetail.shape).sort();
const mine = broadcasts.filter((broadcast) => broadcast.accountId === 1).sort((a, b) => b.id - a.id);
const liveWithViewers = mine.find((broadcast) => broadcast.status === "live" && broadcast.spectators > 0)!;
const theirs = broadcasts.find((broadcast) => broadcast.accountId === 2)!;
const myStream = streams.find((stream) => stream.accountId === 1)!;
const theirStream = streams.find((stream) => stream.accountId === 2)!;

/** Every broadcast and the streams each shows, as stored. */
async function broadcastRows(api: TestApi) {
  return {
    broadcasts: await selectRows<Record<string, unknown>>(api.database.db, sql`select * from broadcasts order by id`),
    streams: await selectRows<Record<string, unknown>>(api.database.db, sql`select * from broadcast_streams order by broadcast_id, position`),
  };
}

describe.each(engines())("broadcasts on %s", (engine) => {
  const api = useApi(engine);
  const create = (broadcast: unknown, as?: [1 | 2, "role-1-active" | "role-2-active"]) => api.call("POST", "/streaming/broadcasts", { body: { broadcast }, ...(as ? { as } : {}) });
  const update = (id: number, broadcast: unknown) => api.call("PATCH", `/streaming/broadcasts/${id}`, { body: { broadcast } });

  it("the fixture has what these tests need", () => {
    expect(mine.length).toBeGreaterThanOrEqual(3);
    expect(liveWithViewers).toBeDefined();
    expect(theirs).toBeDefined();
  });

  it("lists the account's broadcasts newest first with X-Total-Count, and shows one", async () => {
    const reply = await api.call("GET", "/streaming/broadcasts");
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toEqual(mine.slice(0, BROADCASTS_PAGE_SIZE).map(shownBroadcast));
    expect(reply.headers.get("x-total-count")).toBe(String(mine.length));
    for (const item of reply.body as BroadcastDetail[]) expect(Object.keys(item).sort()).toEqual(BROADCAST_FIELDS);
    const past = await api.call("GET", "/streaming/broadcasts?page=2");
    expect(past.body).toEqual([]);
    expect(past.headers.get("x-total-count")).toBe(String(mine.length));
    expectEnvelope(await api.call("GET", "/streaming/broadcasts?page=0"), 400, "validation_error", ["query.page"]);
    for (const broadcast of mine) expect((await api.call("GET", `/streaming/broadcasts/${broadcast.id}`)).body).toEqual(shownBroadcast(broadcast));
    const other = await api.call("GET", "/streaming/broadcasts", { as: [2, "role-1-active"] });
    expect(other.body).toEqual(broadcasts.filter((broadcast) => broadcast.accountId === 2).map(shownBroadcast));
  });

  it("another account's broadcast answers 404 to every route, and is left as it was", async () => {
    const before = await broadcastRows(api);
    expectEnvelope(await api.call("GET", `/streaming/broadcasts/${theirs.id}`), 404, "not_found");
    expectEnvelope(await api.call("GET", `/streaming/broadcasts/${theirs.id}/spectators`), 404, "not_found");
    expectEnvelope(await update(theirs.id, { status: "live" }), 404, "not_found");
    expectEnvelope(await api.call("DELETE", `/streaming/broadcasts/${theirs.id}`), 404, "not_found");
    expect(await broadcastRows(api)).toEqual(before);
  });

  it("counts a live broadcast's viewers; leaving live sets the count to 0, for good", async () => {
    const count = await api.call("GET", `/streaming/broadcasts/${liveWithViewers.id}/spectators`);
    expect(count.status, count.text).toBe(200);
    expect(count.body).toEqual({ spectators_count: liveWithViewers.spectators });
    for (const broadcast of mine.filter((candidate) => candidate.status !== "live"))
      expect((await api.call("GET", `/streaming/broadcasts/${broadcast.id}/spectators`)).body).toEqual({ spectators_count: 0 });
    // Changing another field keeps the count; a pause drops it, and going live again starts from none.
    expect((await update(liveWithViewers.id, { pending_message: "Back soon" })).status).toBe(200);
    expect((await api.call("GET", `/streaming/broadcasts/${liveWithViewers.id}/spectators`)).body).toEqual({ spectators_count: liveWithViewers.spectators });
    expect((await update(liveWithViewers.id, { status: "paused" })).body).toMatchObject({ status: "paused" });
    expect((await api.call("GET", `/streaming/broadcasts/${liveWithViewers.id}/spectators`)).body).toEqual({ spectators_count: 0 });
    expect((await update(liveWithViewers.id, { status: "live" })).body).toMatchObject({ status: "live" });
    expect((await api.call("GET", `/streaming/broadcasts/${liveWithViewers.id}/spectators`)).body).toEqual({ spectators_count: 0 });
  });

  it("makes a broadcast pending with its defaults; it moves through its states and shows in the stream's broadcast_ids", async () => {
    const reply = await create({ name: "Launch", stream_ids: [myStream.id] });
    expect(reply.status, reply.text).toBe(201);
    const made = reply.body as BroadcastDetail;
    expect(made).toEqual({
      id: expect.any(Number),
      name: "Launch",
      status: "pending",
      stream_ids: [myStream.id],
      ad_id: null,
      custom_iframe_url: null,
      pending_message: null,
      player_id: null,
      poster: null,
      share_url: null,
      show_dvr_after_finish: false,
    });
    expect(made.id).toBeGreaterThan(Math.max(...broadcasts.map((broadcast) => broadcast.id)));
    expect(((await api.call("GET", `/streaming/streams/${myStream.id}`)).body as Stream).broadcast_ids).toContain(made.id);
    for (const status of ["live", "paused", "live", "finished", "pending"] as const) {
      const moved = await update(made.id, { status });
      expect(moved.status, moved.text).toBe(200);
      expect(moved.body).toEqual({ ...made, status });
    }
    expect((await api.call("GET", `/streaming/broadcasts/${made.id}`)).body).toEqual(made);
  });

  it("sets every field on creation and changes only the fields given", async () => {
    const other = streams.filter((stream) => stream.accountId === 1)[1]!;
    const full = {
      name: "Gala",
      stream_ids: [myStream.id],
      status: "live",
      ad_id: 4,
      custom_iframe_url: "https://acme.example/player/gala",
      pending_message: "Soon",
      player_id: 2,
      poster: "https://acme.example/gala.jpg",
      share_url: "https://acme.example/gala",
      show_dvr_after_finish: true,
    };
    const made = (await create(full)).body as BroadcastDetail;
    expect(made).toEqual({ id: made.id, ...full });
    const changed = await update(made.id, { stream_ids: [other.id], poster: null, share_url: null, name: "Gala night" });
    expect(changed.body).toEqual({ ...made, stream_ids: [other.id], poster: null, share_url: null, name: "Gala night" });
    expect(((await api.call("GET", `/streaming/streams/${other.id}`)).body as Stream).broadcast_ids).toContain(made.id);
    expect(((await api.call("GET", `/streaming/streams/${myStream.id}`)).body as Stream).broadcast_ids).not.toContain(made.id);
    expect((await update(made.id, {})).body).toEqual(changed.body);
  });

  it.each<[string, unknown, string[]]>([
    ["no name and no stream", {}, ["broadcast.name", "broadcast.stream_ids"]],
    ["a stream named twice", { name: "A", stream_ids: [1, 3, 1] }, ["broadcast.stream_ids.2"]],
    ["too many streams", { name: "A", stream_ids: Array.from({ length: BROADCAST_STREAMS_MAX + 1 }, (_, index) => index + 1) }, ["broadcast.stream_ids"]],
    ["no stream", { name: "A", stream_ids: [] }, ["broadcast.stream_ids"]],
    ["another account's stream", { name: "A", stream_ids: [theirStream.id] }, ["broadcast.stream_ids.0"]],
    ["another account's stream, and an unknown one, after one of the account's", { name: "A", stream_ids: [1, theirStream.id, 99_999] }, ["broadcast.stream_ids.1", "broadcast.stream_ids.2"]],
    ["an unknown status", { name: "A", stream_ids: [1], status: "Live" }, ["broadcast.status"]],
    ["links of another scheme", { name: "A", stream_ids: [1], poster: "ftp://a.example/p.jpg", share_url: "acme" }, ["broadcast.poster", "broadcast.share_url"]],
    ["read-only and unknown fields", { name: "A", stream_ids: [1], id: 3, viewers: 9 }, ["broadcast.id", "broadcast.viewers"]],
  ])("%s is 400 naming the fields, and makes nothing", async (_what, broadcast, fields) => {
    const before = await broadcastRows(api);
    expectEnvelope(await create(broadcast), 400, "validation_error", fields);
    expect(await broadcastRows(api)).toEqual(before);
  });

  it("a change naming another account's stream is 400 and changes nothing", async () => {
    const before = await broadcastRows(api);
    expectEnvelope(await update(mine[0]!.id, { stream_ids: [theirStream.id], name: "X" }), 400, "validation_error", ["broadcast.stream_ids.0"]);
    expectEnvelope(await api.call("PATCH", `/streaming/broadcasts/${mine[0]!.id}`, { body: { name: "X" } }), 400, "validation_error", ["broadcast", "name"]);
    expect(await broadcastRows(api)).toEqual(before);
  });

  it("shows several streams in the order given; a change replaces them; each stream lists the broadcast", async () => {
    const [first, second, third] = streams.filter((stream) => stream.accountId === 1).slice(2, 5);
    const made = await create({ name: "Three cameras", stream_ids: [third!.id, first!.id, second!.id] });
    expect(made.status, made.text).toBe(201);
    const broadcast = made.body as BroadcastDetail;
    expect(broadcast.stream_ids).toEqual([third!.id, first!.id, second!.id]);
    expect((await api.call("GET", `/streaming/broadcasts/${broadcast.id}`)).body).toEqual(broadcast);
    for (const stream of [first, second, third])
      expect(((await api.call("GET", `/streaming/streams/${stream!.id}`)).body as Stream).broadcast_ids).toContain(broadcast.id);
    const changed = await update(broadcast.id, { stream_ids: [second!.id, first!.id] });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toEqual({ ...broadcast, stream_ids: [second!.id, first!.id] });
    expect(((await api.call("GET", `/streaming/streams/${third!.id}`)).body as Stream).broadcast_ids).not.toContain(broadcast.id);
    expect((await api.call("GET", `/streaming/broadcasts/${broadcast.id}`)).body).toEqual(changed.body);
  });

  it("a deleted stream leaves its broadcasts; a broadcast it was the last stream of is deleted with it", async () => {
    const newStream = async (name: string) => {
      const reply = await api.call("POST", "/streaming/streams", { body: { name } });
      expect(reply.status, reply.text).toBe(201);
      return (reply.body as Stream).id;
    };
    const [stage, slides] = [await newStream("Stage"), await newStream("Slides")];
    const both = (await create({ name: "Both", stream_ids: [stage, slides] })).body as BroadcastDetail;
    const slidesOnly = (await create({ name: "Slides only", stream_ids: [slides] })).body as BroadcastDetail;
    expect((await api.call("DELETE", `/streaming/streams/${slides}`)).status).toBe(204);
    expect((await api.call("GET", `/streaming/broadcasts/${both.id}`)).body).toEqual({ ...both, stream_ids: [stage] });
    expectEnvelope(await api.call("GET", `/streaming/broadcasts/${slidesOnly.id}`), 404, "not_found");
    expect((await api.call("DELETE", `/streaming/streams/${stage}`)).status).toBe(204);
    expectEnvelope(await api.call("GET", `/streaming/broadcasts/${both.id}`), 404, "not_found");
    const left = await broadcastRows(api);
    expect(left.broadcasts.map((row) => row.id)).not.toContain(both.id);
    expect(left.streams.filter((row) => [stage, slides].includes(row.stream_id as number))).toEqual([]);
  });

  it("deletes a broadcast (204, no body), leaving its stream; a second delete is 404", async () => {
    const made = (await create({ name: "Short-lived", stream_ids: [myStream.id] })).body as BroadcastDetail;
    const deleted = await api.call("DELETE", `/streaming/broadcasts/${made.id}`);
    expect(deleted.status, deleted.text).toBe(204);
    expect(deleted.text).toBe("");
    expectEnvelope(await api.call("DELETE", `/streaming/broadcasts/${made.id}`), 404, "not_found");
    expectEnvelope(await api.call("GET", `/streaming/broadcasts/${made.id}`), 404, "not_found");
    expect((await api.call("GET", `/streaming/streams/${myStream.id}`)).status).toBe(200);
  });

  it("the read-only Users role reads broadcasts but changes none", async () => {
    expect((await api.call("GET", `/streaming/broadcasts/${mine[0]!.id}/spectators`, { as: [1, "role-2-active"] })).status).toBe(200);
    const before = await broadcastRows(api);
    expectEnvelope(await create({ name: "A", stream_ids: [myStream.id] }, [1, "role-2-active"]), 403, "permission_denied");
    expectEnvelope(await api.call("DELETE", `/streaming/broadcasts/${mine[0]!.id}`, { as: [1, "role-2-active"] }), 403, "permission_denied");
    expect(await broadcastRows(api)).toEqual(before);
  });
});
