/**
 * Streaming area: live streams and the clips recorded from them, their HTML overlays, broadcasts and
 * restreams, and their statistics, one module per resource; the area's router.
 */
import { initContract } from "@ts-rest/core";
import { streamingBroadcastsRoutes } from "./broadcasts.js";
import { streamingOverlaysRoutes } from "./overlays.js";
import { streamingRestreamsRoutes } from "./restreams.js";
import { streamingStreamsRoutes } from "./streams.js";
import { streamingStatisticsRoutes } from "./statistics.js";

export * from "./streams.js";
export * from "./statistics.js";
export * from "./overlays.js";
export * from "./broadcasts.js";
export * from "./restreams.js";

const c = initContract();

export const streamingContract = c.router({
  ...streamingStreamsRoutes,
  ...streamingStatisticsRoutes,
  ...streamingOverlaysRoutes,
  ...streamingBroadcastsRoutes,
  ...streamingRestreamsRoutes,
});
