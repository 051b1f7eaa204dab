/**
 * Integration tests of the Cloud tasks: the fixture's tasks shown to their account (404 for another's),
 * the list and its filters, a task that moves from RUNNING to FINISHED, and acknowledging one or all.
 */
import { CLOUD_TASK_RUNNING_SECONDS } from "@cloudplane/contract";
import { demoFixture, demoToken, sql, type DemoRow } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi } from "../harness.js";

const { cloudTasks: tasks } = demoFixture;

const NO_SUCH_UUID = "00000000-0000-4000-8000-000000000000";
const ADMIN_USER = demoToken(1, "role-1-active").userId;

/** A fixture task as the API shows it (the fixture's tasks ended long ago, or are running until the service says). */
function shown(task: DemoRow<"cloudTasks">) {
  const ended = task.finishedOn !== null;
  return {
    id: task.id,
    task_type: task.taskType,
    state: task.state,
    detailed_state: ended ? task.state : null,
    created_on: task.createdOn,
    updated_on: task.finishedOn ?? task.createdOn,
    finished_on: task.finishedOn,
    client_id: task.accountId,
    user_client_id: task.accountId,
    user_id: task.userId,
    project_id: task.projectId,
    region_id: task.regionId,
    created_resources: task.createdResources,
    data: task.data,
    error: null,
    acknowledged_at: task.acknowledgedAt,
    acknowledged_by: task.acknowledgedBy,
    job_id: null,
    lifecycle_policy_id: null,
    schedule_id: null,
    request_id: null,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(engines())("cloud tasks on %s", (engine) => {
  const api = useApi(engine);

  const storedTasks = () => selectRows(api.database.db, sql`select * from cloud_tasks order by id`);

  /** Uploads an image (as account 1's administrator) and answers its task's id. */
  async function startedTask(project = 1, region = 1): Promise<string> {
    const reply = await api.call("POST", `/cloud/v3/gpu/virtual/${project}/${region}/images`, { body: { name: "task-test", url: "https://images.acme.example/t.qcow2" } });
    expect(reply.status, reply.text).toBe(200);
    return reply.body.tasks[0] as string;
  }

  describe("GET /cloud/v1/tasks/{task_id}", () => {
    it("answers the fixture's tasks to their account, a running one too", async () => {
      for (const task of tasks) {
        const reply = await api.call("GET", `/cloud/v1/tasks/${task.id}`, { as: [task.accountId as 1 | 2, "role-2-active"] });
        expect(reply.status, reply.text).toBe(200);
        expect(reply.body).toEqual(shown(task));
      }
      expect(tasks.map((task) => task.state)).toContain("RUNNING");
      expect(tasks.some((task) => task.acknowledgedAt !== null)).toBe(true);
    });

    it("answers 404 for another account's task and an unknown one, 400 for an id that is not a UUID", async () => {
      const theirs = tasks.find((task) => task.accountId === 2)!;
      expectEnvelope(await api.call("GET", `/cloud/v1/tasks/${theirs.id}`), 404, "not_found");
      expectEnvelope(await api.call("GET", `/cloud/v1/tasks/${NO_SUCH_UUID}`), 404, "not_found");
      expectEnvelope(await api.call("GET", "/cloud/v1/tasks/42"), 400, "validation_error", ["path.task_id"]);
    });
  });

  describe("a task's course", () => {
    it(`reports RUNNING for ${CLOUD_TASK_RUNNING_SECONDS} seconds, then FINISHED, in the task, the list and its state filter`, async () => {
      const taskId = await startedTask();
      const running = await api.call("GET", `/cloud/v1/tasks/${taskId}`);
      expect(running.body).toMatchObject({ id: taskId, state: "RUNNING", detailed_state: null, finished_on: null, updated_on: running.body.created_on });
      const runningList = await api.call("GET", "/cloud/v1/tasks?state=RUNNING&limit=1000");
      expect(runningList.body.results.map((task: { id: string }) => task.id)).toContain(taskId);
      const finishedBefore = await api.call("GET", "/cloud/v1/tasks?state=FINISHED&limit=1000");
      expect(finishedBefore.body.results.map((task: { id: string }) => task.id)).not.toContain(taskId);

      await sleep(CLOUD_TASK_RUNNING_SECONDS * 1000 + 200);
      const finished = await api.call("GET", `/cloud/v1/tasks/${taskId}`);
      const ended = new Date(Date.parse(running.body.created_on) + CLOUD_TASK_RUNNING_SECONDS * 1000).toISOString();
      expect(finished.body).toEqual({ ...running.body, state: "FINISHED", detailed_state: "FINISHED", finished_on: ended, updated_on: ended });
      const finishedList = await api.call("GET", "/cloud/v1/tasks?state=FINISHED&limit=1000");
      expect(finishedList.body.results).toContainEqual(finished.body);
      const runningAfter = await api.call("GET", "/cloud/v1/tasks?state=RUNNING&limit=1000");
      expect(runningAfter.body.results.map((task: { id: string }) => task.id)).not.toContain(taskId);
    });
  });

  describe("GET /cloud/v1/tasks", () => {
    const ours = tasks.filter((task) => task.accountId === 1).sort((a, b) => (a.createdOn < b.createdOn ? -1 : a.createdOn > b.createdOn ? 1 : a.id < b.id ? -1 : 1));

    it("lists the account's tasks oldest first, counting all, and pages them", async () => {
      const all = await api.call("GET", "/cloud/v1/tasks?limit=1000&to_timestamp=2026-10-01T00:00:00Z", { as: [1, "role-2-active"] });
      expect(all.status, all.text).toBe(200);
      expect(all.body).toEqual({ count: ours.length, results: ours.map(shown) });
      const page = await api.call("GET", "/cloud/v1/tasks?limit=1&offset=1&to_timestamp=2026-10-01T00:00:00Z");
      expect(page.body).toEqual({ count: ours.length, results: [shown(ours[1]!)] });
      const newest = await api.call("GET", "/cloud/v1/tasks?limit=1&order_by=desc&to_timestamp=2026-10-01T00:00:00Z");
      expect(newest.body.results).toEqual([shown(ours.at(-1)!)]);
      const deprecated = await api.call("GET", "/cloud/v1/tasks?limit=1&sorting=desc&to_timestamp=2026-10-01T00:00:00Z");
      expect(deprecated.body.results).toEqual(newest.body.results);
      // The default page is 10 tasks.
      const theirs = await api.call("GET", "/cloud/v1/tasks", { as: [2, "role-1-active"] });
      expect(theirs.body.results.map((task: { client_id: number }) => task.client_id)).toEqual(tasks.filter((task) => task.accountId === 2).map(() => 2));
    });

    it("filters by state, project, region, type, acknowledgement and creation time", async () => {
      const ids = async (query: string) => {
        // Before the tasks the other tests start (the fixture's are from earlier in the year).
        const until = query.includes("to_timestamp") ? "" : "&to_timestamp=2026-10-01T00:00:00";
        const reply = await api.call("GET", `/cloud/v1/tasks?limit=1000${until}&${query}`);
        expect(reply.status, reply.text).toBe(200);
        expect(reply.body.count).toBe(reply.body.results.length);
        return (reply.body.results as { id: string }[]).map((task) => task.id).sort();
      };
      const idsOf = (keep: (task: DemoRow<"cloudTasks">) => boolean) => ours.filter(keep).map((task) => task.id).sort();
      expect(await ids("state=RUNNING")).toEqual(idsOf((task) => task.state === "RUNNING"));
      expect(await ids("state=FINISHED&state=ERROR")).toEqual(idsOf((task) => task.state === "FINISHED"));
      expect(await ids("state=FINISHED,RUNNING")).toEqual(idsOf(() => true));
      expect(await ids("project_id=3")).toEqual(idsOf((task) => task.projectId === 3));
      expect(await ids("project_id=1&project_id=999")).toEqual([]);
      expect(await ids("region_id=1,2")).toEqual(idsOf(() => true));
      expect(await ids("region_id=2")).toEqual(idsOf((task) => task.regionId === 2));
      expect(await ids("task_type=upload_gpu_virtual_image")).toEqual(idsOf((task) => task.taskType === "upload_gpu_virtual_image"));
      expect(await ids("is_acknowledged=true")).toEqual(idsOf((task) => task.acknowledgedAt !== null));
      expect(await ids("is_acknowledged=false")).toEqual(idsOf((task) => task.acknowledgedAt === null));
      const middle = ours[1]!.createdOn;
      expect(await ids(`from_timestamp=${middle}`)).toEqual(idsOf((task) => task.createdOn >= middle));
      expect(await ids(`from_timestamp=${encodeURIComponent(middle.replace("Z", "+00:00"))}`)).toEqual(idsOf((task) => task.createdOn >= middle));
      expect(await ids(`to_timestamp=${middle.replace(".000Z", "")}`)).toEqual(idsOf((task) => task.createdOn <= middle));
    });

    it.each([
      ["limit=0", "query.limit"],
      ["limit=1001", "query.limit"],
      ["offset=-1", "query.offset"],
      ["order_by=newest", "query.order_by"],
      ["state=DONE", "query.state.0"],
      ["project_id=x", "query.project_id.0"],
      ["from_timestamp=yesterday", "query.from_timestamp"],
      ["is_acknowledged=yes", "query.is_acknowledged"],
    ])("answers 400 for %s", async (query, field) => {
      expectEnvelope(await api.call("GET", `/cloud/v1/tasks?${query}`), 400, "validation_error", [field]);
    });
  });

  describe("POST /cloud/v1/tasks/{task_id}/acknowledge and /acknowledge_all", () => {
    it("acknowledges a task once: a second acknowledgement keeps the first", async () => {
      const taskId = await startedTask();
      const first = await api.call("POST", `/cloud/v1/tasks/${taskId}/acknowledge`);
      expect(first.status, first.text).toBe(200);
      expect(first.body).toMatchObject({ id: taskId, acknowledged_at: expect.stringMatching(/Z$/), acknowledged_by: ADMIN_USER });
      const again = await api.call("POST", `/cloud/v1/tasks/${taskId}/acknowledge`, { as: [1, "role-5-active"], body: {} });
      expect(again.status, again.text).toBe(200);
      expect(again.body.acknowledged_at).toBe(first.body.acknowledged_at);
      expect(again.body.acknowledged_by).toBe(ADMIN_USER);
      const read = await api.call("GET", `/cloud/v1/tasks/${taskId}`);
      expect(read.body.acknowledged_at).toBe(first.body.acknowledged_at);
    });

    it("refuses another account's task (404), a body with fields (400) and readers (403), changing nothing", async () => {
      const theirs = tasks.find((task) => task.accountId === 2)!;
      const before = await storedTasks();
      expectEnvelope(await api.call("POST", `/cloud/v1/tasks/${theirs.id}/acknowledge`), 404, "not_found");
      expectEnvelope(await api.call("POST", `/cloud/v1/tasks/${NO_SUCH_UUID}/acknowledge`), 404, "not_found");
      expectEnvelope(await api.call("POST", `/cloud/v1/tasks/${tasks[0]!.id}/acknowledge`, { body: { acknowledged_by: 9 } }), 400, "validation_error", ["acknowledged_by"]);
      expectEnvelope(await api.call("POST", `/cloud/v1/tasks/${tasks[0]!.id}/acknowledge`, { as: [1, "role-2-active"] }), 403, "permission_denied");
      expectEnvelope(await api.call("POST", "/cloud/v1/tasks/acknowledge_all", { as: [1, "role-2-active"] }), 403, "permission_denied");
      expectEnvelope(await api.call("POST", "/cloud/v1/tasks/acknowledge_all?project_id=0"), 400, "validation_error", ["query.project_id"]);
      expect(await storedTasks()).toEqual(before);
    });

    it("acknowledges every task not yet acknowledged of a project, then of the account, and no other account's", async () => {
      const inProject2 = await startedTask(1, 2);
      const inProject3 = await startedTask(3, 1);
      const scoped = await api.call("POST", "/cloud/v1/tasks/acknowledge_all?project_id=3&region_id=1");
      expect(scoped.status, scoped.text).toBe(204);
      expect(scoped.text).toBe("");
      expect((await api.call("GET", `/cloud/v1/tasks/${inProject3}`)).body.acknowledged_by).toBe(ADMIN_USER);
      expect((await api.call("GET", `/cloud/v1/tasks/${inProject2}`)).body.acknowledged_at).toBeNull();
      const keptFirst = tasks.find((task) => task.accountId === 1 && task.acknowledgedAt !== null)!;

      const all = await api.call("POST", "/cloud/v1/tasks/acknowledge_all", { as: [1, "role-5-active"] });
      expect(all.status, all.text).toBe(204);
      const open = await api.call("GET", "/cloud/v1/tasks?is_acknowledged=false&limit=1000");
      expect(open.body).toEqual({ count: 0, results: [] });
      expect((await api.call("GET", `/cloud/v1/tasks/${inProject2}`)).body.acknowledged_by).toBe(demoToken(1, "role-5-active").userId);
      expect((await api.call("GET", `/cloud/v1/tasks/${keptFirst.id}`)).body).toMatchObject({ acknowledged_at: keptFirst.acknowledgedAt, acknowledged_by: keptFirst.acknowledgedBy });
      const theirs = await api.call("GET", "/cloud/v1/tasks?is_acknowledged=false", { as: [2, "role-1-active"] });
      expect(theirs.body.count).toBe(tasks.filter((task) => task.accountId === 2 && task.acknowledgedAt === null).length);
    });
  });
});
