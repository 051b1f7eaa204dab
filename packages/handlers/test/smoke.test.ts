import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engines, startApi, type TestApi } from "./api.js";

describe.each(engines())("smoke on %s", (engine) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi(engine);
  });
  afterAll(() => api.close());

  it.each([
    ["GET", "/iam/clients/1/tokens"],
    ["GET", "/cdn/clients/me/features"],
    ["GET", "/cdn/origin_groups/1"],
    ["GET", "/edge/v1/apps"],
    ["GET", "/streaming/streams"],
    ["GET", "/cloud/v2/inference/models"],
  ])("%s %s", async (method, path) => {
    const reply = await api.call(method, path);
    expect(reply.status, reply.text).toBe(200);
  });
});
