/**
 * `npm install` in a product project a consumer test made, as a user's would run it, from the npm
 * registry. A registry request that stalls is given up after 30 s and tried again (npm waits five
 * minutes by default); an install that still has not ended after `attemptMs` (a stall npm's own
 * timeouts do not catch, seen in CI under load) is stopped and run once more, and a second failure
 * throws with what npm printed.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);
const ARGS = ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--prefer-offline", "--fetch-timeout=30000", "--fetch-retries=4"];

/** @param {string} folder @param {{ attemptMs?: number }} [options] */
export async function npmInstall(folder, { attemptMs = 110_000 } = {}) {
  for (let attempt = 1; ; attempt++) {
    const started = Date.now();
    try {
      await run("npm", ARGS, { cwd: folder, timeout: attemptMs, killSignal: "SIGKILL", maxBuffer: 16 * 1024 * 1024 });
      return;
    } catch (error) {
      const { stderr = "", killed = false } = /** @type {{ stderr?: string; killed?: boolean }} */ (error);
      const why = killed ? `did not end in ${attemptMs / 1000} s` : `failed after ${Math.round((Date.now() - started) / 1000)} s`;
      if (attempt === 2) throw new Error(`npm install in ${folder} ${why} twice:\n${stderr.slice(-4000)}`);
      console.error(`npm install in ${folder} ${why}; trying once more.`);
    }
  }
}
