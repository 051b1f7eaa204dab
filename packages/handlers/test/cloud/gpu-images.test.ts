/**
 * Integration tests of the Cloud GPU images, virtual and bare-metal alike (one implementation at two
 * paths): a project's images of the kind in a region (listed, paged, one by id), uploaded and deleted with
 * the tasks they answer, and refused writes that change nothing.
 */
import { GPU_CLUSTER_TYPES } from "@cloudplane/contract";
import { byColumnName, demoFixture, sql, type DemoAccountId, type DemoRow } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi, type Reply } from "../harness.js";

const { gpuImages: allImages, cloudProjects: projects, cloudRegions: regions } = demoFixture;

type DemoGpuImage = DemoRow<"gpuImages">;

/** Code-point order: the order the API promises whatever the database's collation. */
function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** An image as the API shows it: the fixture's row without the keys it is stored under (nor cow_format, which it keeps to itself, nor its kind, which its path says). */
function shown(row: DemoGpuImage) {
  const { account_id: _account, project_id: _project, region_id: _region, cow_format: _cow, cluster_type: _kind, ...image } = byColumnName("gpuImages", row);
  return image;
}

const NO_SUCH_UUID = "00000000-0000-4000-8000-000000000000";
const theirProject = projects.find((project) => project.accountId === 2)!;

describe.each(engines().flatMap((engine) => GPU_CLUSTER_TYPES.map((kind) => [engine, kind] as const)))("cloud GPU images on %s, %s", (engine, kind) => {
  const api = useApi(engine);
  const images = allImages.filter((image) => image.clusterType === kind);
  const imagesPath = (project: number, region: number) => `/cloud/v3/gpu/${kind}/${project}/${region}/images`;
  /** Account 1's own (private) image of the kind, a public one, and the project and region of the public one with all its images. */
  const privateImage = images.find((image) => image.accountId === 1 && image.visibility === "private")!;
  const publicImage = images.find((image) => image.accountId === 1 && image.visibility === "public")!;
  const busy = { project: publicImage.projectId, region: publicImage.regionId };
  const busyImages = images
    .filter((image) => image.projectId === busy.project && image.regionId === busy.region)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : 1));
  const queuedImage = images.find((image) => image.status === "queued");
  const theirImage = images.find((image) => image.projectId === theirProject.id)!;

const upload = {
  name: "acme-finetune-base",
  url: "https://user:secret-pass@images.acme.example/finetune.qcow2",
  architecture: "aarch64",
  cow_format: true,
  hw_firmware_type: "uefi",
  os_distro: "ubuntu",
  os_type: "linux",
  os_version: "24.04",
  ssh_key: "required",
  tags: { team: "research", purpose: "fine-tuning" },
};

  async function storedImages() {
    return selectRows(api.database.db, sql`select * from gpu_images order by id`);
  }

  async function storedTasks() {
    return selectRows(api.database.db, sql`select * from cloud_tasks order by id`);
  }

  /** A write must be refused and leave every image and task as it was. */
  async function expectRefusedUnchanged(send: () => Promise<Reply>): Promise<Reply> {
    const before = { images: await storedImages(), tasks: await storedTasks() };
    const reply = await send();
    expect(reply.status, reply.text).toBeGreaterThanOrEqual(400);
    expect({ images: await storedImages(), tasks: await storedTasks() }).toEqual(before);
    return reply;
  }

  it("has images of the kind in the fixture: public and private ones, and another account's", () => {
    expect([privateImage, publicImage, theirImage].every(Boolean)).toBe(true);
    expect(busyImages.length).toBeGreaterThanOrEqual(2);
  });

  describe("GET /cloud/v3/gpu/{kind}/{project_id}/{region_id}/images", () => {
    const cases = projects.flatMap((project) => regions.map((region) => [project.accountId, project.id, region.id] as const));

    it.each(cases)("account %i, project %i, region %i: the fixture's images", async (accountId, projectId, regionId) => {
      const expected = images
        .filter((image) => image.accountId === accountId && image.projectId === projectId && image.regionId === regionId)
        .map((row) => {
          return shown(row);
        })
        .sort((a, b) => byCodePoint(a.id as string, b.id as string));
      const reply = await api.call("GET", imagesPath(projectId, regionId), { as: [accountId as DemoAccountId, "role-2-active"] });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body.count).toBe(expected.length);
      expect([...reply.body.results].sort((a: { id: string }, b: { id: string }) => byCodePoint(a.id, b.id))).toEqual(expected);
    });

    it("answers 404 for the other account's project, as for one that does not exist", async () => {
      const theirs = theirProject;
      // The owner sees images there, so the 404 below is about whose project it is.
      const owner = await api.call("GET", imagesPath(theirs.id, theirImage.regionId), { as: [2, "role-1-active"] });
      expect(owner.body.results).toContainEqual(expect.objectContaining({ id: theirImage.id }));
      for (const projectId of [theirs.id, 999_999]) {
        const reply = await api.call("GET", imagesPath(projectId, theirImage.regionId));
        expectEnvelope(reply, 404, "not_found");
      }
    });

    it("answers 404 for an unknown region", async () => {
      const ours = projects.find((project) => project.accountId === 1)!;
      const unknownRegion = Math.max(...regions.map((region) => region.id)) + 1000;
      const reply = await api.call("GET", imagesPath(ours.id, unknownRegion));
      expectEnvelope(reply, 404, "not_found");
    });

    it("answers 400 for ids that are not positive integers", async () => {
      expectEnvelope(await api.call("GET", `/cloud/v3/gpu/${kind}/0/1/images`), 400, "validation_error", { "path.project_id": [expect.any(String)] });
      expectEnvelope(await api.call("GET", `/cloud/v3/gpu/${kind}/1/x/images`), 400, "validation_error", { "path.region_id": [expect.any(String)] });
    });
  });

  describe("GET /cloud/v3/gpu/{kind}/{project_id}/{region_id}/images with limit and offset", () => {
    it("pages by name, counting every image", async () => {
      const ids: string[] = [];
      for (let offset = 0; offset < busyImages.length; offset += 1) {
        const reply = await api.call("GET", `${imagesPath(busy.project, busy.region)}?limit=1&offset=${offset}`);
        expect(reply.status, reply.text).toBe(200);
        expect(reply.body.count).toBe(busyImages.length);
        ids.push(...reply.body.results.map((image: { id: string }) => image.id));
      }
      expect(ids).toEqual(busyImages.map((image) => image.id));
      const beyond = await api.call("GET", `${imagesPath(busy.project, busy.region)}?offset=${busyImages.length}`);
      expect(beyond.body).toEqual({ count: busyImages.length, results: [] });
    });

    it.each([
      ["limit=0", "query.limit"],
      ["limit=1001", "query.limit"],
      ["offset=-1", "query.offset"],
      ["limit=two", "query.limit"],
    ])("answers 400 for %s", async (query, field) => {
      expectEnvelope(await api.call("GET", `${imagesPath(busy.project, busy.region)}?${query}`), 400, "validation_error", [field]);
    });
  });

  describe("GET …/images/{image_id}", () => {
    it("answers the image with its disk format and GPU driver fields", async () => {
      for (const image of [privateImage, publicImage, ...(queuedImage ? [queuedImage] : [])]) {
        const reply = await api.call("GET", `${imagesPath(image.projectId, image.regionId)}/${image.id}`, { as: [1, "role-2-active"] });
        expect(reply.status, reply.text).toBe(200);
        expect(reply.body).toEqual(shown(image));
      }
      expect(publicImage.gpuDriver).toBe("nvidia");
      expect(privateImage.diskFormat).toBe("raw");
    });

    it("answers 404 for an image of the other kind, at this kind's path", async () => {
      const other = allImages.find((image) => image.accountId === 1 && image.clusterType !== kind)!;
      const owner = await api.call("GET", `/cloud/v3/gpu/${other.clusterType}/${other.projectId}/${other.regionId}/images/${other.id}`);
      expect(owner.status, owner.text).toBe(200);
      expectEnvelope(await api.call("GET", `${imagesPath(other.projectId, other.regionId)}/${other.id}`), 404, "not_found");
      expectEnvelope(await expectRefusedUnchanged(() => api.call("DELETE", `${imagesPath(other.projectId, other.regionId)}/${other.id}`)), 404, "not_found");
    });

    it("answers 404 for another account's image, an image of another region, and an unknown one", async () => {
      const owner = await api.call("GET", `${imagesPath(theirImage.projectId, theirImage.regionId)}/${theirImage.id}`, { as: [2, "role-1-active"] });
      expect(owner.status, owner.text).toBe(200);
      expectEnvelope(await api.call("GET", `${imagesPath(theirImage.projectId, theirImage.regionId)}/${theirImage.id}`), 404, "not_found");
      const otherRegion = privateImage.regionId === 1 ? 2 : 1;
      expectEnvelope(await api.call("GET", `${imagesPath(privateImage.projectId, otherRegion)}/${privateImage.id}`), 404, "not_found");
      expectEnvelope(await api.call("GET", `${imagesPath(busy.project, busy.region)}/${NO_SUCH_UUID}`), 404, "not_found");
      expectEnvelope(await api.call("GET", `${imagesPath(busy.project, busy.region)}/not-a-uuid`), 400, "validation_error", ["path.image_id"]);
    });
  });

  describe("the life of an uploaded image: upload → task → get → list → delete → 404", () => {
    it("uploads at once, answers a running task named as the image, and deletes it with a task of its own", async () => {
      const reply = await api.call("POST", imagesPath(1, 2), { body: upload, as: [1, "role-5-active"] });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toEqual({ tasks: [expect.stringMatching(/^[0-9a-f-]{36}$/)] });
      // Never shown back, never stored.
      expect(reply.text).not.toContain("secret-pass");
      const [taskId] = reply.body.tasks as string[];

      const task = await api.call("GET", `/cloud/v1/tasks/${taskId}`);
      expect(task.status, task.text).toBe(200);
      // The image is there at once; the task reports RUNNING for its first seconds (tasks.test.ts sees it finish).
      expect(task.body).toEqual({
        id: taskId,
        task_type: `upload_gpu_${kind}_image`,
        state: "RUNNING",
        detailed_state: null,
        created_on: expect.any(String),
        updated_on: task.body.created_on,
        finished_on: null,
        client_id: 1,
        user_client_id: 1,
        user_id: demoFixture.apiTokens.find((token) => token.accountId === 1 && token.name === "role-5-active")!.userId,
        project_id: 1,
        region_id: 2,
        created_resources: { images: [taskId] },
        data: { image_name: upload.name },
        error: null,
        acknowledged_at: null,
        acknowledged_by: null,
        job_id: null,
        lifecycle_policy_id: null,
        schedule_id: null,
        request_id: null,
      });

      const imageId = task.body.created_resources.images[0] as string;
      const image = await api.call("GET", `${imagesPath(1, 2)}/${imageId}`);
      expect(image.status, image.text).toBe(200);
      expect(image.body).toEqual({
        id: imageId,
        name: upload.name,
        architecture: "aarch64",
        os_distro: "ubuntu",
        os_type: "linux",
        os_version: "24.04",
        ssh_key: "required",
        status: "active",
        visibility: "private",
        created_at: task.body.created_on,
        updated_at: task.body.created_on,
        min_disk: 0,
        min_ram: 0,
        size: null,
        tags: [
          { key: "team", read_only: false, value: "research" },
          { key: "purpose", read_only: false, value: "fine-tuning" },
        ],
        task_id: null,
        disk_format: "raw",
        hw_firmware_type: "uefi",
        cuda_toolkit_version: null,
        gpu_driver: null,
        gpu_driver_type: null,
        gpu_driver_version: null,
      });
      const stored = JSON.stringify(await storedImages()) + JSON.stringify(await storedTasks());
      expect(stored).not.toContain("secret-pass");
      expect(stored).not.toContain("images.acme.example");

      const listed = await api.call("GET", imagesPath(1, 2));
      expect(listed.body.results).toContainEqual(image.body);

      const deleted = await api.call("DELETE", `${imagesPath(1, 2)}/${imageId}`);
      expect(deleted.status, deleted.text).toBe(200);
      expect(deleted.body).toEqual({ tasks: [expect.stringMatching(/^[0-9a-f-]{36}$/)] });
      const deleteTask = await api.call("GET", `/cloud/v1/tasks/${deleted.body.tasks[0]}`, { as: [1, "role-2-active"] });
      expect(deleteTask.body).toMatchObject({
        task_type: `delete_gpu_${kind}_image`,
        state: "RUNNING",
        created_resources: null,
        data: { image_id: imageId },
      });

      expectEnvelope(await api.call("GET", `${imagesPath(1, 2)}/${imageId}`), 404, "not_found");
      expectEnvelope(await api.call("DELETE", `${imagesPath(1, 2)}/${imageId}`), 404, "not_found");
    });

    it("fills the defaults: x86_64, linux, allow, qcow2, no OS, no tags", async () => {
      const reply = await api.call("POST", imagesPath(1, 1), { body: { name: "minimal", url: "http://images.acme.example/minimal.img" } });
      expect(reply.status, reply.text).toBe(200);
      const image = await api.call("GET", `${imagesPath(1, 1)}/${reply.body.tasks[0]}`);
      expect(image.body).toMatchObject({
        architecture: "x86_64",
        os_type: "linux",
        ssh_key: "allow",
        disk_format: "qcow2",
        hw_firmware_type: null,
        os_distro: null,
        os_version: null,
        tags: [],
        visibility: "private",
        status: "active",
      });
    });
  });

  describe("refused writes change nothing", () => {
    it.each<[string, Record<string, unknown>, string[]]>([
      ["no name", { url: upload.url }, ["name"]],
      ["an empty name", { name: "", url: upload.url }, ["name"]],
      ["no url", { name: "x" }, ["url"]],
      ["a url that is not one", { name: "x", url: "images/x.qcow2" }, ["url"]],
      ["an ftp url", { name: "x", url: "ftp://images.acme.example/x.qcow2" }, ["url"]],
      ["an unknown architecture", { name: "x", url: upload.url, architecture: "riscv64" }, ["architecture"]],
      ["an unknown os_type", { name: "x", url: upload.url, os_type: "plan9" }, ["os_type"]],
      ["an unknown ssh_key", { name: "x", url: upload.url, ssh_key: "maybe" }, ["ssh_key"]],
      ["a firmware type", { name: "x", url: upload.url, hw_firmware_type: "coreboot" }, ["hw_firmware_type"]],
      ["a tag value over 255 characters", { name: "x", url: upload.url, tags: { team: "x".repeat(256) } }, ["tags.team"]],
      ["a read-only field", { name: "x", url: upload.url, status: "active" }, ["status"]],
      ["an unknown field", { name: "x", url: upload.url, colour: "blue" }, ["colour"]],
    ])("upload with %s: 400 naming the field", async (_what, body, fields) => {
      const reply = await expectRefusedUnchanged(() => api.call("POST", imagesPath(1, 1), { body }));
      expectEnvelope(reply, 400, "validation_error", fields);
    });

    it("answers 404 for another account's project or an unknown region, uploading nothing", async () => {
      for (const path of [imagesPath(theirProject.id, 1), imagesPath(1, 999), imagesPath(999_999, 1)]) {
        expectEnvelope(await expectRefusedUnchanged(() => api.call("POST", path, { body: upload })), 404, "not_found");
      }
    });

    it("refuses to delete a public image (403), an image a running task holds (409), and another account's (404)", async () => {
      const reply = await expectRefusedUnchanged(() => api.call("DELETE", `${imagesPath(publicImage.projectId, publicImage.regionId)}/${publicImage.id}`));
      expectEnvelope(reply, 403, "permission_denied");
      if (queuedImage) {
        expect(queuedImage.taskId).not.toBeNull();
        const held = await expectRefusedUnchanged(() => api.call("DELETE", `${imagesPath(queuedImage.projectId, queuedImage.regionId)}/${queuedImage.id}`));
        expectEnvelope(held, 409, "conflict");
      } else expect(kind).toBe("baremetal");
      const theirs = await expectRefusedUnchanged(() => api.call("DELETE", `${imagesPath(theirImage.projectId, theirImage.regionId)}/${theirImage.id}`));
      expectEnvelope(theirs, 404, "not_found");
    });

    it("lets only writers upload and delete: Users and the Purge and Prefetch roles get 403", async () => {
      for (const token of ["role-2-active", "role-3022-active", "role-3009-active"] as const) {
        expectEnvelope(await expectRefusedUnchanged(() => api.call("POST", imagesPath(1, 1), { body: upload, as: [1, token] })), 403, "permission_denied");
        const remove = () => api.call("DELETE", `${imagesPath(privateImage.projectId, privateImage.regionId)}/${privateImage.id}`, { as: [1, token] });
        expectEnvelope(await expectRefusedUnchanged(remove), 403, "permission_denied");
      }
    });
  });
});
