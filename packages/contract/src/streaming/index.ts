/**
 * Streaming area: live streams and the clips recorded from them, one module per resource; the area's router.
 */
import { initContract } from "@ts-rest/core";
import { streamingStreamsRoutes } from "./streams.js";

export * from "./streams.js";

const c = initContract();

export const streamingContract = c.router({
  ...streamingStreamsRoutes,
});
