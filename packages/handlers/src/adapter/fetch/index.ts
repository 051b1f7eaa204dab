/**
 * Fetch runtime entry (Cloudflare Workers, Deno, Bun, Vercel): `export default { fetch }`, configured
 * from the environment (Workers bindings, or the process environment elsewhere). On Workers each request
 * is served by the isolate's handler on a connection of its own (workers.ts); elsewhere one handler on a
 * pooled database serves every request.
 */
import { createHandlerFromEnv, type Env } from "../../from-env.js";
import { lazyHandler } from "../../lazy.js";
import type { Handler } from "../../types.js";
import { workersHandler, type ExecutionContext } from "../../workers.js";

export { createHandler } from "../../handler.js";
export type { Handler, HandlerOptions } from "../../types.js";
export { createHandlerFromEnv, type Env } from "../../from-env.js";
export { prepareIsolate, type ExecutionContext } from "../../workers.js";

/** The most of an unread request body that is read and dropped before answering. */
const DISCARD_LIMIT_BYTES = 16 * 1024 * 1024;

/**
 * Reads and drops what the handler left of a request body (it answers 413 to a body declared over
 * 1 MiB without reading it): workerd resets a connection whose body was left unread, so a client
 * still sending it could lose the answer. Past the limit the body is cancelled instead.
 */
async function discardUnreadBody(request: Request): Promise<void> {
  if (!request.body || request.bodyUsed) return;
  let read = 0;
  const sink = new WritableStream<Uint8Array>({
    write(chunk, controller) {
      read += chunk.byteLength;
      if (read > DISCARD_LIMIT_BYTES) controller.error(new Error("Request body too large to discard."));
    },
  });
  await request.body.pipeTo(sink).catch(() => undefined);
}

let pooled: Handler | undefined;

function processEnv(): Env {
  return (globalThis as { process?: { env?: Env } }).process?.env ?? {};
}

/**
 * The Workers branch alone (`export default { fetch: workersFetch }`): a Workers bundle that imports only
 * this leaves out the other runtimes' path, which opens a database and applies its migrations (their SQL
 * is a fifth of a bundle), since a worker never migrates.
 */
export async function workersFetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  const response = await workersHandler(env, ctx)(request);
  await discardUnreadBody(request);
  return response;
}

export default {
  async fetch(request: Request, env?: Env, ctx?: ExecutionContext): Promise<Response> {
    if (env && typeof ctx?.waitUntil === "function") return workersFetch(request, env, ctx);
    pooled ??= lazyHandler(() => createHandlerFromEnv(env ?? processEnv()));
    return pooled(request);
  },
};
