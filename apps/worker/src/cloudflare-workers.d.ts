/** The part of the Workers runtime's `cloudflare:workers` module this worker uses: its bindings, at load. */
declare module "cloudflare:workers" {
  export const env: Record<string, unknown>;
}
