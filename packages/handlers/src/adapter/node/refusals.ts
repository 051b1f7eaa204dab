/**
 * Answers given in the handler's place: when Node's HTTP layer fails on the body of a request the
 * handler is serving (the body stops coming, or is not valid HTTP), the handler would wait for a body
 * that never comes; the request is answered in the envelope instead, with the request id the handler
 * logs it under.
 */
import type { ServerResponse } from "node:http";
import { errorResponse, type ApiError } from "../../errors.js";

interface Pending {
  requestId: string;
  settle(answer: Response): void;
}

const pending = new WeakMap<ServerResponse, Pending>();

export const refusals = {
  /** The handler's answer to a request with a body, or the envelope `refuse` gives first in its place. */
  race(reply: ServerResponse, requestId: string, answer: Promise<Response>): Promise<Response> {
    // One promise, settled by the first of the two; the entry goes with it.
    return new Promise<Response>((resolve, reject) => {
      const settle = (response: Response) => {
        pending.delete(reply);
        resolve(response);
      };
      pending.set(reply, { requestId, settle });
      answer.then(settle, (error: Error) => {
        pending.delete(reply);
        reject(error);
      });
    });
  },

  /** Answers `reply` with the envelope of `error` if the handler has not answered yet; false if it has. */
  refuse(reply: ServerResponse, error: ApiError): boolean {
    const entry = pending.get(reply);
    if (!entry) return false;
    entry.settle(errorResponse(error, entry.requestId));
    return true;
  },
};
