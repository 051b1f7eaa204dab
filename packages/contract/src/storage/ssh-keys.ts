/**
 * Object storage SSH keys: the account's public keys, which its SFTP storages let in; their schemas and
 * routes (creation, listing, details, deletion).
 */
import { initContract } from "@ts-rest/core";
import { z } from "zod";
import { errorResponses, idParam, integer, integerParam, isoTimestamp, pageOf, strictObject, stringEnum, withBody } from "../common.js";
import { route } from "../route.js";
import { missingId, uniqueName } from "../route-case.js";
import { read, write } from "./shared.js";

const c = initContract();

/** A public key in OpenSSH form: its type, its base64 body and an optional comment. */
export const SSH_PUBLIC_KEY = /^(ssh-ed25519|ssh-rsa|ecdsa-sha2-nistp(?:256|384|521)|sk-ssh-ed25519@openssh\.com) [A-Za-z0-9+/]{16,8192}={0,3}(?: [\x20-\x7e]{1,255})?$/;

export const sshKeyName = z.string().regex(/^[A-Za-z0-9 ._-]{1,255}$/, "Must be 1 to 255 letters, digits, spaces, dots, hyphens and underscores.");

const sshKeySchema = z
  .object({
    id: integer().describe("The SSH key id."),
    name: z.string().describe("The key's name, unique in the account."),
    public_key: z.string().describe("The public key in OpenSSH form, as it was given."),
    created_at: isoTimestamp,
  })
  .strict()
  .describe("A public SSH key of the account, which SFTP storages may let in.");
export interface SshKeySchema extends SshKeySchemaType {}
type SshKeySchemaType = typeof sshKeySchema;
export const sshKey: SshKeySchema = sshKeySchema;

export type SshKey = z.infer<typeof sshKey>;

const sshKeyListSchema = pageOf(sshKey, "SSH keys");
export interface SshKeyListSchema extends SshKeyListSchemaType {}
type SshKeyListSchemaType = typeof sshKeyListSchema;
export const sshKeyList: SshKeyListSchema = sshKeyListSchema;

const createSshKeyBodySchema = strictObject(
  {
    name: sshKeyName.describe("The key's name: 1 to 255 letters, digits, spaces, dots, hyphens and underscores, unique in the account (409 otherwise)."),
    public_key: z
      .string()
      .max(10_000, "At most 10000 characters.")
      .transform((value) => value.trim())
      .refine((value) => SSH_PUBLIC_KEY.test(value), {
        message: "Must be a public key in OpenSSH form: ssh-ed25519, ssh-rsa or ecdsa-sha2-nistp256/384/521, its base64 body and an optional comment.",
      })
      .describe("The public key in OpenSSH form (`ssh-ed25519 AAAA… comment`); never a private key."),
  },
  { readOnly: ["id", "created_at"] },
).describe("The new SSH key.");
export interface CreateSshKeyBodySchema extends CreateSshKeyBodySchemaType {}
type CreateSshKeyBodySchemaType = typeof createSshKeyBodySchema;
export const createSshKeyBody: CreateSshKeyBodySchema = createSshKeyBodySchema;

const sshKeyParams = z.object({ ssh_key_id: idParam("The SSH key id; it must belong to the account.") });

/** The demo data's SSH key of account 1. */
export const demoSshKey: SshKey = {
  id: 1,
  name: "acme-deploy",
  public_key: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHg3cB7cmTqL0sVn2kX9yPq4Rz8aWfJd1oEeUu5tYi0M deploy@acme.example",
  created_at: "2026-01-23T09:00:00.000Z",
};

const ROUTE_CASE_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGx1cm91dGVjYXNla2V5Zm9ydGhld2Fsa3Nvbmx5MDAw route-case";

export const storageSshKeysRoutes = {
  listSshKeys: route(
    {
      method: "GET",
      path: "/storage/v4/ssh_keys",
      query: z.object({
        limit: integerParam({ min: 1, max: 1000, description: "Page size, 1 to 1000. Default 100." }).default(100),
        offset: integerParam({ min: 0, description: "Number of matching keys skipped. Default 0." }).default(0),
        name: z.string().max(255, "At most 255 characters.").optional().describe("Only keys whose name contains this text, in any case."),
        order_by: stringEnum(["id", "-id", "name", "-name", "created_at", "-created_at"])
          .default("id")
          .describe("Sort by `id`, `name` or `created_at`, ascending; with `-` before it, descending. Default id; ties by id."),
      }),
      responses: { 200: sshKeyList, ...errorResponses() },
      summary: "List SSH keys",
      description: "The account's SSH keys whose name contains `name` (in any case), a page of `limit` from `offset`; `count` is the number of matches.",
      metadata: read,
    },
    {
      example: { query: { limit: 100, offset: 0 }, response: { count: 1, results: [demoSshKey] } },
      case: { path: () => "/storage/v4/ssh_keys", ownsObjects: false },
    },
  ),
  createSshKey: route(
    {
      method: "POST",
      path: "/storage/v4/ssh_keys",
      body: createSshKeyBody,
      responses: { 201: sshKey, ...errorResponses([409, ...withBody]) },
      summary: "Create an SSH key",
      description:
        "Adds a public key to the account, for its SFTP storages to let in (`ssh_key_ids` of an SFTP storage). Only the public half " +
        "is ever sent or kept. A name the account's keys have is 409.",
      metadata: write,
    },
    {
      example: {
        body: { name: "acme-ci", public_key: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJq8bXz2kT5vW9nR4cY7mL1pF6sD3hG0aE2uK8oQ5iVt ci@acme.example" },
        response: {
          id: 3,
          name: "acme-ci",
          public_key: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJq8bXz2kT5vW9nR4cY7mL1pF6sD3hG0aE2uK8oQ5iVt ci@acme.example",
          created_at: "2026-11-26T20:00:00.000Z",
        },
      },
      case: { path: () => "/storage/v4/ssh_keys", ownsObjects: false, body: () => ({ name: uniqueName("route-case-key"), public_key: ROUTE_CASE_KEY }) },
    },
  ),
  getSshKey: route(
    {
      method: "GET",
      path: "/storage/v4/ssh_keys/:ssh_key_id",
      pathParams: sshKeyParams,
      responses: { 200: sshKey, ...errorResponses() },
      summary: "Get an SSH key",
      description: "One SSH key of the account; another account's is 404.",
      metadata: read,
    },
    {
      example: { pathParams: { ssh_key_id: 1 }, response: demoSshKey },
      case: { path: (w) => `/storage/v4/ssh_keys/${w.first("storage.listSshKeys").id}`, ownsObjects: true },
    },
  ),
  deleteSshKey: route(
    {
      method: "DELETE",
      path: "/storage/v4/ssh_keys/:ssh_key_id",
      pathParams: sshKeyParams,
      responses: { 204: c.noBody(), ...errorResponses([409]) },
      summary: "Delete an SSH key",
      description:
        "Deletes the key for good. While an SFTP storage lets it in (`ssh_key_ids`), it cannot be deleted: 409 naming the storages; " +
        "take it out of them first (PATCH the storages' `ssh_key_ids`) or delete them. Answers 204 with no body.",
      metadata: write,
    },
    {
      example: { pathParams: { ssh_key_id: 3 } },
      case: {
        path: (w, made) => `/storage/v4/ssh_keys/${made?.id ?? missingId(w.account)}`,
        ownsObjects: true,
        makes: "storage.createSshKey",
      },
    },
  ),
} as const;
