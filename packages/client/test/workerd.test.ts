/**
 * The client's bundle in workerd (the Cloudflare Workers runtime, through miniflare): a worker that
 * imports only the bundle calls the real handler, served over HTTP on 127.0.0.1, with the runtime's
 * own fetch, timers and AbortController. Miniflare runs in a process of its own, on Node 22 or newer
 * (test/miniflare.ts); the handler, the scripted server and this suite run on the machine's Node.
 */
import { demoFixture, demoToken } from "@cloudplane/db";
import { serve } from "@cloudplane/handlers/node";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engines, useClientApi } from "./api.js";
import { bundle } from "./bundle.js";
import { envelope, json, startScriptedServer, type ScriptedServer } from "./http-server.js";
import { startWorker, type Worker } from "./miniflare.js";

/** The worker: exercises the client against API_URL (the handler) and SCRIPTED_URL (a scripted server). */
const WORKER = `
import { createClient, NotFoundError, APIConnectionTimeoutError } from "@cloudplane/client";

export default {
  async fetch(request, env) {
    const client = createClient({ apiKey: env.API_KEY, baseUrl: env.API_URL });
    const appIds = [];
    for await (const app of client.edge.apps.list({ limit: 10 })) appIds.push(app.id);
    const streamIds = [];
    for await (const stream of client.streaming.streams.list()) streamIds.push(stream.id);
    const resource = await client.cdn.resources.update(1, { description: "Changed from workerd" });
    const { body: template, requestId } = await client.edge.templates.get(1001).withResponse();
    let notFound;
    try {
      await client.cdn.originGroups.get(2);
    } catch (error) {
      notFound = { isNotFoundError: error instanceof NotFoundError, status: error.status, code: error.code, requestId: error.requestId };
    }

    const scripted = createClient({ apiKey: "k", baseUrl: env.SCRIPTED_URL });
    const retried = await scripted.streaming.streams.get(1);
    let timedOut;
    try {
      await scripted.streaming.streams.get(2, { timeout: 200, maxRetries: 0 });
    } catch (error) {
      timedOut = { isTimeoutError: error instanceof APIConnectionTimeoutError, code: error.code };
    }
    return Response.json({
      hasProcess: typeof process !== "undefined",
      appIds,
      streamIds,
      resource: { id: resource.id, description: resource.description },
      template: { id: template.id, requestId },
      notFound,
      retried,
      timedOut,
    });
  },
};
`;

describe.each(engines())("the client in workerd against the handler on %s", (engine) => {
  const api = useClientApi(engine);
  let apiServer: Server;
  let scripted: ScriptedServer;
  let worker: Worker;

  beforeAll(async () => {
    apiServer = await serve(api.handler, { port: 0 });
    scripted = await startScriptedServer();
    scripted.respond = (request, reply, index) => {
      if (request.url === "/streaming/streams/2") return; // never answered: the worker's call times out
      if (index === 0) json(reply, 503, envelope(503, "unavailable"), { "retry-after": "0" });
      else json(reply, 200, { id: 1 });
    };
    const { code } = await bundle(WORKER, { platform: "neutral" });
    worker = await startWorker({
      modules: true,
      script: code,
      compatibilityDate: "2026-07-30",
      bindings: {
        API_KEY: demoToken(1, "role-1-active").plaintext,
        API_URL: `http://127.0.0.1:${(apiServer.address() as AddressInfo).port}`,
        SCRIPTED_URL: scripted.baseUrl,
      },
    });
  });
  afterAll(async () => {
    await worker?.dispose();
    await scripted?.close();
    await new Promise((resolve) => apiServer?.close(resolve));
  });

  it("lists across pages, writes, reads with the response, and throws typed errors", async () => {
    const response = await fetch(worker.url);
    const text = await response.text();
    expect(response.status, text).toBe(200);
    const result = JSON.parse(text) as Record<string, unknown>;
    const ofAccount1 = <T extends { accountId: number; id: number }>(items: T[]) =>
      items.filter((item) => item.accountId === 1).map((item) => item.id);
    expect(result).toMatchObject({
      hasProcess: false,
      appIds: ofAccount1(demoFixture.edgeApps).sort((a, b) => a - b),
      streamIds: ofAccount1(demoFixture.streams).sort((a, b) => b - a),
      resource: { id: 1, description: "Changed from workerd" },
      template: { id: 1001, requestId: expect.stringMatching(/^req_/) as unknown },
      notFound: { isNotFoundError: true, status: 404, code: "not_found", requestId: expect.stringMatching(/^req_/) as unknown },
      retried: { id: 1 },
      timedOut: { isTimeoutError: true, code: "connection_timeout" },
    });
    expect(scripted.requests.map((request) => request.url)).toEqual([
      "/streaming/streams/1",
      "/streaming/streams/1",
      "/streaming/streams/2",
    ]);
  });
});
