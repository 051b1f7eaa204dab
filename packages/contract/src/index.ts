/**
 * @cloudplane/contract: every route of the cloud platform API, defined once with ts-rest and zod.
 * The handlers, the client and the docs are all derived from `contract` and its list of routes, `ROUTES`.
 */
export { AREAS, contract, type Contract } from "./contract.js";
export { ROUTES, routeById, type Area, type ContractRoute, type PrimaryRouteId, type RouteId } from "./routes.js";
export { clientMethodOf, clientMethods, type ClientMetadata, type ClientMethod, type ClientNameMetadata } from "./client-names.js";
export { alias, aliasOf, primaryRoutes, type AliasMetadata, type AliasNames, type PrimaryRoutes } from "./alias.js";
export { routeCases, routeExample, type AnyRouteExample } from "./route-examples.js";
export { route, type RouteExtras } from "./route.js";
export type { ExampleResponseHeader, NewAccountAnswer, RouteExample } from "./route-example.js";
export {
  caseSpecOf,
  fillPath,
  madeObject,
  missingId,
  pathParams,
  prepareRouteCases,
  routeCasePath,
  uniqueName,
  type CaseAccount,
  type CaseObject,
  type CaseReadOptions,
  type CaseRoute,
  type CaseSend,
  type CaseWorld,
  type RouteCase,
  type RouteCaseSpec,
} from "./route-case.js";
export * from "./common.js";
export { bodyTypeOf, isBytes, JSON_BODY, RAW_BODY, rawBytes, type BodyType, type RawBodyMetadata } from "./body.js";
export { limitedFields, type FieldPath, type LimitedField } from "./fields.js";
export * from "./roles.js";
export * from "./iam/index.js";
export * from "./cdn/index.js";
export * from "./edge/index.js";
export * from "./streaming/index.js";
export * from "./cloud/index.js";
export * from "./security/index.js";
export * from "./storage/index.js";
export * as examples from "./examples.js";
export { namedSchemas, SchemaConverter, unwrapped, type SchemaObject, type SchemaSide } from "./json-schema.js";
