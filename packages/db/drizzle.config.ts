/**
 * Drizzle Kit configuration: `pnpm generate` diffs src/schema against drizzle/ and writes the next
 * migration there (scripts/generate-migrations.ts then bundles them into src/migrations.generated.ts).
 */
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./src/schema/index.ts",
  out: "./drizzle",
});
