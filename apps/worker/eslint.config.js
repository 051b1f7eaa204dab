import config from "@cloudplane/eslint-config";

// .lean/: the lean contract the build writes (wrangler.toml's [build]), generated from the contract's linted sources.
export default [...config, { ignores: [".lean/**"] }];
