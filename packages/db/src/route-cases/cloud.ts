/**
 * Route cases of the Cloud area: one valid request per route on the demo data (see ../route-cases.ts).
 */
import type { DemoFixture, DemoAccountId } from "../demo-fixture.js";
import { type AreaRouteCases, first, uniqueName } from "./case.js";

export function cloudRouteCases(fixture: DemoFixture) {
  const image = (account: DemoAccountId) => first(fixture.gpuImages, `GPU image of account ${account}`, (candidate) => candidate.accountId === account);
  const task = (account: DemoAccountId) => first(fixture.cloudTasks, `cloud task of account ${account}`, (candidate) => candidate.accountId === account);
  const images = (account: DemoAccountId) => `/cloud/v3/gpu/virtual/${image(account).projectId}/${image(account).regionId}/images`;
  const model = first(fixture.inferenceModels, "inference model", () => true);
  const months = fixture.usageLines.map((line) => line.month).sort();
  return {
    "cloud.listInferenceModels": { path: () => "/cloud/v2/inference/models?limit=5", ownsObjects: false },
    "cloud.getInferenceModel": { path: () => `/cloud/v2/inference/models/${model.id}`, ownsObjects: false },
    "cloud.listGpuImages": { path: (account) => `${images(account)}?limit=10`, ownsObjects: true },
    "cloud.getGpuImage": { path: (account) => `${images(account)}/${image(account).id}`, ownsObjects: true },
    "cloud.uploadGpuImage": {
      path: (account) => images(account),
      ownsObjects: true,
      body: () => ({ name: uniqueName("route-case-image"), url: "https://images.cloud-cases.example/route-case.qcow2", tags: { made_by: "route cases" } }),
    },
    "cloud.deleteGpuImage": {
      // An upload's task id is the new image's id.
      path: (account, made) => `${images(account)}/${(made?.tasks as string[] | undefined)?.[0] ?? `00000000-0000-4000-8000-00000000000${account}`}`,
      ownsObjects: true,
      makes: "cloud.uploadGpuImage",
    },
    "cloud.getTask": { path: (account) => `/cloud/v1/tasks/${task(account).id}`, ownsObjects: true },
    "cloud.getReservationCostReportTotals": {
      path: () => "/cloud/v1/reservation_cost_report/totals",
      ownsObjects: false,
      // Lists as filters too: every deployment's driver must send them as arrays.
      body: () => ({
        time_from: months[0] ?? "2026-01",
        time_to: months.at(-1) ?? "2026-12",
        types: ["instance", "egress_traffic", "volume"],
        regions: [image(1).regionId, image(2).regionId],
        schema_filter: { type: "instance", field: "flavor", values: ["g1-gpu-1", "it's \"quoted\""] },
      }),
    },
  } satisfies AreaRouteCases<"cloud">;
}
