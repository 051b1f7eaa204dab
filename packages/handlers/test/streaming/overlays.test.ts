/**
 * Integration tests of a stream's HTML overlays on every engine: the listing and one overlay as the
 * fixture holds them, adding a list at once (all or none, the per-stream limit), changing one or a list
 * (the box and `stretch` exclusive), deleting, 404 for another account's, and the stream showing them.
 */
import { OVERLAYS_PER_STREAM_MAX, type Overlay, type Stream } from "@cloudplane/contract";
import { demoFixture, sql } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi, type TestApi } from "../harness.js";
import { shownOverlay } from "./shown.js";

const { streamOverlays, streams } = demoFixture;

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const overlaidStream = streams.find((stream) => stream.accountId === 1 && streamOverlays.some((overlay) => overlay.streamId === stream.id))!;
const bareStream = streams.find((stream) => stream.accountId === 1 && !streamOverlays.some((overlay) => overlay.streamId === stream.id))!;
const theirOverlay = streamOverlays.find((overlay) => overlay.accountId === 2)!;
const overlaysOf = (streamId: number) => streamOverlays.filter((overlay) => overlay.streamId === streamId).sort((a, b) => a.id - b.id);

async function overlayRows(api: TestApi, streamId: number) {
  return selectRows<Record<string, unknown>>(api.database.db, sql`select * from stream_overlays where stream_id = ${streamId} order by id`);
}

describe.each(engines())("stream overlays on %s", (engine) => {
  const api = useApi(engine);
  const path = (streamId: number, overlayId?: number) => `/streaming/streams/${streamId}/overlays${overlayId === undefined ? "" : `/${overlayId}`}`;

  it("the fixture has what these tests need", () => {
    expect(overlaysOf(overlaidStream.id).length).toBeGreaterThanOrEqual(2);
    expect(bareStream).toBeDefined();
    expect(theirOverlay).toBeDefined();
  });

  it("lists a stream's overlays by id and shows one; the stream shows them too", async () => {
    const expected = overlaysOf(overlaidStream.id).map(shownOverlay);
    const list = await api.call("GET", path(overlaidStream.id));
    expect(list.status, list.text).toBe(200);
    expect(list.body).toEqual(expected);
    const one = await api.call("GET", path(overlaidStream.id, expected[0]!.id));
    expect(one.body).toEqual(expected[0]);
    expect(((await api.call("GET", `/streaming/streams/${overlaidStream.id}`)).body as Stream).html_overlays).toEqual(expected);
    expect((await api.call("GET", path(bareStream.id))).body).toEqual([]);
    // An overlay of another stream of the account is not this stream's.
    expectEnvelope(await api.call("GET", path(bareStream.id, expected[0]!.id)), 404, "not_found");
  });

  it("another account's stream and overlay answer 404, as ids that do not exist", async () => {
    expectEnvelope(await api.call("GET", path(theirOverlay.streamId)), 404, "not_found");
    expectEnvelope(await api.call("GET", path(theirOverlay.streamId, theirOverlay.id)), 404, "not_found");
    expectEnvelope(await api.call("PATCH", path(theirOverlay.streamId, theirOverlay.id), { body: { x: 1 } }), 404, "not_found");
    expectEnvelope(await api.call("PATCH", path(theirOverlay.streamId), { body: [{ id: theirOverlay.id, x: 1 }] }), 404, "not_found");
    expectEnvelope(await api.call("POST", path(theirOverlay.streamId), { body: [{ url: "https://a.example/w.html" }] }), 404, "not_found");
    expectEnvelope(await api.call("DELETE", path(theirOverlay.streamId, theirOverlay.id)), 404, "not_found");
    expect(await overlayRows(api, theirOverlay.streamId)).toHaveLength(overlaysOf(theirOverlay.streamId).length);
  });

  it("adds a list of overlays at once with their defaults, and answers them as made", async () => {
    const reply = await api.call("POST", path(bareStream.id), {
      body: [{ url: "https://widgets.acme.example/a.html", width: 300, height: 100, x: 10, y: 20 }, { url: "http://widgets.acme.example/b.html", stretch: true }, { url: "https://widgets.acme.example/c.html" }],
    });
    expect(reply.status, reply.text).toBe(201);
    const made = reply.body as Overlay[];
    expect(made).toEqual([
      { id: expect.any(Number), stream_id: bareStream.id, url: "https://widgets.acme.example/a.html", width: 300, height: 100, x: 10, y: 20, stretch: false, created_at: expect.stringMatching(ISO), updated_at: expect.stringMatching(ISO) },
      { id: expect.any(Number), stream_id: bareStream.id, url: "http://widgets.acme.example/b.html", width: null, height: null, x: null, y: null, stretch: true, created_at: expect.stringMatching(ISO), updated_at: expect.stringMatching(ISO) },
      { id: expect.any(Number), stream_id: bareStream.id, url: "https://widgets.acme.example/c.html", width: null, height: null, x: null, y: null, stretch: false, created_at: expect.stringMatching(ISO), updated_at: expect.stringMatching(ISO) },
    ]);
    expect(made[0]!.id).toBeGreaterThan(Math.max(...streamOverlays.map((overlay) => overlay.id)));
    expect((await api.call("GET", path(bareStream.id))).body).toEqual(made);
  });

  it.each<[string, unknown, string[]]>([
    ["an empty list", [], ["body"]],
    ["an object instead of a list", { url: "https://a.example/w.html" }, ["body"]],
    ["no url", [{ width: 10 }], ["0.url"]],
    ["a url of another scheme", [{ url: "ftp://a.example/w.html" }], ["0.url"]],
    ["a box past the frame", [{ url: "https://a.example/w.html", width: 1921, height: 0, x: 1920, y: -1 }], ["0.width", "0.height", "0.x", "0.y"]],
    ["stretch with a box", [{ url: "https://a.example/w.html", stretch: true, x: 5, width: 10 }], ["0.x", "0.width"]],
    ["read-only and unknown fields", [{ url: "https://a.example/w.html" }, { url: "https://a.example/v.html", id: 9, stream_id: 1, colour: "red" }], ["1.id", "1.stream_id", "1.colour"]],
  ])("%s is 400 naming the fields, and adds nothing", async (_what, body, fields) => {
    const before = await overlayRows(api, bareStream.id);
    expectEnvelope(await api.call("POST", path(bareStream.id), { body }), 400, "validation_error", fields);
    expect(await overlayRows(api, bareStream.id)).toEqual(before);
  });

  it(`a stream takes at most ${OVERLAYS_PER_STREAM_MAX} overlays: more is 422 and adds none of the list`, async () => {
    const stream = streams.filter((candidate) => candidate.accountId === 1 && !streamOverlays.some((overlay) => overlay.streamId === candidate.id))[1]!;
    const fill = Array.from({ length: OVERLAYS_PER_STREAM_MAX - 1 }, (_, n) => ({ url: `https://widgets.acme.example/${n}.html` }));
    expect((await api.call("POST", path(stream.id), { body: fill })).status).toBe(201);
    const over = await api.call("POST", path(stream.id), { body: [{ url: "https://widgets.acme.example/x.html" }, { url: "https://widgets.acme.example/y.html" }] });
    expect(expectEnvelope(over, 422, "unprocessable").message).toContain(String(OVERLAYS_PER_STREAM_MAX));
    expect(await overlayRows(api, stream.id)).toHaveLength(OVERLAYS_PER_STREAM_MAX - 1);
    expect((await api.call("POST", path(stream.id), { body: [{ url: "https://widgets.acme.example/last.html" }] })).status).toBe(201);
    expectEnvelope(await api.call("POST", path(stream.id), { body: [{ url: "https://widgets.acme.example/more.html" }] }), 422, "unprocessable");
  });

  it("changes one overlay's fields given; stretch clears the box, a box field unsets stretch", async () => {
    const [made] = (await api.call("POST", path(bareStream.id), { body: [{ url: "https://widgets.acme.example/one.html", width: 100, height: 50, x: 0, y: 0 }] })).body as Overlay[];
    const moved = await api.call("PATCH", path(bareStream.id, made!.id), { body: { x: 200, y: 300 } });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toEqual({ ...made, x: 200, y: 300, updated_at: expect.stringMatching(ISO) });
    const stretched = (await api.call("PATCH", path(bareStream.id, made!.id), { body: { stretch: true } })).body as Overlay;
    expect(stretched).toMatchObject({ stretch: true, width: null, height: null, x: null, y: null, url: made!.url });
    const boxed = (await api.call("PATCH", path(bareStream.id, made!.id), { body: { width: 640, height: 360 } })).body as Overlay;
    expect(boxed).toMatchObject({ stretch: false, width: 640, height: 360, x: null, y: null });
    expect((await api.call("GET", path(bareStream.id, made!.id))).body).toEqual(boxed);

    const row = await overlayRows(api, bareStream.id);
    expectEnvelope(await api.call("PATCH", path(bareStream.id, made!.id), { body: { stretch: true, y: 4 } }), 400, "validation_error", ["y"]);
    expectEnvelope(await api.call("PATCH", path(bareStream.id, made!.id), { body: { url: "javascript:alert(1)", created_at: "2026-01-01T00:00:00.000Z" } }), 400, "validation_error", [
      "url",
      "created_at",
    ]);
    expect(await overlayRows(api, bareStream.id)).toEqual(row);
    expectEnvelope(await api.call("PATCH", path(bareStream.id, 2_147_483_000), { body: { x: 1 } }), 404, "not_found");
  });

  it("changes a list of overlays at once, all or none, answering them in the body's order", async () => {
    const [first, second] = overlaysOf(overlaidStream.id).map(shownOverlay);
    const reply = await api.call("PATCH", path(overlaidStream.id), { body: [{ id: second!.id, url: "https://widgets.acme.example/ticker-2.html" }, { id: first!.id, y: 10 }] });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toEqual([
      { ...second, url: "https://widgets.acme.example/ticker-2.html", updated_at: expect.stringMatching(ISO) },
      { ...first, y: 10, updated_at: expect.stringMatching(ISO) },
    ]);
    expect(Date.parse((reply.body as Overlay[])[0]!.updated_at)).toBeGreaterThan(Date.parse(second!.updated_at));

    const before = await overlayRows(api, overlaidStream.id);
    // An overlay of another stream, another account's, and one named twice: each item named, nothing changed.
    const [elsewhere] = (await api.call("POST", path(bareStream.id), { body: [{ url: "https://widgets.acme.example/else.html" }] })).body as Overlay[];
    expectEnvelope(
      await api.call("PATCH", path(overlaidStream.id), { body: [{ id: first!.id, x: 5 }, { id: elsewhere!.id, x: 5 }, { id: theirOverlay.id, x: 5 }] }),
      400,
      "validation_error",
      ["1.id", "2.id"],
    );
    expectEnvelope(await api.call("PATCH", path(overlaidStream.id), { body: [{ id: first!.id, x: 5 }, { id: first!.id, y: 5 }] }), 400, "validation_error", ["1.id"]);
    expectEnvelope(await api.call("PATCH", path(overlaidStream.id), { body: [{ x: 5 }] }), 400, "validation_error", ["0.id"]);
    expect(await overlayRows(api, overlaidStream.id)).toEqual(before);
  });

  it("deletes an overlay (204, no body); a second delete is 404; the stream's delete takes its overlays", async () => {
    const stream = (await api.call("POST", "/streaming/streams", { body: { name: "Overlaid", html_overlay: true } })).body as Stream;
    const made = (await api.call("POST", path(stream.id), { body: [{ url: "https://widgets.acme.example/1.html" }, { url: "https://widgets.acme.example/2.html" }] })).body as Overlay[];
    const deleted = await api.call("DELETE", path(stream.id, made[0]!.id));
    expect(deleted.status, deleted.text).toBe(204);
    expect(deleted.text).toBe("");
    expectEnvelope(await api.call("DELETE", path(stream.id, made[0]!.id)), 404, "not_found");
    expect(((await api.call("GET", `/streaming/streams/${stream.id}`)).body as Stream).html_overlays).toEqual([made[1]]);
    expect((await api.call("DELETE", `/streaming/streams/${stream.id}`)).status).toBe(204);
    expect(await overlayRows(api, stream.id)).toEqual([]);
  });

  it("the read-only Users role reads overlays but changes none", async () => {
    const as = [1, "role-2-active"] as const;
    expect((await api.call("GET", path(overlaidStream.id), { as: [...as] })).status).toBe(200);
    const before = await overlayRows(api, overlaidStream.id);
    expectEnvelope(await api.call("POST", path(overlaidStream.id), { as: [...as], body: [{ url: "https://a.example/w.html" }] }), 403, "permission_denied");
    expectEnvelope(await api.call("PATCH", path(overlaidStream.id, before[0]!.id as number), { as: [...as], body: { x: 1 } }), 403, "permission_denied");
    expectEnvelope(await api.call("DELETE", path(overlaidStream.id, before[0]!.id as number), { as: [...as] }), 403, "permission_denied");
    expect(await overlayRows(api, overlaidStream.id)).toEqual(before);
  });
});
