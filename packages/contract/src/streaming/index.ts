/**
 * Streaming area: live streams, their recordings and the clips cut from them, their HTML overlays, broadcasts and
 * restreams; videos on demand and what they are filed, subtitled, transcoded and played with, playlists and
 * AI tasks; and the statistics of them all, one module per resource; the area's router.
 */
import { initContract } from "@ts-rest/core";
import { streamingAiTasksRoutes } from "./ai-tasks.js";
import { streamingBroadcastsRoutes } from "./broadcasts.js";
import { streamingDirectoriesRoutes } from "./directories.js";
import { streamingOverlaysRoutes } from "./overlays.js";
import { streamingPlayersRoutes } from "./players.js";
import { streamingPlaylistsRoutes } from "./playlists.js";
import { streamingQualitySetsRoutes } from "./quality-sets.js";
import { streamingRecordingsRoutes } from "./recordings.js";
import { streamingRestreamsRoutes } from "./restreams.js";
import { streamingStatisticsRoutes } from "./statistics.js";
import { streamingStreamsRoutes } from "./streams.js";
import { streamingSubtitlesRoutes } from "./subtitles.js";
import { streamingVideosRoutes } from "./videos.js";

export * from "./streams.js";
export * from "./recordings.js";
export * from "./overlays.js";
export * from "./broadcasts.js";
export * from "./restreams.js";
export * from "./videos.js";
export * from "./subtitles.js";
export * from "./directories.js";
export * from "./quality-sets.js";
export * from "./players.js";
export * from "./playlists.js";
export * from "./ai-tasks.js";
export * from "./statistics.js";

const c = initContract();

export const streamingContract = c.router({
  ...streamingStreamsRoutes,
  ...streamingRecordingsRoutes,
  ...streamingOverlaysRoutes,
  ...streamingBroadcastsRoutes,
  ...streamingRestreamsRoutes,
  ...streamingVideosRoutes,
  ...streamingSubtitlesRoutes,
  ...streamingDirectoriesRoutes,
  ...streamingQualitySetsRoutes,
  ...streamingPlayersRoutes,
  ...streamingPlaylistsRoutes,
  ...streamingAiTasksRoutes,
  ...streamingStatisticsRoutes,
});
