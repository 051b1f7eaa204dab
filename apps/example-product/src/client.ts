/**
 * The product's client of the platform: its own timeout and retries, from its settings. Tests give it
 * the test platform's `fetch` and base URL instead of the network's.
 */
import { createClient, type CloudplaneClient, type Fetch } from "@cloudplane/client";

export interface ProductSettings {
  apiKey: string;
  baseUrl: string;
  /** Default: the runtime's fetch. */
  fetch?: Fetch;
}

/** The product calls the platform with short timeouts: a page waits at most 2 s a try, 3 tries. */
export function productClient(settings: ProductSettings): CloudplaneClient {
  return createClient({ ...settings, timeout: 2_000, maxRetries: 2 });
}
