/** Writes are stored and read back, and secrets never come back (the write-only fields' descriptions). */
import { routeCase, type ConformanceCheck } from "../check.js";
import { expectEnvelope, expectEqual, expectStatus, expectTrue, objectBody } from "../expect.js";
import { uniqueName } from "@cloudplane/contract";

async function sha256Hex(value: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(value));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

export const writeChecks: ConformanceCheck[] = [
  {
    name: "writes: an edge app's new comment shows in the next listing",
    async run(context) {
      const path = routeCase(context, "edge.updateApp").path(1);
      const id = Number(path.split("/").at(-1));
      const comment = uniqueName("read back by the conformance suite");
      const reply = await context.client.call("PUT", path, { body: { comment } });
      expectStatus(reply, 200);
      expectEqual(objectBody(reply).comment, comment, "the answered comment", reply);
      const list = await context.client.call("GET", "/edge/v1/apps?limit=1000");
      const app = (objectBody(list).apps as { id: number; comment: string }[]).find((candidate) => candidate.id === id);
      expectEqual(app?.comment, comment, "the listed comment", list);
    },
  },
  {
    name: "writes: a PATCH changes only the fields given",
    async run(context) {
      const path = routeCase(context, "cdn.updateResource").path(1);
      const description = uniqueName("kept by the conformance suite");
      const first = await context.client.call("PATCH", path, { body: { description } });
      expectStatus(first, 200);
      const name = objectBody(first).name;
      const second = await context.client.call("PATCH", path, { body: { name } });
      expectStatus(second, 200);
      expectEqual(objectBody(second).description, description, "the description after a PATCH of the name only", second);
    },
  },
  {
    name: "writes: a new secret answers each slot's SHA-256 and never its value; a taken name is 409",
    async run({ client }) {
      const name = uniqueName("conformance-secret");
      const value = `conformance value ${name}`;
      const reply = await client.call("POST", "/edge/v1/secrets", { body: { name, secret_slots: [{ slot: 0, value }] } });
      expectStatus(reply, 200);
      expectTrue(!reply.text.includes(value), "the secret value is never answered", reply);
      expectEqual(objectBody(reply).secret_slots, [{ slot: 0, checksum: await sha256Hex(value) }], "secret_slots", reply);
      const again = await client.call("POST", "/edge/v1/secrets", { body: { name, secret_slots: [{ slot: 0, value }] } });
      expectEnvelope(again, 409, "conflict");
      expectTrue(!again.text.includes(value), "the secret value is never echoed in an error", again);
    },
  },
  {
    name: "writes: a logs uploader target is 201 and never answers its secret access key",
    async run(context) {
      const route = routeCase(context, "cdn.createLogsUploaderTarget");
      const body = route.body!(1) as { config: { secret_access_key: string } };
      const reply = await context.client.call("POST", route.path(1), { body });
      expectStatus(reply, 201);
      expectTrue(!reply.text.includes(body.config.secret_access_key), "the secret access key is never answered", reply);
    },
  },
];
