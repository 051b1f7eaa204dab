// The run's database image and PostgreSQL template, made once before the test files start (see prepareTestDatabases).
export { prepareTestDatabases as default } from "@cloudplane/db/testing";
