/**
 * @cloudplane/contract: every route of the cloud platform API, defined once with ts-rest and zod.
 * The handlers, the client and the docs are all derived from `contract` and its list of routes, `ROUTES`.
 */
export { AREAS, contract, type Contract } from "./contract.js";
export { ROUTES, routeById, type Area, type ContractRoute, type PrimaryRouteId, type RouteId } from "./routes.js";
export { clientMethodOf, clientMethods, type ClientMetadata, type ClientMethod, type ClientNameMetadata } from "./client-names.js";
export { alias, aliasOf, primaryRoutes, type AliasMetadata, type AliasNames, type PrimaryRoutes } from "./alias.js";
export {
  ROUTE_EXAMPLES,
  routeExample,
  type AnyRouteExample,
  type AreaRouteExamples,
  type ExampleResponseHeader,
  type RouteExample,
  type RouteExamples,
  type RouteOf,
} from "./route-examples.js";
export * from "./common.js";
export { bodyTypeOf, isBytes, JSON_BODY, RAW_BODY, rawBytes, type BodyType, type RawBodyMetadata } from "./body.js";
export { limitedFields, type FieldPath, type LimitedField } from "./fields.js";
export * from "./roles.js";
export * from "./iam.js";
export * from "./cdn.js";
export * from "./edge.js";
export * from "./streaming.js";
export * from "./cloud.js";
export * from "./security.js";
export * from "./storage.js";
export * as examples from "./examples.js";
