/**
 * The base of every group of methods (`client.cdn.resources`, `client.edge.apps`, …): they all
 * call the API through one transport.
 */
import type { Transport } from "./transport.js";

export abstract class APIResource {
  protected readonly transport: Transport;

  constructor(transport: Transport) {
    this.transport = transport;
  }
}
