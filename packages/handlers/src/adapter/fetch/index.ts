/**
 * Fetch runtime entry (Cloudflare Workers, Deno, Bun, Vercel): `export default { fetch }`, configured
 * from the environment (Workers bindings, or the process environment elsewhere).
 */
import { createHandlerFromEnv, type Env } from "../../from-env.js";
import { lazyHandler } from "../../lazy.js";
import type { Handler } from "../../handler.js";

export { createHandler, type Handler, type HandlerOptions } from "../../handler.js";
export { createHandlerFromEnv } from "../../from-env.js";

let handler: Handler | undefined;

function processEnv(): Env {
  return (globalThis as { process?: { env?: Env } }).process?.env ?? {};
}

export default {
  fetch(request: Request, env?: Env): Promise<Response> {
    handler ??= lazyHandler(() => createHandlerFromEnv(env ?? processEnv()));
    return handler(request);
  },
};
