/**
 * New API tokens, and provisioning: a new account with its first user (an Administrator) and that
 * user's token, on any deployment's database. Only a token's SHA-256 hash is ever stored.
 */
import { EMAIL_PATTERN, ROLE_IDS } from "@cloudplane/contract";
import { eq } from "drizzle-orm";
import { loadPlatformCatalog } from "./catalog.js";
import { hashToken } from "./crypto.js";
import type { Database } from "./database.js";
import { accounts, apiTokens, cloudProjects, users } from "./schema/index.js";

/** Random bytes of a token: 256 bits. */
const TOKEN_BYTES = 32;
/** What every token the service issues starts with, so that secret scanners and people can tell one. */
export const API_TOKEN_PREFIX = "cp_";

function randomHex(bytes: number): string {
  return Array.from(globalThis.crypto.getRandomValues(new Uint8Array(bytes)), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** A new API token, `cp_` and 64 random hex digits, with the hash that is stored in its place. */
export async function generateApiToken(): Promise<{ token: string; tokenHash: string }> {
  const token = `${API_TOKEN_PREFIX}${randomHex(TOKEN_BYTES)}`;
  return { token, tokenHash: await hashToken(token) };
}

export interface ProvisionAccountOptions {
  /** The account's name (1 to 255 characters). */
  name: string;
  /** The first user's email, unique across the service. */
  email: string;
  /** The first user's name; default: the part of the email before the `@`. */
  userName?: string;
  /**
   * Whether to load the platform's catalog first (default true): a database known to hold it already (a
   * test platform's, seeded with it) skips the 50 ms or so that loading it again, to change nothing, takes.
   */
  loadCatalog?: boolean;
}

export interface ProvisionedAccount {
  accountId: number;
  userId: number;
  tokenId: number;
  /** The account's cloud project "default", which every account has (GPU images live in a project). */
  projectId: number;
  /** The Administrator's API token: shown to the operator once, never stored. */
  token: string;
}

/** Why `options` cannot be provisioned, or undefined when it can. */
export function provisionProblem(options: ProvisionAccountOptions): string | undefined {
  const name = options.name.trim();
  if (name === "" || name.length > 255) return "The account name must be 1 to 255 characters.";
  if (options.email.length > 254 || !EMAIL_PATTERN.test(options.email)) return "The email must be an address such as ops@example.com.";
  if (options.userName !== undefined && (options.userName.trim() === "" || options.userName.length > 255))
    return "The user name must be 1 to 255 characters.";
  return undefined;
}

/**
 * Creates an account, its first user (Administrators), an API token for that user and the account's
 * cloud project "default", in one transaction. The platform's catalog (edge plans, public templates,
 * shielding POPs, regions, inference models…) is loaded first where the database lacks it, so that a
 * deployment that never had the demo data serves every route. Throws, changing nothing of the account,
 * when the options are not valid or the email is taken.
 */
export async function provisionAccount(db: Database, options: ProvisionAccountOptions): Promise<ProvisionedAccount> {
  const problem = provisionProblem(options);
  if (problem) throw new Error(problem);
  const email = options.email.trim();
  const userName = options.userName?.trim() ?? email.slice(0, email.indexOf("@"));
  const { token, tokenHash } = await generateApiToken();
  if (options.loadCatalog !== false) await loadPlatformCatalog(db);
  return db.transaction(async (tx) => {
    const [taken] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
    if (taken) throw new Error(`A user with the email ${email} exists already; each user belongs to one account.`);
    const [account] = await tx
      .insert(accounts)
      .values({ name: options.name.trim(), cname: `cl-${randomHex(4)}.cdn.cloudplane.example` })
      .returning({ id: accounts.id });
    const [user] = await tx
      .insert(users)
      .values({ accountId: account!.id, name: userName, email, roleId: ROLE_IDS.administrators })
      .returning({ id: users.id });
    const [row] = await tx
      .insert(apiTokens)
      .values({
        accountId: account!.id,
        userId: user!.id,
        name: "provisioned",
        description: "The first Administrator's token, issued when the account was provisioned.",
        tokenHash,
      })
      .returning({ id: apiTokens.id });
    const [project] = await tx
      .insert(cloudProjects)
      .values({ accountId: account!.id, name: "default", description: "The account's default project." })
      .returning({ id: cloudProjects.id });
    return { accountId: account!.id, userId: user!.id, tokenId: row!.id, projectId: project!.id, token };
  });
}
