/**
 * Streaming area: live streams and the clips recorded from them, and their statistics, one module per resource; the area's router.
 */
import { initContract } from "@ts-rest/core";
import { streamingStreamsRoutes } from "./streams.js";
import { streamingStatisticsRoutes } from "./statistics.js";

export * from "./streams.js";
export * from "./statistics.js";

const c = initContract();

export const streamingContract = c.router({
  ...streamingStreamsRoutes,
  ...streamingStatisticsRoutes,
});
