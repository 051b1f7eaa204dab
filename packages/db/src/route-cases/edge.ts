/**
 * Route cases of the Edge apps area: one valid request per route on the demo data (see ../route-cases.ts).
 */
import { emptyWasmModule } from "@cloudplane/contract";
import type { DemoFixture, DemoAccountId } from "../demo-fixture.js";
import { type AreaRouteCases, first, uniqueName } from "./case.js";

/** An id no object has, different for each account (for deletes called without a made object). */
const missingId = (account: DemoAccountId) => 2_147_483_000 + account;

export function edgeRouteCases(fixture: DemoFixture) {
  const app = (account: DemoAccountId) => first(fixture.edgeApps, `edge app of account ${account}`, (candidate) => candidate.accountId === account);
  const template = (account: DemoAccountId) => first(fixture.edgeTemplates, `private template of account ${account}`, (candidate) => candidate.accountId === account);
  const secret = (account: DemoAccountId) => first(fixture.edgeSecrets, `secret of account ${account}`, (candidate) => candidate.accountId === account);
  const binary = (account: DemoAccountId) => first(fixture.edgeBinaries, `binary of account ${account}`, (candidate) => candidate.accountId === account);
  const templateBody = (account: DemoAccountId) => ({
    binary_id: binary(account).id,
    name: uniqueName("Route case template"),
    params: [{ name: "GREETING", data_type: "string", mandatory: true, descr: "What the app says." }],
  });
  return {
    "edge.listApps": { path: () => "/edge/v1/apps?limit=5", ownsObjects: false },
    "edge.createApp": {
      path: () => "/edge/v1/apps",
      ownsObjects: false,
      body: (account) => ({ name: uniqueName("route-case"), binary: binary(account).id, comment: "Made by the route cases" }),
    },
    "edge.getApp": { path: (account) => `/edge/v1/apps/${app(account).id}`, ownsObjects: true },
    "edge.updateApp": {
      path: (account) => `/edge/v1/apps/${app(account).id}`,
      ownsObjects: true,
      body: () => ({ comment: uniqueName("Changed by the route cases") }),
    },
    "edge.patchApp": {
      path: (account) => `/edge/v1/apps/${app(account).id}`,
      ownsObjects: true,
      body: () => ({ comment: uniqueName("Patched by the route cases") }),
    },
    "edge.deleteApp": {
      path: (account, made) => `/edge/v1/apps/${made?.id ?? missingId(account)}`,
      ownsObjects: true,
      makes: "edge.createApp",
    },
    "edge.listTemplates": { path: () => "/edge/v1/template?limit=5", ownsObjects: false },
    "edge.createTemplate": { path: () => "/edge/v1/template", ownsObjects: false, body: templateBody },
    "edge.getTemplate": { path: (account) => `/edge/v1/template/${template(account).id}`, ownsObjects: true },
    "edge.replaceTemplate": {
      path: (account, made) => `/edge/v1/template/${made?.id ?? missingId(account)}`,
      ownsObjects: true,
      makes: "edge.createTemplate",
      body: templateBody,
    },
    "edge.deleteTemplate": {
      path: (account, made) => `/edge/v1/template/${made?.id ?? missingId(account)}`,
      ownsObjects: true,
      makes: "edge.createTemplate",
    },
    "edge.listSecrets": { path: () => "/edge/v1/secrets?limit=5", ownsObjects: false },
    "edge.createSecret": {
      path: () => "/edge/v1/secrets",
      ownsObjects: false,
      body: () => ({ name: uniqueName("route-case"), comment: "Made by the route cases", secret_slots: [{ slot: 0, value: "route-case-value" }] }),
    },
    "edge.getSecret": { path: (account) => `/edge/v1/secrets/${secret(account).id}`, ownsObjects: true },
    "edge.updateSecret": {
      path: (account) => `/edge/v1/secrets/${secret(account).id}`,
      ownsObjects: true,
      body: () => ({ comment: uniqueName("Changed by the route cases") }),
    },
    "edge.replaceSecret": {
      path: (account, made) => `/edge/v1/secrets/${made?.id ?? missingId(account)}`,
      ownsObjects: true,
      makes: "edge.createSecret",
      body: () => ({ name: uniqueName("route-case"), comment: "Replaced by the route cases" }),
    },
    "edge.deleteSecret": {
      path: (account, made) => `/edge/v1/secrets/${made?.id ?? missingId(account)}`,
      ownsObjects: true,
      makes: "edge.createSecret",
    },
    "edge.listBinaries": { path: () => "/edge/v1/binaries?limit=5", ownsObjects: false },
    "edge.getBinary": { path: (account) => `/edge/v1/binaries/${binary(account).id}`, ownsObjects: true },
    // Raw bytes, not JSON: the smallest WebAssembly module, its 8-byte header (sent as application/octet-stream).
    "edge.uploadBinary": { path: () => "/edge/v1/binaries/raw", ownsObjects: false, body: () => emptyWasmModule() },
    "edge.deleteBinary": {
      path: (account, made) => `/edge/v1/binaries/${made?.id ?? missingId(account)}`,
      ownsObjects: true,
      makes: "edge.uploadBinary",
    },
  } satisfies AreaRouteCases<"edge">;
}
