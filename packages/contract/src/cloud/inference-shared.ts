/**
 * What the inference resources of the Cloud area share: the names their objects go by, the project path
 * parameter, their place in the client (`client.cloud.inference.*`), their routes' access and the project
 * their cases work in.
 */
import { z } from "zod";
import { idParam } from "../common.js";
import type { ClientMetadata } from "../client-names.js";
import type { CaseWorld } from "../route-case.js";

/** A name of an inference object: what a deployment's address is made of, so a DNS label. */
export const INFERENCE_NAME = /^[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
export const INFERENCE_NAME_RULE = "1 to 63 lowercase letters, digits and hyphens, starting with a letter and not ending with a hyphen";

/** An inference object's name, in a body or a path. */
export const inferenceName = z.string().regex(INFERENCE_NAME, `Must be ${INFERENCE_NAME_RULE}.`);

export const projectPathParams = z.object({ project_id: idParam("The project id; it must be one of the account's projects.") });

/** A route's metadata: its access, and its resource under `client.cloud.inference`. */
export function inferenceMetadata(access: "read" | "write", resource: string, method?: string): ClientMetadata {
  return { access, client: { resource: `inference${resource ? `.${resource}` : ""}`, ...(method ? { method } : {}) } };
}

/** The project the cases' inference objects are in: the account's default one (the demo data's objects are there). */
export const caseProjectOf = (w: CaseWorld) => w.first("cloud.listProjects", { where: (project) => project.is_default === true });
