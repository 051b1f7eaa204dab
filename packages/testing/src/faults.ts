/**
 * Failure injection: the next calls of a route answer 429 or 503 in the API's error envelope, or never
 * answer; and a token expires or is revoked. For the unhappy paths product code must handle.
 */
import { ERROR_STATUS, type Area, type ErrorEnvelope, type RouteId } from "@cloudplane/contract";
import type { ContractRoute } from "@cloudplane/contract";

/** Which calls a fault is for: one route (`"cdn.getResource"`), every route of an area (`"cdn.*"`), or every route (`"*"`). */
export type RouteSelector = RouteId | `${Area}.*` | "*";

export type FaultKind = "rate_limited" | "unavailable" | "timeout";

export interface FaultOptions {
  /** How many calls it answers, from the next one on. Default 1; `Infinity` until `faults.clear()` or `reset()`. */
  times?: number;
}

export interface RetryAfterOptions extends FaultOptions {
  /** The `Retry-After` it answers with, in whole seconds. Default 1. */
  retryAfter?: number;
}

/** A fault still waiting for calls. */
export interface PendingFault {
  route: RouteSelector;
  kind: FaultKind;
  /** Calls it will still answer (`Infinity` for one set with `times: Infinity`). */
  remaining: number;
}

interface Fault extends PendingFault {
  retryAfter: number;
}

/** The error a call gets whose fault made it wait when the platform closes. */
export class PlatformClosedError extends Error {
  constructor() {
    super("The test platform was closed while this call waited for an answer it was never going to get (a timeout fault).");
    this.name = "PlatformClosedError";
  }
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** The request id the API would answer with: the caller's when it is one the API accepts, else a new one. */
export function requestIdOf(request: Request): string {
  const sent = request.headers.get("x-request-id");
  return sent && REQUEST_ID.test(sent) ? sent : `req_${crypto.randomUUID().replaceAll("-", "")}`;
}

function count(name: string, value: number, allowInfinity: boolean): number {
  if ((allowInfinity && value === Infinity) || (Number.isInteger(value) && value >= 0)) return value;
  throw new TypeError(`${name} must be a whole number of 0 or more${allowInfinity ? " (or Infinity)" : ""}; got ${value}.`);
}

function envelopeResponse(request: Request, code: "rate_limited" | "unavailable", message: string, retryAfter: number): Response {
  const requestId = requestIdOf(request);
  const envelope: ErrorEnvelope = { message, code, request_id: requestId };
  const headers = { "content-type": "application/json", "x-request-id": requestId, "retry-after": String(retryAfter) };
  return new Response(request.method === "HEAD" ? null : JSON.stringify(envelope), { status: ERROR_STATUS[code], headers });
}

/** A token: the token itself, its id, or an object with its id (a builder's or the API's answer). */
export type TokenRef = string | number | { id: number };

/** How a platform changes its tokens in its database. */
export interface TokenChanges {
  expire(token: TokenRef | undefined): Promise<void>;
  revoke(token: TokenRef | undefined): Promise<void>;
}

/** The faults of one platform, and the calls they hold waiting. */
export class FaultTable {
  readonly #faults: Fault[] = [];
  readonly #waiting = new Set<(error: Error) => void>();
  readonly #tokens: TokenChanges;

  constructor(tokens: TokenChanges) {
    this.#tokens = tokens;
  }

  /**
   * The token's `exp_date` becomes a second ago: every call with it answers 401 `token_not_valid` from
   * then on, as when a token runs out. Default: the token of the platform's `client`. Undone by `reset()`.
   */
  expireToken(token?: TokenRef): Promise<void> {
    return this.#tokens.expire(token);
  }

  /**
   * The token is revoked (deleted), as `DELETE /iam/clients/{clientId}/tokens/{tokenId}` does: every call
   * with it answers 401 from then on. Default: the token of the platform's `client`. Undone by `reset()`.
   */
  revokeToken(token?: TokenRef): Promise<void> {
    return this.#tokens.revoke(token);
  }

  /** The next `times` calls answer 429 `rate_limited` with `Retry-After`, as a token over its request rate gets. */
  rateLimit(route: RouteSelector, options: RetryAfterOptions = {}): void {
    this.#add(route, "rate_limited", options);
  }

  /** The next `times` calls answer 503 `unavailable` with `Retry-After`, as during a database outage. */
  unavailable(route: RouteSelector, options: RetryAfterOptions = {}): void {
    this.#add(route, "unavailable", options);
  }

  /**
   * The next `times` calls never answer: they wait until the caller gives up (its `AbortSignal`, which
   * the client's `timeout` uses) and then fail as fetch does when aborted, or until the platform closes.
   */
  timeout(route: RouteSelector, options: FaultOptions = {}): void {
    this.#add(route, "timeout", options);
  }

  /** The faults still waiting for calls, in the order they were set. */
  pending(): PendingFault[] {
    return this.#faults.map(({ route, kind, remaining }) => ({ route, kind, remaining }));
  }

  /** Removes every fault that is waiting for calls (calls already held waiting stay so). */
  clear(): void {
    this.#faults.length = 0;
  }

  /** Fails every call held waiting; for when the platform closes. */
  releaseWaiting(): void {
    for (const release of this.#waiting) release(new PlatformClosedError());
    this.#waiting.clear();
  }

  #add(route: RouteSelector, kind: FaultKind, options: RetryAfterOptions): void {
    const times = count("times", options.times ?? 1, true);
    const retryAfter = count("retryAfter", options.retryAfter ?? 1, false);
    if (times > 0) this.#faults.push({ route, kind, remaining: times, retryAfter });
  }

  /**
   * The fault that answers a call of `route` (undefined: none), counted as used. The first fault set
   * that covers the route answers; a fault set on an operation covers its aliases too.
   */
  take(route: ContractRoute | undefined): Fault | undefined {
    if (!route) return undefined;
    const covering = new Set<string>(["*", `${route.area}.*`, route.id, ...(route.aliasOf ? [route.aliasOf] : [])]);
    const index = this.#faults.findIndex((fault) => covering.has(fault.route));
    if (index === -1) return undefined;
    const fault = this.#faults[index]!;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.#faults.splice(index, 1);
    return fault;
  }

  /** The fault's answer to `request`; for a timeout, a promise that settles only when the request is aborted or the platform closes. */
  answer(fault: Fault, request: Request): Promise<Response> {
    if (fault.kind === "rate_limited")
      return Promise.resolve(
        envelopeResponse(
          request,
          "rate_limited",
          `Too many requests for this API token. Retry after ${fault.retryAfter} s. (A fault set with platform.faults.rateLimit.)`,
          fault.retryAfter,
        ),
      );
    if (fault.kind === "unavailable")
      return Promise.resolve(
        envelopeResponse(
          request,
          "unavailable",
          "The service cannot reach its database; try again shortly. (A fault set with platform.faults.unavailable.)",
          fault.retryAfter,
        ),
      );
    return new Promise<Response>((_resolve, reject) => {
      const signal = request.signal;
      const release = (error: Error) => {
        signal.removeEventListener("abort", onAbort);
        this.#waiting.delete(release);
        reject(error);
      };
      // What fetch rejects with when its signal aborts: the signal's reason (an AbortError unless given another).
      const onAbort = () => {
        const reason: unknown = signal.reason;
        release(reason instanceof Error ? reason : new DOMException("This operation was aborted", "AbortError"));
      };
      if (signal.aborted) {
        onAbort();
        return;
      }
      this.#waiting.add(release);
      signal.addEventListener("abort", onAbort, { once: true });
    });
  }
}
