#!/usr/bin/env node
// The `conformance` command: runs the TypeScript CLI through tsx, so the suite needs no build step.
import { register } from "tsx/esm/api";

register();
await import("../src/cli.ts");
