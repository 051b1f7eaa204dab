/**
 * The platform's catalog: what it offers every account, kept in the demo fixture's rows that belong to no
 * account (shielding points of presence, edge plans, public templates and their binaries, inference
 * models, regions, common security profile templates). Every deployment needs it, demo data or not:
 * provisioning loads it.
 */
import type { Database } from "./database.js";
import { loadDemoData } from "./demo.js";
import { demoFixture, type DemoFixture } from "./demo-fixture.js";

/** The fields by which a fixture row belongs to an account; a row with none of them set is the platform's own. */
const ACCOUNT_FIELDS = ["account_id", "client", "client_id"] as const;

function platformOwn(row: object): boolean {
  return ACCOUNT_FIELDS.every((field) => (row as Record<string, unknown>)[field] == null);
}

/** The rows of `fixture` (the demo data by default) that belong to no account; no account, user or token. */
export function platformCatalog(fixture: DemoFixture = demoFixture): DemoFixture {
  const catalog = Object.fromEntries(
    Object.entries(fixture).map(([area, tables]) => [
      area,
      Object.fromEntries(Object.entries(tables as Record<string, object[]>).map(([table, rows]) => [table, rows.filter(platformOwn)])),
    ]),
  ) as unknown as DemoFixture;
  return { ...catalog, iam: { accounts: [], users: [], api_tokens: [] } };
}

/**
 * Loads the platform's catalog, idempotently (rows already there are left alone), in one transaction.
 * The catalog holds no secret, so the key it is loaded with encrypts nothing and is thrown away.
 */
export async function loadPlatformCatalog(db: Database): Promise<void> {
  const catalog = platformCatalog();
  if (catalog.cdn.logs_uploader_targets.length > 0 || catalog.edge.secrets.length > 0)
    throw new Error("The platform's catalog must hold no secrets: logs uploader targets and edge secrets belong to accounts.");
  const secretsKey = await globalThis.crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
  await loadDemoData(db, { secretsKey, fixture: catalog });
}
