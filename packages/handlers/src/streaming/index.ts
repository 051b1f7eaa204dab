/**
 * Streaming routes: live streams and the clips recorded from them, one module per resource.
 */
import type { Contract, PrimaryRoutes } from "@cloudplane/contract";
import type { RouteDeps } from "../types.js";
import { streamingStreams } from "./streams.js";

export function streamingRoutes(deps: RouteDeps) {
  return {
    ...streamingStreams(deps),
  } satisfies Record<keyof PrimaryRoutes<Contract["streaming"]>, unknown>;
}
