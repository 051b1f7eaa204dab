/**
 * Example calls of the Edge apps area's routes, keyed by route id (see ../route-examples.ts).
 */
import { emptyWasmModule } from "../edge.js";
import * as examples from "../examples.js";
import type { AreaRouteExamples } from "./example.js";

const app = examples.edgeAppExample;
const template = examples.edgeAppTemplateExample;
const secret = examples.edgeAppSecretExample;
/** The id of the first template made on the demo data (its templates go up to 1002). */
const madeTemplateId = 1003;

const templateShort = {
  id: template.id,
  name: template.name,
  api_type: template.api_type,
  owned: template.owned,
  short_descr: template.short_descr,
  long_descr: template.long_descr,
};

const binary = { id: app.binary!, api_type: app.api_type, status: 1, source: 2, checksum: "6f1ed002ab5595859014ebf0951522d9", unref_since: null };

export const edgeRouteExamples = {
  "edge.listApps": {
    query: { name: "image", status: app.status, limit: 25, offset: 0, ordering: "name" },
    response: { apps: [app], count: 1 },
  },
  "edge.createApp": {
    body: { name: "image-resize-staging", template: template.id, comment: "Staging copy", env: { MAX_WIDTH: "1200" } },
    response: {
      ...app,
      id: 73,
      name: "image-resize-staging",
      url: "https://image-resize-staging-73.1.edge.cloudplane.example",
      status: 0,
      comment: "Staging copy",
      networks: [],
      upgradeable_to: null,
      plan_id: 1,
      plan: "basic",
    },
  },
  "edge.getApp": {
    pathParams: { id: app.id },
    response: app,
  },
  "edge.updateApp": {
    pathParams: { id: app.id },
    body: examples.updateEdgeAppExample,
    response: { ...app, status: examples.updateEdgeAppExample.status! },
  },
  "edge.patchApp": {
    pathParams: { id: app.id },
    body: { comment: "Resizes product images" },
    response: { ...app, comment: "Resizes product images" },
  },
  "edge.deleteApp": {
    pathParams: { id: app.id },
    // A 204 has no body; the example type asks for one.
  },
  "edge.listTemplates": {
    query: { api_type: template.api_type, only_mine: true, limit: 25, offset: 0 },
    response: { templates: [templateShort], count: 1 },
  },
  "edge.createTemplate": {
    body: {
      binary_id: template.binary_id,
      name: `${template.name} (staging)`,
      short_descr: template.short_descr,
      long_descr: template.long_descr,
      params: [
        { name: "MAX_WIDTH", data_type: "number", mandatory: true, descr: "Largest width served, pixels." },
        { name: "QUALITY", data_type: "number", mandatory: false, descr: "JPEG and WebP quality, 1 to 100." },
        { name: "ORIGIN_URL", data_type: "string", mandatory: true, descr: "Where the original images are." },
      ],
    },
    // The demo data's templates go up to id 1002: the first template made on it is 1003.
    response: { ...templateShort, id: madeTemplateId, name: `${template.name} (staging)`, owned: true },
  },
  "edge.getTemplate": {
    pathParams: { id: template.id },
    response: template,
  },
  "edge.replaceTemplate": {
    pathParams: { id: template.id },
    body: {
      binary_id: template.binary_id,
      name: template.name,
      short_descr: "Resizes and re-encodes images.",
      params: [
        { name: "MAX_WIDTH", data_type: "number", mandatory: true, descr: "Largest width served, pixels." },
        { name: "FORMAT", data_type: "enum", descr: "Output format.", metadata: '{"values":["webp","avif"]}' },
      ],
    },
    response: { ...templateShort, short_descr: "Resizes and re-encodes images.", long_descr: "" },
  },
  "edge.deleteTemplate": {
    // The template createTemplate's example made: every template of the demo data is in use.
    pathParams: { id: madeTemplateId },
    query: { force: false },
  },
  "edge.listSecrets": {
    query: { search: "payment", limit: 1000, offset: 0 },
    response: {
      secrets: [{ id: secret.id, name: secret.name, comment: secret.comment, app_count: secret.app_count }],
      count: 1,
    },
  },
  "edge.createSecret": {
    body: examples.createEdgeAppSecretExample,
    response: secret,
  },
  "edge.getSecret": {
    pathParams: { id: secret.id },
    response: secret,
  },
  "edge.updateSecret": {
    pathParams: { id: secret.id },
    body: { comment: "Rotated in January", secret_slots: [{ slot: 1767225600 }] },
    response: { ...secret, comment: "Rotated in January", secret_slots: secret.secret_slots.slice(1) },
  },
  "edge.replaceSecret": {
    pathParams: { id: secret.id },
    body: { name: secret.name, comment: secret.comment },
    response: secret,
  },
  "edge.deleteSecret": {
    pathParams: { id: secret.id },
    query: { force: false },
  },
  "edge.listBinaries": {
    query: { limit: 1000, offset: 0 },
    response: { binaries: [binary], count: 1 },
  },
  "edge.getBinary": {
    pathParams: { id: binary.id },
    response: binary,
  },
  "edge.uploadBinary": {
    // The smallest module there is: its 8-byte header.
    body: emptyWasmModule(),
    response: {
      id: 1004,
      api_type: "wasi-http",
      status: 1,
      source: 0,
      checksum: "93a44bbb96c751218e4c00d479e4c14358122a389acca16205b1e4d0dc5f9476",
      unref_since: null,
    },
  },
  "edge.deleteBinary": {
    // A binary of the demo data that no app or template uses (one that failed to compile).
    pathParams: { id: 13 },
  },
} satisfies AreaRouteExamples<"edge">;
