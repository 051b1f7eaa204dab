/**
 * The one way a test builds a handler: `createHandler` with every reply, request log entry and error
 * report recorded for the secrets scan (test/secrets-scan.ts), with the secrets each request sends.
 * The handler is used only through its fetch interface, `Request` in and `Response` out. No vitest
 * here, so the soak's server process (test/soak-server.ts) builds its handler the same way.
 */
import { createHandler, type Handler, type HandlerOptions, type RequestLogEntry } from "../src/index.js";
import { credentialOf, RunRecorder, secretsInBody } from "./secrets-scan.js";

export type { Handler, HandlerOptions, RequestLogEntry };

/** Where a recorded handler also puts what it reports, for the test to look at. */
export interface HandlerSinks {
  errors: unknown[];
  logs: RequestLogEntry[];
}

/** Notes the secrets a request sends (its credential, secret fields of its JSON body) for the scan. */
async function noteSentSecrets(recorder: RunRecorder, request: Request): Promise<void> {
  const where = `${request.method} ${new URL(request.url).pathname}`;
  const credential = credentialOf(request.headers.get("authorization"));
  if (credential) recorder.sentSecret(credential, `credential sent to ${where}`);
  if (!request.body) return;
  let body: unknown;
  try {
    body = JSON.parse(await request.clone().text());
  } catch {
    return;
  }
  for (const secret of secretsInBody(body)) recorder.sentSecret(secret, `secret sent to ${where}`);
}

/** `handler`, recording each request's secrets and each reply. */
function recordingReplies(handler: Handler, recorder: RunRecorder): Handler {
  return async (request) => {
    // Read from a copy of the body as it arrives, beside the handler: a body that stalls still reaches the handler.
    const noted = noteSentSecrets(recorder, request);
    const response = await handler(request);
    await noted;
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => (headers[name] = value));
    const url = new URL(request.url);
    const body = await response.clone().text();
    recorder.record({ kind: "reply", method: request.method, path: `${url.pathname}${url.search}`, status: response.status, headers, body });
    return response;
  };
}

/**
 * `options` with their error reports and log entries recorded: they go to the recorder, to `sinks`,
 * and to the options' own `onError` and `onRequest`.
 */
export function recordedOptions(options: HandlerOptions, recorder: RunRecorder, sinks?: HandlerSinks): HandlerOptions {
  return {
    ...options,
    onError: (report, requestId) => {
      recorder.record({ kind: "error", report, request_id: requestId });
      sinks?.errors.push(report);
      options.onError?.(report, requestId);
    },
    onRequest: (entry) => {
      recorder.record({ kind: "log", entry });
      sinks?.logs.push(entry);
      options.onRequest?.(entry);
    },
  };
}

/** `createHandler(options)`, recorded: its error reports and log entries (`recordedOptions`), and every reply it answers. */
export function createRecordedHandler(options: HandlerOptions, recorder: RunRecorder, sinks?: HandlerSinks): Handler {
  return recordingReplies(createHandler(recordedOptions(options, recorder, sinks)), recorder);
}

export { RunRecorder };
