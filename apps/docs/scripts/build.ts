/** `pnpm build`: the docs site into apps/docs/dist, or into the directory given as the first argument. */
import { buildSite } from "../src/site.js";

const outDir = await buildSite(process.argv[2]);
console.log(`docs site built in ${outDir}`);
