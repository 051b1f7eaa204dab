/**
 * What every method returns: a promise of the typed body that can also give the response's status,
 * headers and request id (`.withResponse()`). An object body also carries its request id itself.
 */

import type { Page } from "./pagination.js";

/** A successful call: the typed body and what came with it. */
export interface APIResponse<T> {
  /** The body as the contract types it. */
  body: T;
  status: number;
  headers: Headers;
  /** The `x-request-id` the API answered with: quote it when reporting a problem. */
  requestId: string | undefined;
  /** The fetch Response; its body has been read already. */
  response: Response;
}

/**
 * An object a call returned, with the `x-request-id` of the response that brought it as `_request_id`.
 * The property is not enumerable: JSON, spreads, `Object.keys` and deep equality leave it out, so the
 * object can be sent back as a body as it is.
 */
export type WithRequestId<T> = T & { readonly _request_id?: string };

/**
 * What awaiting a call gives: an object body with its request id; a page (which has `requestId`), an
 * array, a value or no body as it is.
 */
export type Answered<T> = T extends readonly unknown[] | Page<unknown, unknown> ? T : T extends object ? WithRequestId<T> : T;

/** `body` with `requestId` as its non-enumerable `_request_id` when it is an object (not an array). */
function withRequestId<T>(body: T, requestId: string | undefined): Answered<T> {
  if (requestId !== undefined && typeof body === "object" && body !== null && !Array.isArray(body))
    Object.defineProperty(body, "_request_id", { value: requestId, enumerable: false });
  return body as Answered<T>;
}

/** A promise of the typed body; `await` it for the body, or call `.withResponse()` for the rest too. */
export class APIPromise<T> implements PromiseLike<Answered<T>> {
  readonly #response: Promise<APIResponse<T>>;
  #parsed: Promise<Answered<T>> | undefined;

  constructor(response: Promise<APIResponse<T>>) {
    this.#response = response;
  }

  /** The body together with the status, headers and request id. */
  withResponse(): Promise<APIResponse<T>> {
    return this.#response;
  }

  /** The value `await` gives for `response`: its body, with its request id when it is an object. */
  protected answer(response: APIResponse<T>): Answered<T> {
    return withRequestId(response.body, response.requestId);
  }

  #body(): Promise<Answered<T>> {
    return (this.#parsed ??= this.#response.then((response) => this.answer(response)));
  }

  then<Fulfilled = Answered<T>, Rejected = never>(
    onfulfilled?: ((value: Answered<T>) => Fulfilled | PromiseLike<Fulfilled>) | null,
    onrejected?: ((reason: unknown) => Rejected | PromiseLike<Rejected>) | null,
  ): Promise<Fulfilled | Rejected> {
    return this.#body().then(onfulfilled, onrejected);
  }

  catch<Rejected = never>(onrejected?: ((reason: unknown) => Rejected | PromiseLike<Rejected>) | null): Promise<Answered<T> | Rejected> {
    return this.#body().catch(onrejected);
  }

  finally(onfinally?: (() => void) | null): Promise<Answered<T>> {
    return this.#body().finally(onfinally);
  }

  get [Symbol.toStringTag](): string {
    return "APIPromise";
  }
}
