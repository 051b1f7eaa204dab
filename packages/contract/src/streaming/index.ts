/**
 * Streaming area: live streams and the clips recorded from them, videos on demand and what they are filed,
 * subtitled, transcoded and played with, playlists and AI tasks, one module per resource; the area's router.
 */
import { initContract } from "@ts-rest/core";
import { streamingAiTasksRoutes } from "./ai-tasks.js";
import { streamingDirectoriesRoutes } from "./directories.js";
import { streamingPlayersRoutes } from "./players.js";
import { streamingPlaylistsRoutes } from "./playlists.js";
import { streamingQualitySetsRoutes } from "./quality-sets.js";
import { streamingStreamsRoutes } from "./streams.js";
import { streamingSubtitlesRoutes } from "./subtitles.js";
import { streamingVideosRoutes } from "./videos.js";

export * from "./streams.js";
export * from "./videos.js";
export * from "./subtitles.js";
export * from "./directories.js";
export * from "./quality-sets.js";
export * from "./players.js";
export * from "./playlists.js";
export * from "./ai-tasks.js";

const c = initContract();

export const streamingContract = c.router({
  ...streamingStreamsRoutes,
  ...streamingVideosRoutes,
  ...streamingSubtitlesRoutes,
  ...streamingDirectoriesRoutes,
  ...streamingQualitySetsRoutes,
  ...streamingPlayersRoutes,
  ...streamingPlaylistsRoutes,
  ...streamingAiTasksRoutes,
});
