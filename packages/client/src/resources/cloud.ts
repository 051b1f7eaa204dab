/**
 * Cloud: the inference model catalogue (a paged listing), GPU images of a project and region with the
 * tasks that upload and delete them, and reservation cost report totals (`client.cloud.*`).
 */
import type {
  CloudTask,
  CostReportTotals,
  CostReportTotalsBody,
  GpuImage,
  GpuImageList,
  InferenceModel,
  InferenceModelList,
  ListGpuImagesQuery,
  ListInferenceModelsQuery,
  TaskIdList,
  UploadGpuImageBody,
} from "@cloudplane/contract";
import type { APIPromise } from "../core/api-promise.js";
import type { ClientOptions, RequestOptions } from "../core/options.js";
import { offsetPaging, type PagePromise } from "../core/pagination.js";
import { APIResource } from "../core/resource.js";
import { cloudRoutes } from "../core/routes.generated.js";
import { Transport } from "../core/transport.js";

export type { GpuImageList } from "@cloudplane/contract";

const inferenceModelsPaging = /* @__PURE__ */ offsetPaging<InferenceModel, InferenceModelList, ListInferenceModelsQuery>((list) => list.results);
const gpuImagesPaging = /* @__PURE__ */ offsetPaging<GpuImage, GpuImageList, ListGpuImagesQuery>((list) => list.results);

export class InferenceModels extends APIResource {
  /**
   * `GET /cloud/v2/inference/models`: a page of the catalogue (`limit` default 1000, `offset`), ordered by
   * `order_by` (default `name.asc`). `for await` over the result goes through every model of every page.
   */
  list(query?: ListInferenceModelsQuery, options?: RequestOptions): PagePromise<InferenceModel, InferenceModelList> {
    return this.transport.list(cloudRoutes.listInferenceModels, { query }, options, inferenceModelsPaging);
  }

  /** `GET /cloud/v2/inference/models/{model_id}`: one model of the catalogue by its `id` (a UUID). */
  get(modelId: string, options?: RequestOptions): APIPromise<InferenceModel> {
    return this.transport.request(cloudRoutes.getInferenceModel, { params: { model_id: modelId } }, options);
  }
}

export class GpuImages extends APIResource {
  /**
   * `GET /cloud/v3/gpu/virtual/{project_id}/{region_id}/images`: a page of the images for virtual GPU clusters of a
   * project in a region (`limit` default 1000, `offset`), by name; `for await` over the result goes through every image.
   */
  list(projectId: number, regionId: number, query?: ListGpuImagesQuery, options?: RequestOptions): PagePromise<GpuImage, GpuImageList> {
    return this.transport.list(cloudRoutes.listGpuImages, { params: { project_id: projectId, region_id: regionId }, query }, options, gpuImagesPaging);
  }

  /** `GET /cloud/v3/gpu/virtual/{project_id}/{region_id}/images/{image_id}`: one image of the project in the region. */
  get(projectId: number, regionId: number, imageId: string, options?: RequestOptions): APIPromise<GpuImage> {
    return this.transport.request(cloudRoutes.getGpuImage, { params: { project_id: projectId, region_id: regionId, image_id: imageId } }, options);
  }

  /**
   * `POST /cloud/v3/gpu/virtual/{project_id}/{region_id}/images`: adds an image from a URL; resolves to the task
   * ids. The task is finished when this resolves, and its id is the new image's id.
   */
  upload(projectId: number, regionId: number, body: UploadGpuImageBody, options?: RequestOptions): APIPromise<TaskIdList> {
    return this.transport.request(cloudRoutes.uploadGpuImage, { params: { project_id: projectId, region_id: regionId }, body }, options);
  }

  /** `DELETE /cloud/v3/gpu/virtual/{project_id}/{region_id}/images/{image_id}`: deletes one of the project's own images; resolves to the task ids. */
  delete(projectId: number, regionId: number, imageId: string, options?: RequestOptions): APIPromise<TaskIdList> {
    return this.transport.request(cloudRoutes.deleteGpuImage, { params: { project_id: projectId, region_id: regionId, image_id: imageId } }, options);
  }
}

export class Tasks extends APIResource {
  /** `GET /cloud/v1/tasks/{task_id}`: a task of the account, e.g. the one an image upload answered. */
  get(taskId: string, options?: RequestOptions): APIPromise<CloudTask> {
    return this.transport.request(cloudRoutes.getTask, { params: { task_id: taskId } }, options);
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
  readonly tasks: Tasks;
  readonly costReports: CostReports;

  constructor(transport: Transport) {
    this.inferenceModels = new InferenceModels(transport);
    this.gpuImages = new GpuImages(transport);
    this.tasks = new Tasks(transport);
    this.costReports = new CostReports(transport);
  }
}

/** A client of the Cloud area alone, for bundles that need nothing else. */
export function createCloudClient(options?: ClientOptions): Cloud {
  return new Cloud(new Transport(options));
}
