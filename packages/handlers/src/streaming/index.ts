/**
 * Streaming routes: live streams and the clips recorded from them, and their statistics, one module per resource.
 */
import type { Contract, PrimaryRoutes } from "@cloudplane/contract";
import type { RouteDeps } from "../types.js";
import { streamingStreams } from "./streams.js";
import { streamingStatistics } from "./statistics.js";

export function streamingRoutes(deps: RouteDeps) {
  return {
    ...streamingStreams(deps),
    ...streamingStatistics(deps),
  } satisfies Record<keyof PrimaryRoutes<Contract["streaming"]>, unknown>;
}
