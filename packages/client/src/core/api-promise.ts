/**
 * What every method returns: a promise of the typed body that can also give the response's status,
 * headers and request id (`.withResponse()`).
 */

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

/** A promise of the typed body; `await` it for the body, or call `.withResponse()` for the rest too. */
export class APIPromise<T> implements PromiseLike<T> {
  readonly #response: Promise<APIResponse<T>>;
  #parsed: Promise<T> | undefined;

  constructor(response: Promise<APIResponse<T>>) {
    this.#response = response;
  }

  /** The body together with the status, headers and request id. */
  withResponse(): Promise<APIResponse<T>> {
    return this.#response;
  }

  #body(): Promise<T> {
    return (this.#parsed ??= this.#response.then((response) => response.body));
  }

  then<Fulfilled = T, Rejected = never>(
    onfulfilled?: ((value: T) => Fulfilled | PromiseLike<Fulfilled>) | null,
    onrejected?: ((reason: unknown) => Rejected | PromiseLike<Rejected>) | null,
  ): Promise<Fulfilled | Rejected> {
    return this.#body().then(onfulfilled, onrejected);
  }

  catch<Rejected = never>(onrejected?: ((reason: unknown) => Rejected | PromiseLike<Rejected>) | null): Promise<T | Rejected> {
    return this.#body().catch(onrejected);
  }

  finally(onfinally?: (() => void) | null): Promise<T> {
    return this.#body().finally(onfinally);
  }

  get [Symbol.toStringTag](): string {
    return "APIPromise";
  }
}
