import config from "@cloudplane/eslint-config";

export default config;
