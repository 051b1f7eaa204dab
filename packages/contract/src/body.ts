/**
 * How a route takes its body. Every body of this API is JSON, but for a route whose metadata says
 * `bodyType: "application/octet-stream"`: that one takes raw bytes (an edge binary's upload). The
 * handlers, the client, the docs and the test suites read the type from here, so a new raw route
 * needs nothing but its metadata.
 */
import type { AppRoute } from "@ts-rest/core";
import { z } from "zod";
import type { RouteMetadata } from "./roles.js";

export const JSON_BODY = "application/json";
export const RAW_BODY = "application/octet-stream";

/** The media type a route's body is sent with. */
export type BodyType = typeof JSON_BODY | typeof RAW_BODY;

/** The metadata of a route that takes its body as raw bytes. */
export interface RawBodyMetadata extends RouteMetadata {
  bodyType: typeof RAW_BODY;
}

/** The media type `route` takes its body in: application/json unless its metadata says otherwise. */
export function bodyTypeOf(route: AppRoute): BodyType {
  return (route.metadata as Partial<RawBodyMetadata> | undefined)?.bodyType === RAW_BODY ? RAW_BODY : JSON_BODY;
}

/** Whether `value` is a byte array (a Uint8Array, Node's Buffer among them), from any realm. */
export function isBytes(value: unknown): value is Uint8Array {
  return value instanceof Uint8Array || Object.prototype.toString.call(value) === "[object Uint8Array]";
}

/**
 * The schema of a raw body: the bytes as the handlers read them (a Uint8Array), checked by `check`,
 * which adds an issue for each problem (they are answered 400 on `body`).
 */
export function rawBytes(check: (bytes: Uint8Array, ctx: z.RefinementCtx) => void) {
  return z
    .custom<Uint8Array>(isBytes, { message: `Must be raw bytes, sent with Content-Type: ${RAW_BODY}.` })
    .superRefine((value, ctx) => {
      if (isBytes(value)) check(value, ctx);
    });
}
