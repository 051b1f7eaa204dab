/** What a handler keeps between requests, made once and shared by the handlers of one instance. */
import { TokenCache } from "./auth.js";
import type { HandlerMemory } from "./types.js";

export function createHandlerMemory(authCacheMs?: number): HandlerMemory {
  return { tokens: new TokenCache(authCacheMs), leases: new Map() };
}
