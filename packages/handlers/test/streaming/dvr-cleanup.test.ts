/**
 * Integration tests of clearing a stream's DVR window on every engine: 204 on a stream with DVR on,
 * after which no clip may start before the clearing (and may again as the window refills); 422 with DVR
 * off; 404 for another account's stream; refused to the read-only role.
 */
import type { ClipRecording } from "@cloudplane/contract";
import { demoFixture, sql } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi } from "../harness.js";

const { streams } = demoFixture;

const liveWithDvr = streams.find((stream) => stream.accountId === 1 && stream.live && stream.dvrDuration > 0)!;
const dvrOff = streams.find((stream) => stream.accountId === 1 && stream.dvrDuration === 0)!;
const theirDvr = streams.find((stream) => stream.accountId === 2 && stream.dvrDuration > 0)!;

const nowSeconds = () => Math.floor(Date.now() / 1000);

describe.each(engines())("DVR clearing on %s", (engine) => {
  const api = useApi(engine);
  const clear = (id: number, options: { body?: unknown; as?: [1 | 2, "role-1-active" | "role-2-active"] } = {}) =>
    api.call("PUT", `/streaming/streams/${id}/dvr_cleanup`, options);
  const clearedAt = async (id: number) =>
    (await selectRows<{ cleared: Date | string | null }>(api.database.db, sql`select dvr_cleared_at as cleared from streams where id = ${id}`))[0]!.cleared;

  it("clears the window: a clip may not start before the clearing, and may after it", async () => {
    // Before: a clip of the last minute is cut.
    expect((await api.call("PUT", `/streaming/streams/${liveWithDvr.id}/clip_recording`, { body: { start: nowSeconds() - 60, duration: 30 } })).status).toBe(200);
    const cleared = await clear(liveWithDvr.id);
    expect(cleared.status, cleared.text).toBe(204);
    expect(cleared.text).toBe("");
    const at = new Date(await clearedAt(liveWithDvr.id) as string | Date).getTime();
    expect(Math.abs(at - Date.now())).toBeLessThan(60_000);

    const refused = expectEnvelope(
      await api.call("PUT", `/streaming/streams/${liveWithDvr.id}/clip_recording`, { body: { start: nowSeconds() - 60, duration: 30 } }),
      400,
      "validation_error",
      ["start"],
    );
    expect(refused.errors!.start![0]).toContain("cleared");
    // The window refills as the stream goes on: a clip from now on is cut.
    const after = await api.call("PUT", `/streaming/streams/${liveWithDvr.id}/clip_recording`, { body: { start: nowSeconds() + 2, duration: 30 } });
    expect(after.status, after.text).toBe(200);
    expect((after.body as ClipRecording).start).toBeGreaterThanOrEqual(Math.floor(at / 1000));
  });

  it("takes no body or an empty object; any field is 400", async () => {
    expect((await clear(liveWithDvr.id, { body: {} })).status).toBe(204);
    expectEnvelope(await clear(liveWithDvr.id, { body: { before: 1 } }), 400, "validation_error", ["before"]);
  });

  it("a stream with DVR off is 422; another account's stream is 404; the Users role is 403; none changes", async () => {
    expect(expectEnvelope(await clear(dvrOff.id), 422, "unprocessable").message).toContain("DVR off");
    expectEnvelope(await clear(theirDvr.id), 404, "not_found");
    expectEnvelope(await clear(liveWithDvr.id, { as: [1, "role-2-active"] }), 403, "permission_denied");
    expect(await clearedAt(dvrOff.id)).toBeNull();
    expect(await clearedAt(theirDvr.id)).toBeNull();
  });
});
