/** The handlers' secrets scan over this package's run: every reply, log entry and error report of the harness. */
export { default } from "@cloudplane/handlers/testing/global-setup";
