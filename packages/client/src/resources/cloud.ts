/**
 * Cloud: the inference model catalogue (a paged listing), GPU images of a project and region, and
 * reservation cost report totals (`client.cloud.*`).
 */
import type {
  Contract,
  CostReportTotals,
  CostReportTotalsBody,
  InferenceModel,
  InferenceModelList,
  ListInferenceModelsQuery,
} from "@cloudplane/contract";
import type { APIPromise } from "../core/api-promise.js";
import type { ClientOptions, RequestOptions } from "../core/options.js";
import { offsetPaging, type PagePromise } from "../core/pagination.js";
import { APIResource } from "../core/resource.js";
import type { Success } from "../core/routes.js";
import { cloudRoutes } from "../core/routes.generated.js";
import { Transport } from "../core/transport.js";

/** The GPU images of a project and region: `{ count, results }`. */
export type GpuImageList = Success<Contract["cloud"]["listGpuImages"]>;

const inferenceModelsPaging = /* @__PURE__ */ offsetPaging<InferenceModel, InferenceModelList, ListInferenceModelsQuery>((list) => list.results);

export class InferenceModels extends APIResource {
  /**
   * `GET /cloud/v2/inference/models`: a page of the catalogue (`limit` default 1000, `offset`), ordered by
   * `order_by` (default `name.asc`). `for await` over the result goes through every model of every page.
   */
  list(query?: ListInferenceModelsQuery, options?: RequestOptions): PagePromise<InferenceModel, InferenceModelList> {
    return this.transport.list(cloudRoutes.listInferenceModels, { query }, options, inferenceModelsPaging);
  }
}

export class GpuImages extends APIResource {
  /** `GET /cloud/v3/gpu/virtual/{project_id}/{region_id}/images`: the images for virtual GPU clusters of a project in a region. */
  list(projectId: number, regionId: number, options?: RequestOptions): APIPromise<GpuImageList> {
    return this.transport.request(cloudRoutes.listGpuImages, { params: { project_id: projectId, region_id: regionId } }, options);
  }
}

export class CostReports extends APIResource {
  /**
   * `POST /cloud/v1/reservation_cost_report/totals`: usage and cost from `time_from` to `time_to` (months,
   * inclusive), summed per type, region, flavor, metric, feature, unit and currency. With
   * `response_format: "csv_totals"` it resolves to the same totals as CSV text.
   */
  totals(body: CostReportTotalsBody & { response_format: "csv_totals" }, options?: RequestOptions): APIPromise<string>;
  totals(body: CostReportTotalsBody & { response_format?: "json" | undefined }, options?: RequestOptions): APIPromise<CostReportTotals>;
  totals(body: CostReportTotalsBody, options?: RequestOptions): APIPromise<CostReportTotals | string>;
  totals(body: CostReportTotalsBody, options?: RequestOptions): APIPromise<CostReportTotals | string> {
    return this.transport.request(cloudRoutes.getReservationCostReportTotals, { body }, options);
  }
}

/** The Cloud area. */
export class Cloud {
  readonly inferenceModels: InferenceModels;
  readonly gpuImages: GpuImages;
  readonly costReports: CostReports;

  constructor(transport: Transport) {
    this.inferenceModels = new InferenceModels(transport);
    this.gpuImages = new GpuImages(transport);
    this.costReports = new CostReports(transport);
  }
}

/** A client of the Cloud area alone, for bundles that need nothing else. */
export function createCloudClient(options?: ClientOptions): Cloud {
  return new Cloud(new Transport(options));
}
