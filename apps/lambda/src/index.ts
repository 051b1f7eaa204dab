/**
 * The cloudplane API on AWS Lambda behind an API Gateway HTTP API (payload 2.0; REST API events work
 * too), configured from the environment as every deployment is. The database from DATABASE_URL is
 * opened when the function starts and reused by every event. No type lookup on connecting (Drizzle parses
 * arrays itself), as on Workers: one round trip less before the first event.
 */
import { lambdaHandlerFromEnv } from "@cloudplane/handlers/lambda";

/**
 * The Lambda handler: `index.handler` in the bundle (dist/index.mjs). One instance serves one event at
 * a time, so one connection is enough; applying missing migrations is safe from many cold starts at
 * once, and a no-op once they are in.
 */
export const handler = lambdaHandlerFromEnv(process.env, { database: { max: 1, connectTimeout: 5, fetchTypes: false } });

// Lambda runs a module's top level in the function's init phase, before its first event (and ahead of
// time with provisioned concurrency): the connection, the migrations' check and the routes are made
// there, so the first event is served as the ones after it. A failed setup is logged and tried again by
// the first event.
await handler.warm();
