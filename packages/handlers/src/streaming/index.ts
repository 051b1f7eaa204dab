/**
 * Streaming routes: live streams and the clips recorded from them, videos on demand with their subtitles and
 * directories, quality sets, players, playlists and AI tasks, one module per resource.
 */
import type { Contract, PrimaryRoutes } from "@cloudplane/contract";
import type { RouteDeps } from "../types.js";
import { streamingAiTasks } from "./ai-tasks.js";
import { streamingDirectories } from "./directories.js";
import { streamingPlayers } from "./players.js";
import { streamingPlaylists } from "./playlists.js";
import { streamingQualitySetsHandlers } from "./quality-sets.js";
import { streamingStreams } from "./streams.js";
import { streamingSubtitles } from "./subtitles.js";
import { streamingVideos } from "./videos.js";

export function streamingRoutes(deps: RouteDeps) {
  return {
    ...streamingStreams(deps),
    ...streamingVideos(deps),
    ...streamingSubtitles(deps),
    ...streamingDirectories(deps),
    ...streamingQualitySetsHandlers(deps),
    ...streamingPlayers(deps),
    ...streamingPlaylists(deps),
    ...streamingAiTasks(deps),
  } satisfies Record<keyof PrimaryRoutes<Contract["streaming"]>, unknown>;
}
