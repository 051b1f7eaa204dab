/**
 * Stands in for PGlite in the Workers build (wrangler.toml [alias]): a worker always reaches
 * PostgreSQL, so the embedded database, megabytes of WebAssembly, stays out of the bundle.
 */
throw new Error("PGlite is not part of the Workers build: set DATABASE_URL or a Hyperdrive binding named HYPERDRIVE.");

export {};
