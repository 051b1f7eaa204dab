/**
 * Streaming area: live streams and the clips recorded from them, their HTML overlays, broadcasts and
 * restreams, and their statistics, one module per resource.
 */
import type { Contract, PrimaryRoutes } from "@cloudplane/contract";
import type { RouteDeps } from "../types.js";
import { streamingBroadcasts } from "./broadcasts.js";
import { streamingOverlays } from "./overlays.js";
import { streamingRestreams } from "./restreams.js";
import { streamingStreams } from "./streams.js";
import { streamingStatistics } from "./statistics.js";

export function streamingRoutes(deps: RouteDeps) {
  return {
    ...streamingStreams(deps),
    ...streamingStatistics(deps),
    ...streamingOverlays(deps),
    ...streamingBroadcasts(deps),
    ...streamingRestreams(deps),
  } satisfies Record<keyof PrimaryRoutes<Contract["streaming"]>, unknown>;
}
