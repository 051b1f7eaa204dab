/**
 * Paged lists: a page holds its items, the total and the way to the next page, and both a page and
 * the promise of one are async-iterable over every item from there to the last page.
 */
import { APIPromise, type APIResponse } from "./api-promise.js";

/** How a list is paged: where its items and total are, and the query of the page after a given one. */
export interface Paging<Item, Body, Query> {
  items(body: Body): Item[];
  total(body: Body, headers: Headers): number | undefined;
  /** The query of the next page, or undefined on the last page. */
  next(query: Query, items: Item[], total: number | undefined): Query | undefined;
}

/** Lists paged by `limit` and `offset` with the total in the body (edge apps, inference models). */
export function offsetPaging<Item, Body extends { count: number }, Query extends { offset?: number | undefined }>(
  items: (body: Body) => Item[],
): Paging<Item, Body, Query> {
  return {
    items,
    total: (body) => body.count,
    next(query, pageItems, total) {
      const offset = (query.offset ?? 0) + pageItems.length;
      return pageItems.length > 0 && total !== undefined && offset < total ? { ...query, offset } : undefined;
    },
  };
}

/**
 * Lists that answer a bare array paged by `limit` (`defaultLimit` when the query does not set it) and
 * `offset`, with no total (security profiles): a full page may have another after it.
 */
export function arrayPaging<Item, Query extends { limit?: number | undefined; offset?: number | undefined }>(
  defaultLimit: number,
): Paging<Item, Item[], Query> {
  return {
    items: (body) => body,
    total: () => undefined,
    next(query, pageItems) {
      const full = pageItems.length >= (query.limit ?? defaultLimit);
      return pageItems.length > 0 && full ? { ...query, offset: (query.offset ?? 0) + pageItems.length } : undefined;
    },
  };
}

/**
 * Lists paged by a 1-based `page` number of `pageSize` items, with the total in the `X-Total-Count`
 * header (streams). Without the header, a full page is taken to mean there may be another.
 */
export function pageNumberPaging<Item, Query extends { page?: number | undefined }>(pageSize: number): Paging<Item, Item[], Query> {
  return {
    items: (body) => body,
    total(_body, headers) {
      const total = Number.parseInt(headers.get("x-total-count") ?? "", 10);
      return Number.isNaN(total) ? undefined : total;
    },
    next(query, pageItems, total) {
      const page = query.page ?? 1;
      const seen = (page - 1) * pageSize + pageItems.length;
      const more = total === undefined ? pageItems.length >= pageSize : seen < total;
      return pageItems.length > 0 && more ? { ...query, page: page + 1 } : undefined;
    },
  };
}

/** One page of a list. Iterate it (`for await`) to get every item from this page to the last. */
export class Page<Item, Body = unknown> implements AsyncIterable<Item> {
  /** The items of this page. */
  readonly items: Item[];
  /** The number of items over all pages, as the API counts them; undefined when it did not say. */
  readonly total: number | undefined;
  /** The body as the API sent it (`{ apps, count }`, `{ count, results }`, or the array of streams). */
  readonly body: Body;
  readonly status: number;
  readonly headers: Headers;
  readonly requestId: string | undefined;
  readonly #next: (() => PagePromise<Item, Body>) | undefined;

  constructor(response: APIResponse<Body>, items: Item[], total: number | undefined, next: (() => PagePromise<Item, Body>) | undefined) {
    this.items = items;
    this.total = total;
    this.body = response.body;
    this.status = response.status;
    this.headers = response.headers;
    this.requestId = response.requestId;
    this.#next = next;
  }

  hasNextPage(): boolean {
    return this.#next !== undefined;
  }

  /** The next page; throws when this is the last one (check `hasNextPage()` first). */
  getNextPage(): PagePromise<Item, Body> {
    if (!this.#next) throw new RangeError("This is the last page: there is no next page.");
    return this.#next();
  }

  /** This page and every page after it. */
  async *iterPages(): AsyncGenerator<Page<Item, Body>, void, undefined> {
    yield this;
    let next = this.#next;
    while (next) {
      const page = await next();
      yield page;
      next = page.#next;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    for await (const page of this.iterPages()) yield* page.items;
  }
}

/** The promise of a page: `await` it for the page, or `for await` over it for every item of every page. */
export class PagePromise<Item, Body = unknown> extends APIPromise<Page<Item, Body>> implements AsyncIterable<Item> {
  /** The page itself: it has its request id as `requestId`. */
  protected override answer(response: APIResponse<Page<Item, Body>>): Page<Item, Body> {
    return response.body;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    yield* await this;
  }
}

/**
 * Loads the page of `query` with `load` and wires each page to the next, so that callers never
 * compute offsets or page numbers themselves.
 */
export function loadPage<Item, Body, Query>(
  load: (query: Query) => Promise<APIResponse<Body>>,
  paging: Paging<Item, Body, Query>,
  query: Query,
): PagePromise<Item, Body> {
  const response = load(query).then((loaded) => {
    const items = paging.items(loaded.body);
    const total = paging.total(loaded.body, loaded.headers);
    const nextQuery = paging.next(query, items, total);
    const next = nextQuery === undefined ? undefined : () => loadPage(load, paging, nextQuery);
    const page = new Page(loaded, items, total, next);
    return { ...loaded, body: page };
  });
  return new PagePromise(response);
}
