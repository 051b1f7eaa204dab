/**
 * IAM: the account's API tokens (`client.iam.tokens`).
 */
import type { ApiToken, ListApiTokensQuery } from "@cloudplane/contract";
import type { APIPromise } from "../core/api-promise.js";
import type { ClientOptions, RequestOptions } from "../core/options.js";
import { APIResource } from "../core/resource.js";
import { iamRoutes } from "../core/routes.generated.js";
import { Transport } from "../core/transport.js";

export class Tokens extends APIResource {
  /**
   * `GET /iam/clients/{clientId}/tokens`: the account's API tokens, by id ascending. Administrators see
   * every token of the account, Engineers and Users only their own. Note the API's inverted `deleted`
   * filter: `deleted: true` returns the tokens that are not deleted.
   */
  list(clientId: number, query?: ListApiTokensQuery, options?: RequestOptions): APIPromise<ApiToken[]> {
    return this.transport.request(iamRoutes.listTokens, { params: { clientId }, query }, options);
  }
}

/** The IAM area. */
export class Iam {
  readonly tokens: Tokens;

  constructor(transport: Transport) {
    this.tokens = new Tokens(transport);
  }
}

/** A client of the IAM area alone, for bundles that need nothing else. */
export function createIamClient(options?: ClientOptions): Iam {
  return new Iam(new Transport(options));
}
