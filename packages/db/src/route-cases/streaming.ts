/**
 * Route cases of the Streaming area: one valid request per route on the demo data (see ../route-cases.ts).
 */
import type { DemoFixture, DemoAccountId } from "../demo-fixture.js";
import { type AreaRouteCases, first, uniqueName } from "./case.js";

export function streamingRouteCases(fixture: DemoFixture) {
  const stream = (account: DemoAccountId) => first(fixture.streams, `stream of account ${account}`, (candidate) => candidate.accountId === account);
  const dvrStream = (account: DemoAccountId) =>
    first(fixture.streams, `live stream with DVR of account ${account}`, (candidate) => candidate.accountId === account && candidate.live && candidate.dvrDuration > 0);
  return {
    "streaming.listStreams": { path: () => "/streaming/streams", ownsObjects: false },
    "streaming.getStream": { path: (account) => `/streaming/streams/${stream(account).id}`, ownsObjects: true },
    "streaming.createStream": {
      path: () => "/streaming/streams",
      ownsObjects: false,
      body: () => ({ name: uniqueName("route-case-stream"), dvr_enabled: true }),
    },
    "streaming.updateStream": {
      path: (account) => `/streaming/streams/${stream(account).id}`,
      ownsObjects: true,
      body: () => ({ stream: { auto_record: true } }),
    },
    "streaming.deleteStream": {
      path: (account, made) => `/streaming/streams/${made?.id ?? 2_147_483_000 + account}`,
      ownsObjects: true,
      makes: "streaming.createStream",
    },
    "streaming.listClipRecordings": { path: (account) => `/streaming/streams/${dvrStream(account).id}/clip_recording`, ownsObjects: true },
    "streaming.createClipRecording": {
      path: (account) => `/streaming/streams/${dvrStream(account).id}/clip_recording`,
      ownsObjects: true,
      body: (account) => ({ duration: Math.min(30, dvrStream(account).dvrDuration) }),
    },
  } satisfies AreaRouteCases<"streaming">;
}
