/**
 * What a platform holds when it starts (and after every `reset()`): a preset, seeded once into the
 * image (image.ts). `empty` is one account and the platform's own catalog; `demo` is the demo data.
 */
import { demoFixture, demoToken, loadDemoData, provisionAccount, type Database, type DemoFixture } from "@cloudplane/db";

/** The account and token a platform's `client` calls as (an Administrator's). */
export interface SeededAdministrator {
  accountId: number;
  userId: number;
  tokenId: number;
  /** The token itself: test data, made for this image. */
  token: string;
}

export type Preset = "empty" | "demo";

interface PresetDefinition {
  /** Loads the preset into a migrated, empty database. */
  seed(db: Database, secretsKey: CryptoKey): Promise<SeededAdministrator>;
  /** Changes whenever what `seed` loads changes: part of the image's cache key. */
  fingerprint(): string;
}

/** The fields by which a demo row belongs to an account; a row with none of them set is the platform's own. */
const ACCOUNT_FIELDS = ["account_id", "client", "client_id"] as const;

function platformOwn(row: object): boolean {
  return ACCOUNT_FIELDS.every((field) => (row as Record<string, unknown>)[field] == null);
}

/**
 * The rows of the demo data that belong to no account: what the platform offers every account (shielding
 * points of presence, edge plans, public templates and their binaries, inference models, regions, common
 * security profile templates). No account, user or token.
 */
export function platformCatalog(fixture: DemoFixture = demoFixture): DemoFixture {
  const catalog = Object.fromEntries(
    Object.entries(fixture).map(([area, tables]) => [
      area,
      Object.fromEntries(Object.entries(tables as Record<string, object[]>).map(([table, rows]) => [table, rows.filter(platformOwn)])),
    ]),
  ) as unknown as DemoFixture;
  return { ...catalog, iam: { accounts: [], users: [], api_tokens: [] } };
}

export const EMPTY_ACCOUNT = { name: "Test account", email: "admin@test-account.example" } as const;

export const PRESETS: Record<Preset, PresetDefinition> = {
  empty: {
    async seed(db, secretsKey) {
      await loadDemoData(db, { secretsKey, fixture: platformCatalog() });
      const account = await provisionAccount(db, EMPTY_ACCOUNT);
      return { accountId: account.accountId, userId: account.userId, tokenId: account.tokenId, token: account.token };
    },
    fingerprint: () => JSON.stringify(platformCatalog()),
  },
  demo: {
    async seed(db, secretsKey) {
      await loadDemoData(db, { secretsKey });
      const token = demoToken(1, "role-1-active");
      return { accountId: token.account_id, userId: token.user_id, tokenId: token.id, token: token.plaintext };
    },
    fingerprint: () => JSON.stringify(demoFixture),
  },
};
