/**
 * Streaming routes: live streams, their recordings and the clips cut from them, their HTML overlays, broadcasts and
 * restreams; videos on demand with their subtitles and directories, quality sets, players, playlists and AI
 * tasks; and the statistics, one module per resource.
 */
import type { Contract, PrimaryRoutes } from "@cloudplane/contract";
import type { RouteDeps } from "../types.js";
import { streamingAiTasks } from "./ai-tasks.js";
import { streamingBroadcasts } from "./broadcasts.js";
import { streamingDirectories } from "./directories.js";
import { streamingOverlays } from "./overlays.js";
import { streamingPlayers } from "./players.js";
import { streamingPlaylists } from "./playlists.js";
import { streamingQualitySetsHandlers } from "./quality-sets.js";
import { streamingRecordings } from "./recordings.js";
import { streamingRestreams } from "./restreams.js";
import { streamingStatistics } from "./statistics.js";
import { streamingStreams } from "./streams.js";
import { streamingSubtitles } from "./subtitles.js";
import { streamingVideos } from "./videos.js";

export function streamingRoutes(deps: RouteDeps) {
  return {
    ...streamingStreams(deps),
    ...streamingRecordings(deps),
    ...streamingOverlays(deps),
    ...streamingBroadcasts(deps),
    ...streamingRestreams(deps),
    ...streamingVideos(deps),
    ...streamingSubtitles(deps),
    ...streamingDirectories(deps),
    ...streamingQualitySetsHandlers(deps),
    ...streamingPlayers(deps),
    ...streamingPlaylists(deps),
    ...streamingAiTasks(deps),
    ...streamingStatistics(deps),
  } satisfies Record<keyof PrimaryRoutes<Contract["streaming"]>, unknown>;
}
