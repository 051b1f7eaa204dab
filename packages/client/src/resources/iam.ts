/**
 * IAM: the account's API tokens (`client.iam.tokens`) and the caller's account (`client.iam.getAccount`).
 */
import type { AccountOverview, ApiToken, CreateApiTokenBody, CreatedApiToken, ListApiTokensQuery } from "@cloudplane/contract";
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

  /**
   * `POST /iam/clients/{clientId}/tokens` (Administrators only): issues a token for `client_user.user_id`
   * (default: the caller). The answer's `token` is the token itself, shown this once: store it.
   */
  create(clientId: number, body: CreateApiTokenBody, options?: RequestOptions): APIPromise<CreatedApiToken> {
    return this.transport.request(iamRoutes.createToken, { params: { clientId }, body }, options);
  }

  /** `GET /iam/clients/{clientId}/tokens/{tokenId}`: one token, revoked ones included. */
  get(clientId: number, tokenId: number, options?: RequestOptions): APIPromise<ApiToken> {
    return this.transport.request(iamRoutes.getToken, { params: { clientId, tokenId } }, options);
  }

  /** `DELETE /iam/clients/{clientId}/tokens/{tokenId}`: revokes the token for good. */
  delete(clientId: number, tokenId: number, options?: RequestOptions): APIPromise<void> {
    return this.transport.request(iamRoutes.deleteToken, { params: { clientId, tokenId } }, options);
  }
}

/** The IAM area. */
export class Iam extends APIResource {
  readonly tokens: Tokens;

  constructor(transport: Transport) {
    super(transport);
    this.tokens = new Tokens(transport);
  }

  /** `GET /iam/clients/me`: the caller's account, the calling user and the account's users. */
  getAccount(options?: RequestOptions): APIPromise<AccountOverview> {
    return this.transport.request(iamRoutes.getAccount, {}, options);
  }
}

/** A client of the IAM area alone, for bundles that need nothing else. */
export function createIamClient(options?: ClientOptions): Iam {
  return new Iam(new Transport(options));
}
