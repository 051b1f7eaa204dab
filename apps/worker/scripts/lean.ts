/**
 * The worker's `[build]` command (wrangler.toml): writes the lean contract and the lean database module to
 * `.lean/`, where its `[alias]` entries point `@cloudplane/contract` and `@cloudplane/db`. wrangler takes no
 * esbuild plugin, so the modules the Lambda and Node server builds load through one are written here first.
 */
import { fileURLToPath } from "node:url";
import { writeLeanContract } from "../../../packages/contract/scripts/lean.js";
import { writeLeanDatabase } from "../../../packages/db/scripts/lean.js";

const lean = (file: string) => fileURLToPath(new URL(`../.lean/${file}`, import.meta.url));
await Promise.all([writeLeanContract(lean("contract.js")), writeLeanDatabase(lean("db.js"))]);
