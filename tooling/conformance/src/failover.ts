/**
 * What a deployment answers while its database fails over (its connections ended by a failover, a
 * restart or an idle-session kill): the suite cannot end them from outside, so the caller does and
 * hands over the replies its clients got meanwhile.
 */
import type { Reply } from "./client.js";
import { expectEnvelope, expectTrue } from "./expect.js";

/**
 * Every reply `during` the failover is a 200, or a 503 `unavailable` in the error envelope with a
 * Retry-After of at least a second (never a 500, a hang or a dropped connection); each reply `after` it
 * is a 200. Answers how many of each there were.
 */
export function expectFailoverAnswers(during: Reply[], after: Reply[]): { served: number; unavailable: number } {
  let served = 0;
  for (const reply of during) {
    if (reply.status === 200) {
      served++;
      continue;
    }
    expectEnvelope(reply, 503, "unavailable");
    expectTrue(Number(reply.headers.get("retry-after")) >= 1, "a 503 names a Retry-After of at least a second", reply);
  }
  for (const reply of after) expectTrue(reply.status === 200, "once the database is back, every request is served", reply);
  return { served, unavailable: during.length - served };
}
