/**
 * Integration tests of restreams on every engine: the paged listing and one restream as the fixture
 * holds them, `live` following the switch and the stream's ingest, creation with its defaults, changes,
 * deletion (and the stream's delete taking its restreams), 404 for another account's, and the roles.
 */
import { RESTREAMS_PAGE_SIZE, restream as restreamSchema, type Restream, type Stream } from "@cloudplane/contract";
import { demoFixture, demoToken, sql } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi, type TestApi } from "../harness.js";
import { shownRestream } from "./shown.js";

const { restreams, streams, users } = demoFixture;

const RESTREAM_FIELDS = Object.keys(restreamSchema.shape).sort();
const mine = restreams.filter((restream) => restream.accountId === 1).sort((a, b) => b.id - a.id);
const theirs = restreams.find((restream) => restream.accountId === 2)!;
const liveStream = streams.find((stream) => stream.accountId === 1 && stream.live)!;
const offlineStream = streams.find((stream) => stream.accountId === 1 && !stream.live && !stream.backupLive)!;
const theirStream = streams.find((stream) => stream.accountId === 2)!;
const otherUser = users.find((user) => user.accountId === 1 && !user.deleted && user.id !== demoToken(1, "role-1-active").userId)!;
const theirUser = users.find((user) => user.accountId === 2)!;

async function restreamRows(api: TestApi) {
  return selectRows<Record<string, unknown>>(api.database.db, sql`select * from restreams order by id`);
}

describe.each(engines())("restreams on %s", (engine) => {
  const api = useApi(engine);
  const create = (restream: unknown) => api.call("POST", "/streaming/restreams", { body: { restream } });
  const update = (id: number, restream: unknown) => api.call("PATCH", `/streaming/restreams/${id}`, { body: { restream } });

  it("the fixture has what these tests need", () => {
    expect(mine.some((restream) => shownRestream(restream).live)).toBe(true);
    expect(mine.some((restream) => !shownRestream(restream).live)).toBe(true);
    expect(theirs).toBeDefined();
  });

  it("lists the account's restreams newest first with X-Total-Count, and shows one", async () => {
    const reply = await api.call("GET", "/streaming/restreams");
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toEqual(mine.slice(0, RESTREAMS_PAGE_SIZE).map(shownRestream));
    expect(reply.headers.get("x-total-count")).toBe(String(mine.length));
    for (const item of reply.body as Restream[]) expect(Object.keys(item).sort()).toEqual(RESTREAM_FIELDS);
    expect((await api.call("GET", "/streaming/restreams?page=2")).body).toEqual([]);
    for (const restream of mine) expect((await api.call("GET", `/streaming/restreams/${restream.id}`)).body).toEqual(shownRestream(restream));
    expect((await api.call("GET", "/streaming/restreams", { as: [2, "role-1-active"] })).body).toEqual([shownRestream(theirs)]);
  });

  it("another account's restream answers 404 to every route, and is left as it was", async () => {
    const before = await restreamRows(api);
    expectEnvelope(await api.call("GET", `/streaming/restreams/${theirs.id}`), 404, "not_found");
    expectEnvelope(await update(theirs.id, { active: false }), 404, "not_found");
    expectEnvelope(await api.call("DELETE", `/streaming/restreams/${theirs.id}`), 404, "not_found");
    expect(await restreamRows(api)).toEqual(before);
  });

  it("makes a restream with its defaults; live follows its switch and its stream's ingest", async () => {
    const reply = await create({ name: "To Twitch", stream_id: liveStream.id, uri: "rtmps://live.twitch.tv:443/app/key-1" });
    expect(reply.status, reply.text).toBe(201);
    const made = reply.body as Restream;
    expect(made).toEqual({
      id: expect.any(Number),
      name: "To Twitch",
      stream_id: liveStream.id,
      uri: "rtmps://live.twitch.tv:443/app/key-1",
      active: true,
      live: true,
      client_user_id: demoToken(1, "role-1-active").userId,
    });
    expect(made.id).toBeGreaterThan(Math.max(...restreams.map((restream) => restream.id)));
    expect((await update(made.id, { active: false })).body).toEqual({ ...made, active: false, live: false });
    expect((await update(made.id, { active: true, stream_id: offlineStream.id })).body).toEqual({ ...made, stream_id: offlineStream.id, live: false });
    // The stream going live (the service's doing) makes the restream live.
    await api.database.db.execute(sql`update streams set live = true where id = ${offlineStream.id}`);
    expect((await api.call("GET", `/streaming/restreams/${made.id}`)).body).toEqual({ ...made, stream_id: offlineStream.id, live: true });
  });

  it("sets every field and changes only the fields given", async () => {
    const made = (await create({ name: "SRT out", stream_id: offlineStream.id, uri: "srt://out.example:9000?mode=caller", active: false, client_user_id: otherUser.id })).body as Restream;
    expect(made).toMatchObject({ name: "SRT out", uri: "srt://out.example:9000?mode=caller", active: false, live: false, client_user_id: otherUser.id });
    const renamed = await update(made.id, { name: "SRT feed", uri: "srt://out.example:9001" });
    expect(renamed.body).toEqual({ ...made, name: "SRT feed", uri: "srt://out.example:9001" });
    expect((await update(made.id, {})).body).toEqual(renamed.body);
  });

  it.each<[string, unknown, string[]]>([
    ["nothing", {}, ["restream.name", "restream.stream_id", "restream.uri"]],
    ["another account's stream and user", { name: "A", stream_id: theirStream.id, uri: "rtmp://a.example/x", client_user_id: theirUser.id }, ["restream.stream_id", "restream.client_user_id"]],
    ["an http target", { name: "A", stream_id: 1, uri: "https://a.example/x" }, ["restream.uri"]],
    ["an SRT listener target", { name: "A", stream_id: 1, uri: "srt://a.example:9000?mode=listener" }, ["restream.uri"]],
    ["read-only and unknown fields", { name: "A", stream_id: 1, uri: "rtmp://a.example/x", live: true, id: 3, colour: "red" }, ["restream.live", "restream.id", "restream.colour"]],
  ])("%s is 400 naming the fields, and makes nothing", async (_what, restream, fields) => {
    const before = await restreamRows(api);
    expectEnvelope(await create(restream), 400, "validation_error", fields);
    expect(await restreamRows(api)).toEqual(before);
  });

  it("deletes a restream (204, no body); a second delete is 404; a stream's delete takes its restreams", async () => {
    const made = (await create({ name: "Gone", stream_id: liveStream.id, uri: "rtmp://a.example/x" })).body as Restream;
    const deleted = await api.call("DELETE", `/streaming/restreams/${made.id}`);
    expect(deleted.status, deleted.text).toBe(204);
    expect(deleted.text).toBe("");
    expectEnvelope(await api.call("DELETE", `/streaming/restreams/${made.id}`), 404, "not_found");

    const stream = (await api.call("POST", "/streaming/streams", { body: { name: "Restreamed" } })).body as Stream;
    const kept = (await create({ name: "With its stream", stream_id: stream.id, uri: "rtmp://a.example/y" })).body as Restream;
    expect((await api.call("DELETE", `/streaming/streams/${stream.id}`)).status).toBe(204);
    expectEnvelope(await api.call("GET", `/streaming/restreams/${kept.id}`), 404, "not_found");
  });

  it("the read-only Users role reads restreams but changes none", async () => {
    expect((await api.call("GET", "/streaming/restreams", { as: [1, "role-2-active"] })).status).toBe(200);
    const before = await restreamRows(api);
    expectEnvelope(await api.call("POST", "/streaming/restreams", { as: [1, "role-2-active"], body: { restream: { name: "A", stream_id: 1, uri: "rtmp://a.example/x" } } }), 403, "permission_denied");
    expectEnvelope(await api.call("PATCH", `/streaming/restreams/${mine[0]!.id}`, { as: [1, "role-2-active"], body: { restream: { active: false } } }), 403, "permission_denied");
    expect(await restreamRows(api)).toEqual(before);
  });
});
