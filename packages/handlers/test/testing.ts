/**
 * @cloudplane/handlers/testing: the test harness of this repository's packages (test/harness.ts), for
 * the tests of the packages that serve the handler (the client, the conformance suite). It records
 * for the secrets scan, so the package's vitest config needs the scan's global setup, from its own
 * entry (a global setup cannot import vitest): a test/global-setup.ts of
 * `export { default } from "@cloudplane/handlers/testing/global-setup";`.
 */
export * from "./harness.js";
