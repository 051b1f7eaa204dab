/**
 * Integration tests of the Cloud tasks: the fixture's tasks shown to their account, and 404 for another
 * account's.
 */
import { demoFixture } from "@cloudplane/db";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi } from "../harness.js";

const { cloudTasks: tasks } = demoFixture;

const NO_SUCH_UUID = "00000000-0000-4000-8000-000000000000";

describe.each(engines())("cloud tasks on %s", (engine) => {
  const api = useApi(engine);

  describe("GET /cloud/v1/tasks/{task_id}", () => {
    it("answers the fixture's tasks to their account, a running one too", async () => {
      for (const task of tasks) {
        const reply = await api.call("GET", `/cloud/v1/tasks/${task.id}`, { as: [task.accountId as 1 | 2, "role-2-active"] });
        expect(reply.status, reply.text).toBe(200);
        expect(reply.body).toEqual({
          id: task.id,
          task_type: task.taskType,
          state: task.state,
          detailed_state: task.state,
          created_on: task.createdOn,
          updated_on: task.finishedOn ?? task.createdOn,
          finished_on: task.finishedOn,
          client_id: task.accountId,
          user_id: task.userId,
          project_id: task.projectId,
          region_id: task.regionId,
          created_resources: task.createdResources,
          data: task.data,
          error: null,
          acknowledged_at: null,
          acknowledged_by: null,
        });
      }
      expect(tasks.map((task) => task.state)).toContain("RUNNING");
    });

    it("answers 404 for another account's task and an unknown one, 400 for an id that is not a UUID", async () => {
      const theirs = tasks.find((task) => task.accountId === 2)!;
      expectEnvelope(await api.call("GET", `/cloud/v1/tasks/${theirs.id}`), 404, "not_found");
      expectEnvelope(await api.call("GET", `/cloud/v1/tasks/${NO_SUCH_UUID}`), 404, "not_found");
      expectEnvelope(await api.call("GET", "/cloud/v1/tasks/42"), 400, "validation_error", ["path.task_id"]);
    });
  });
});
