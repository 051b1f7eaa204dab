/**
 * Structured logs: one JSON object a line on stdout (errors on stderr), for people and log shippers
 * alike. Request entries come from the handler's `onRequest`, which never carries a credential.
 */
import { errorReport, type ErrorReport } from "@cloudplane/handlers";

export type LogEntry = { level: "info" | "error"; msg: string } & Record<string, unknown>;

export type Logger = (entry: LogEntry) => void;

export const jsonLogger: Logger = (entry) => {
  const line = `${JSON.stringify({ time: new Date().toISOString(), ...entry })}\n`;
  if (entry.level === "error") process.stderr.write(line);
  else process.stdout.write(line);
};

/**
 * What an unexpected error shows in a log entry: `error`, its report (`errorReport` of
 * @cloudplane/handlers, as the handler's own reports are): name, message, stack, a driver's code and
 * detail, the cause chain; never the SQL or its parameters.
 */
export function errorFields(error: unknown): { error: ErrorReport } {
  return { error: errorReport(error) };
}
