/**
 * An example product's code that calls the cloudplane API through @cloudplane/client. It takes the
 * client as an argument, so its tests can hand it one bound to @cloudplane/testing's platform.
 */
export { publishSite, unpublishSite, type Publication, type Site } from "./sites.js";
export { monthlySpend, type MonthlySpend } from "./costs.js";
export { PlatformProblem, asPlatformProblem, type ProblemKind } from "./problems.js";
export { productClient, type ProductSettings } from "./client.js";
