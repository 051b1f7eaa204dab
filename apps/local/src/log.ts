/**
 * Structured logs: one JSON object a line on stdout (errors on stderr), for people and log shippers
 * alike. Request entries come from the handler's `onRequest`, which never carries a credential.
 */
export type LogEntry = { level: "info" | "error"; msg: string } & Record<string, unknown>;

export type Logger = (entry: LogEntry) => void;

export const jsonLogger: Logger = (entry) => {
  const line = `${JSON.stringify({ time: new Date().toISOString(), ...entry })}\n`;
  if (entry.level === "error") process.stderr.write(line);
  else process.stdout.write(line);
};

/** What an unexpected error may show in a log: its kind and message, never a driver's query parameters. */
export function errorFields(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { error: String(error) };
  return { error: error.name, message: error.message, stack: error.stack };
}
