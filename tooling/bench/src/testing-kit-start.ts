/**
 * Child process of part 8: a test file's first platform. Imports the kit, starts a platform from the
 * image in the cache directory given, and prints how long `createTestPlatform()` took to be ready.
 */
import { createTestPlatform } from "@cloudplane/testing";

const cacheDirectory = process.argv[2];
if (!cacheDirectory) throw new Error("Give the cache directory that holds the image.");
const started = performance.now();
const platform = await createTestPlatform({ preset: "demo", cacheDirectory });
const readyMs = performance.now() - started;
await platform.close();
console.log(JSON.stringify({ readyMs }));
