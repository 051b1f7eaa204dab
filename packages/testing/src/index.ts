/**
 * @cloudplane/testing: the cloudplane platform inside a product repository's tests. The API's real
 * handler on an in-memory PGlite, in the test process: a bound client, typed builders, a fast reset
 * and failure injection. Works under vitest and jest, from ESM and CommonJS.
 */
export {
  createTestPlatform,
  IN_PROCESS_BASE_URL,
  type ListenOptions,
  type PlatformCall,
  type PlatformClientOptions,
  type PlatformFetch,
  type TestPlatform,
  type TestPlatformOptions,
} from "./platform.js";
export {
  Builders,
  type AccountOptions,
  type BuiltAccount,
  type InAccount,
  type RoleName,
  type TokenOptions,
  type UsageLine,
  type UsageLineInput,
} from "./builders.js";
export {
  FaultTable,
  PlatformClosedError,
  type FaultKind,
  type FaultOptions,
  type PendingFault,
  type RetryAfterOptions,
  type RouteSelector,
  type TokenRef,
} from "./faults.js";
export { type Preset, type SeededAdministrator } from "./presets.js";
export { platformCatalog } from "@cloudplane/db";
