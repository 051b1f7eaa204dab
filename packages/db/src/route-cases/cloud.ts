/**
 * Route cases of the Cloud area: one valid request per route on the demo data (see ../route-cases.ts).
 */
import type { DemoFixture, DemoAccountId } from "../demo-fixture.js";
import { type AreaRouteCases, first, uniqueName } from "./case.js";

export function cloudRouteCases(fixture: DemoFixture) {
  const { cloud } = fixture;
  const image = (account: DemoAccountId) => first(cloud.gpu_images, `GPU image of account ${account}`, (candidate) => candidate.account_id === account);
  const task = (account: DemoAccountId) => first(cloud.tasks, `cloud task of account ${account}`, (candidate) => candidate.account_id === account);
  const images = (account: DemoAccountId) => `/cloud/v3/gpu/virtual/${image(account).project_id}/${image(account).region_id}/images`;
  const model = first(cloud.inference_models, "inference model", () => true);
  const months = cloud.usage_lines.map((line) => line.month).sort();
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
        regions: [image(1).region_id, image(2).region_id],
        schema_filter: { type: "instance", field: "flavor", values: ["g1-gpu-1", "it's \"quoted\""] },
      }),
    },
  } satisfies AreaRouteCases<"cloud">;
}
