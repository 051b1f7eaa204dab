/**
 * The product's own view of what can go wrong with the platform: a problem it can explain to its
 * users, made from the client's typed errors.
 */
import { APIConnectionError, APIError, AuthenticationError, RateLimitError, ServiceUnavailableError } from "@cloudplane/client";

export type ProblemKind = "credentials" | "busy" | "unreachable" | "rejected";

export class PlatformProblem extends Error {
  constructor(
    readonly kind: ProblemKind,
    message: string,
    readonly requestId: string | undefined,
    options?: { cause: unknown },
  ) {
    super(message, options);
    this.name = "PlatformProblem";
  }
}

/** What the client threw while doing `doing`, as a problem the product can show; anything else as it is. */
export function asPlatformProblem(error: unknown, doing: string): unknown {
  if (!(error instanceof APIError)) return error;
  const cause = { cause: error };
  if (error instanceof AuthenticationError)
    return new PlatformProblem("credentials", `The platform refused our API token while ${doing}: renew it.`, error.requestId, cause);
  if (error instanceof RateLimitError || error instanceof ServiceUnavailableError) {
    const wait = error.headers?.get("retry-after");
    return new PlatformProblem("busy", `The platform is busy; ${doing} can be tried again${wait ? ` in ${wait} s` : " later"}.`, error.requestId, cause);
  }
  // A timeout is a connection error too: the platform did not answer in time.
  if (error instanceof APIConnectionError) return new PlatformProblem("unreachable", `The platform did not answer while ${doing}.`, error.requestId, cause);
  return new PlatformProblem("rejected", `The platform refused ${doing}: ${error.message}`, error.requestId, cause);
}
