/**
 * The client's plain types (src/core/api.generated.ts, written from the contract's JSON Schema walk)
 * against the contract's zod types, route by route: the same route ids, and for each route path
 * parameters, query and body as `z.input` types them, and the success response as `z.output` types it.
 * What the client lets a caller send, the contract accepts; what the contract answers, the client's
 * type holds; and both ways for every route but the few where zod's type is the looser one (a
 * `z.preprocess` input is `unknown`; a template's field value is `{} | null` there, `unknown` here).
 * Checked by the package's typecheck; a type that strays names its routes.
 */
import type { Contract, CostReportTotalsAnswer as ContractAnswer, CostReportTotalsBody as ContractTotalsBody, ErrorCode as ContractErrorCode, ErrorEnvelope as ContractEnvelope } from "@cloudplane/contract";
import { expectTypeOf } from "vitest";
import type { z } from "zod";
import type { CostReportTotalsAnswer } from "../src/core/answers.js";
import type { CostReportTotalsBody, ErrorCode, ErrorEnvelope, Routes } from "../src/core/api.generated.js";

type ContractRouteId = { [Area in keyof Contract]: `${Area}.${keyof Contract[Area] & string}` }[keyof Contract];
type ContractRoute<Id> = Id extends `${infer Area extends keyof Contract}.${infer Name}` ? (Name extends keyof Contract[Area] ? Contract[Area][Name] : never) : never;

type Input<Route, Part extends string> = Route extends { [Key in Part]: infer Schema extends z.ZodTypeAny } ? z.input<Schema> : never;
type SuccessSchema<Responses> = Responses extends { 200: infer Schema extends z.ZodTypeAny }
  ? Schema
  : Responses extends { 201: infer Schema extends z.ZodTypeAny }
    ? Schema
    : never;
type Output<Route> = Route extends { responses: infer Responses } ? ([SuccessSchema<Responses>] extends [never] ? undefined : z.output<SuccessSchema<Responses>>) : never;

/** The same type, as assignability sees it both ways. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Contracted<Id, Part> = Part extends "params"
  ? Input<ContractRoute<Id>, "pathParams">
  : Part extends "query" | "body"
    ? Input<ContractRoute<Id>, Part>
    : Output<ContractRoute<Id>>;
type Part = "params" | "query" | "body" | "response";
/** The routes whose `Part` is not the contract's, either way. */
type Strays<P extends Part> = { [Id in keyof Routes]: Same<Routes[Id][P], Contracted<Id, P>> extends true ? never : Id }[keyof Routes];
/** The routes whose request `Part` the contract does not accept, or whose response the client's type does not hold. */
type Unsound<P extends Part> = {
  [Id in keyof Routes]: (P extends "response" ? [Contracted<Id, P>] extends [Routes[Id][P]] ? true : false : [Routes[Id][P]] extends [Contracted<Id, P>] ? true : false) extends true ? never : Id;
}[keyof Routes];

export function sameRoutes() {
  expectTypeOf<keyof Routes>().toEqualTypeOf<ContractRouteId>();
}

export function sameParts() {
  expectTypeOf<Unsound<"params">>().toEqualTypeOf<never>();
  expectTypeOf<Unsound<"query">>().toEqualTypeOf<never>();
  expectTypeOf<Unsound<"body">>().toEqualTypeOf<never>();
  expectTypeOf<Unsound<"response">>().toEqualTypeOf<never>();
  expectTypeOf<Strays<"params">>().toEqualTypeOf<never>();
  // A BGP announce list's `origin` is preprocessed (a comma-separated text or a list): `unknown` to zod.
  expectTypeOf<Strays<"query">>().toEqualTypeOf<"security.listBgpAnnounces">();
  // A token's `exp_date` and a profile's `fields[].field_value` are preprocessed: `unknown` to zod.
  expectTypeOf<Strays<"body">>().toEqualTypeOf<"iam.createToken" | "iam.v2CreateToken" | "security.createProfile" | "security.updateProfile" | "security.recreateProfile">();
  // A template field's `field_value` is `unknown` here, `{} | null` to zod.
  expectTypeOf<Strays<"response">>().toEqualTypeOf<"security.listProfiles" | "security.getProfile" | "security.createProfile" | "security.updateProfile" | "security.recreateProfile">();
}

export function sameErrors() {
  expectTypeOf<ErrorCode>().toEqualTypeOf<ContractErrorCode>();
  expectTypeOf<Same<ErrorEnvelope, ContractEnvelope>>().toEqualTypeOf<true>();
}

export function sameAnswers() {
  expectTypeOf<Same<CostReportTotalsBody, ContractTotalsBody>>().toEqualTypeOf<true>();
  type Csv = { time_from: string; time_to: string; response_format: "csv_totals" };
  type Json = { time_from: string; time_to: string };
  expectTypeOf<Same<CostReportTotalsAnswer<Csv>, ContractAnswer<Csv>>>().toEqualTypeOf<true>();
  expectTypeOf<Same<CostReportTotalsAnswer<Json>, ContractAnswer<Json>>>().toEqualTypeOf<true>();
}
