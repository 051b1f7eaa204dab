/**
 * What a platform holds when it starts (and after every `reset()`): a preset, seeded once into the
 * image (image.ts). `empty` is one provisioned account (with the platform's own catalog, as provisioning loads it); `demo` is the demo data.
 */
import { demoDataFingerprint, demoToken, loadDemoData, platformCatalog, provisionAccount, type Database } from "@cloudplane/db";

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
  fingerprint(): string | Promise<string>;
}

export const EMPTY_ACCOUNT = { name: "Test account", email: "admin@test-account.example" } as const;

export const PRESETS: Record<Preset, PresetDefinition> = {
  empty: {
    // Provisioning loads the platform's catalog, as on any deployment.
    async seed(db) {
      const account = await provisionAccount(db, EMPTY_ACCOUNT);
      return { accountId: account.accountId, userId: account.userId, tokenId: account.tokenId, token: account.token };
    },
    fingerprint: () => JSON.stringify(platformCatalog()),
  },
  demo: {
    async seed(db, secretsKey) {
      await loadDemoData(db, { secretsKey });
      const token = demoToken(1, "role-1-active");
      return { accountId: token.accountId, userId: token.userId, tokenId: token.id, token: token.plaintext };
    },
    // The fixture's rows and the statements that generate usage over time beside them.
    fingerprint: () => demoDataFingerprint(),
  },
};
