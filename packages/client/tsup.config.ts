import { packageBuild } from "../../tooling/typescript/tsup.js";

export default packageBuild({ entry: ["src/index.ts"] });
