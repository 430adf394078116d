import * as pulumi from "@pulumi/pulumi";
import { startEmulator, type Emulator, DEFAULT_RUNTASK_TOKEN } from "../../emulator";
import { DEFAULT_SNAPSHOT_TOKEN } from "../../emulator/snapshot/service";
import { hasCode, SnapshotRunTaskError } from "../../provider/common/errors";
import * as runTaskFunctions from "../../provider/functions/runTask";
import { closeSharedDispatchers } from "../../provider/http/dispatcher";
import { getRunTask, getSnapshotStatus, listWorkspaceRunTasks } from "../../sdk";
import { failure } from "../support/failure";

/**
 * What the functions throw: one of the package's errors with a stable code, naming the argument or the setting to
 * fix; arguments are checked as the resources' are, before any request.
 */
let emulator: Emulator;
const saved = { ...process.env };

beforeAll(async () => {
  emulator = await startEmulator({ snapshot: { takeSnapshots: false } });
  Object.assign(process.env, {
    RUNTASK_ADDR: emulator.url,
    RUNTASK_TOKEN: DEFAULT_RUNTASK_TOKEN,
    RUNTASK_ORGANIZATION: "emulator-org",
    SERVICE_ADDR: emulator.url,
    SERVICE_TOKEN: DEFAULT_SNAPSHOT_TOKEN,
  });
});
afterAll(async () => {
  process.env = saved;
  await emulator.close();
  await closeSharedDispatchers();
});

describe("codes", () => {
  test("getRunTask of a name no task has: not_found", async () => {
    const err = await failure(getRunTask({ name: "nope" }));
    expect(err).toBeInstanceOf(SnapshotRunTaskError);
    expect(err.code).toBe("not_found");
    expect(err.message).toBe('getRunTask: no run task named "nope" in organization "emulator-org"');
  });

  test("the SDK's functions fail with the package's error, which Pulumi's SDK prints as a RunError: its message alone, no stack", async () => {
    for (const call of [
      () => getRunTask({ name: "nope" }),
      () => getSnapshotStatus({ name: "nope" }),
      () => listWorkspaceRunTasks({ workspaceId: "app-production" }),
    ]) {
      const err = await failure(call());
      expect([err instanceof SnapshotRunTaskError, typeof err.code, pulumi.RunError.isInstance(err)]).toEqual([true, "string", true]);
      // Not one of its own properties as a log or JSON shows them.
      expect(Object.keys(err)).not.toContain("__pulumiRunError");
    }
    // The provider's own calls, which the plugins and the dynamic provider make, are left as they are.
    expect(pulumi.RunError.isInstance(await failure(runTaskFunctions.getRunTask({ name: "nope" }, () => undefined)))).toBe(false);
  });

  test("getSnapshotStatus of a name no configuration has: not_found", async () => {
    const err = await failure(getSnapshotStatus({ name: "nope" }));
    expect(hasCode(err, "not_found")).toBe(true);
  });

  test("no organization anywhere: missing_setting, naming the argument and both settings", async () => {
    delete process.env.RUNTASK_ORGANIZATION;
    try {
      const err = await failure(runTaskFunctions.listRunTasks({}, () => undefined));
      expect(err.code).toBe("missing_setting");
      expect(err.message).toBe("listRunTasks: no organization: pass one, or set stack config runtask:organization or RUNTASK_ORGANIZATION");
    } finally {
      process.env.RUNTASK_ORGANIZATION = "emulator-org";
    }
  });
});

describe("arguments are checked as the resources' are, before any request", () => {
  test("listWorkspaceRunTasks with a workspace's name: the resources' hint", async () => {
    emulator.requests.reset();
    const err = await failure(listWorkspaceRunTasks({ workspaceId: "app-production" }));
    expect(err.code).toBe("invalid");
    expect(err.message).toBe(
      'listWorkspaceRunTasks: workspaceId must be a workspace id (ws-...); "app-production" may be the workspace\'s name, ' +
        "but the run task API takes its id (shown in the workspace's settings)",
    );
    expect(emulator.requests.entries).toEqual([]);
  });

  test("getWorkspaceRunTask with a task's name where its id belongs", async () => {
    const err = await failure(runTaskFunctions.getWorkspaceRunTask({ workspaceId: "ws-1", taskId: "scanner" }, () => undefined));
    expect(err.code).toBe("invalid");
    expect(err.message).toContain('taskId must be a run task id (task-...); "scanner" may be the task\'s name');
  });

  test("a task name the service cannot hold: the message repeats it", async () => {
    const err = await failure(getRunTask({ name: "my scanner" }));
    expect(err.code).toBe("invalid");
    expect(err.message).toBe(`getRunTask: name may contain only letters, digits, '-' and '_': "my scanner" has " "`);
  });

  test("an argument no function takes is named", async () => {
    const err = await failure(runTaskFunctions.getRunTask({ nmae: "scanner" } as never, () => undefined));
    expect(err.message).toBe("getRunTask: nmae is not an argument of getRunTask");
  });
});
