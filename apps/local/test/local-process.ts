/**
 * Starts the local app the way `pnpm start` does (`node --conditions=@cloudplane/source --import tsx src/main.ts`) with the given
 * environment, reads what it prints, and stops it with a signal; and runs `cloudplane-admin` as `pnpm provision` does.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";

const APP_DIR = fileURLToPath(new URL("..", import.meta.url));

export interface LocalProcess {
  child: ChildProcess;
  url: string;
  /** The Docs line of the banner: the docs URL, or why there are none. */
  docs: string;
  adminApiKey: string;
  /** The banner's first line, e.g. "cloudplane API on PGlite in … (demo data loaded)". */
  headline: string;
  /** Everything written to stdout so far. */
  stdout(): string;
  stderr(): string;
  /** The JSON lines of stdout, parsed. */
  logs(): Record<string, unknown>[];
  /** Sends the signal and resolves to the exit code. */
  stop(signal: NodeJS.Signals): Promise<number | null>;
}

export async function startLocalProcess(env: Record<string, string | undefined>): Promise<LocalProcess> {
  const child = spawn(process.execPath, ["--conditions=@cloudplane/source", "--import", "tsx", "src/main.ts"], {
    cwd: APP_DIR,
    // No DATABASE_URL unless the test gives one: CI sets it for the PostgreSQL suites.
    env: { ...process.env, DATABASE_URL: undefined, CLOUDPLANE_SECRETS_KEY: undefined, PORT: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));

  await new Promise<void>((resolve, reject) => {
    const poll = setInterval(() => {
      if (/Request logs follow/.test(stdout)) {
        clearInterval(poll);
        resolve();
      }
    }, 50);
    void exited.then((code) => {
      clearInterval(poll);
      reject(new Error(`The local app exited (${code}) before it was ready.\nstdout: ${stdout}\nstderr: ${stderr}`));
    });
  });

  const field = (label: string) => new RegExp(`^ {2}${label}: +(.+)$`, "m").exec(stdout)?.[1]?.trim() ?? "";
  return {
    child,
    url: field("API"),
    docs: field("Docs"),
    adminApiKey: field("Admin API key").split(/\s+/)[0]!,
    headline: stdout.split("\n").find((line) => line.startsWith("cloudplane API on")) ?? "",
    stdout: () => stdout,
    stderr: () => stderr,
    logs: () =>
      stdout
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    async stop(signal) {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      return exited;
    },
  };
}

export interface AdminRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `cloudplane-admin` as `pnpm provision` does (`node --import tsx src/admin.ts …`) with the given settings. */
export function admin(args: string[], env: Record<string, string | undefined>): Promise<AdminRun> {
  const child = spawn(process.execPath, ["--conditions=@cloudplane/source", "--import", "tsx", "src/admin.ts", ...args], {
    cwd: APP_DIR,
    // No DATABASE_URL unless the test gives one: CI sets it for the PostgreSQL suites.
    env: { ...process.env, DATABASE_URL: undefined, DATA_DIR: undefined, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  return new Promise((resolve) => child.once("close", (code) => resolve({ code, stdout, stderr })));
}

/** What a successful `cloudplane-admin provision` printed: the ids and the token. */
export function provisioned(run: AdminRun) {
  expect(run.code, run.stderr).toBe(0);
  expect(run.stderr).toBe("");
  const summary = /^Account (\d+) "(.*)" provisioned on .+, with user (\d+) \((.+), Administrators\)\.$/m.exec(run.stdout);
  const token = /^ {2}API token (\d+): +(cp_[0-9a-f]{64})$/m.exec(run.stdout);
  expect(summary, run.stdout).not.toBeNull();
  expect(token, run.stdout).not.toBeNull();
  // Printed once: the line that gives it, nowhere else.
  expect(run.stdout.split(token![2]!).length).toBe(2);
  return { accountId: Number(summary![1]), name: summary![2]!, userId: Number(summary![3]), email: summary![4]!, tokenId: Number(token![1]), token: token![2]! };
}
