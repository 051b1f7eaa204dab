/**
 * The cloudplane API on AWS Lambda behind an API Gateway HTTP API (payload 2.0; REST API events work
 * too), configured from the environment as every deployment is. The database from DATABASE_URL is
 * opened on the first event and reused by the ones after it.
 */
import { lambdaHandlerFromEnv } from "@cloudplane/handlers/lambda";

/**
 * The Lambda handler: `index.handler` in the bundle (dist/index.mjs). One instance serves one event at
 * a time, so one connection is enough; applying missing migrations is safe from many cold starts at
 * once, and a no-op once they are in.
 */
export const handler = lambdaHandlerFromEnv(process.env, { database: { max: 1, connectTimeout: 5 } });
