import * as pulumi from "@pulumi/pulumi";
import { recordRegistrations, valueOf } from "../support/recordingMocks";

const warnings: string[] = [];

const registered = recordRegistrations();

import { RunTask, WorkspaceRunTask } from "../../sdk";

const value = valueOf;

describe("RunTask and WorkspaceRunTask classes", () => {
  beforeAll(() => {
    jest.spyOn(pulumi.log, "warn").mockImplementation(async (msg: string) => void warnings.push(msg));
  });

  test("type tokens, default name, hmacKey secret even when plain", async () => {
    const task = new RunTask("scanner", { url: "https://h.example", hmacKey: "plain-hmac-canary" });
    const attach = new WorkspaceRunTask("attach", { workspaceId: "ws-1", taskId: task.id, enforcementLevel: "advisory" });
    expect(await value(task.name)).toBe("scanner");
    expect(await pulumi.isSecret(task.hmacKey)).toBe(true);
    expect(await value(attach.taskId)).toBe("scanner-id");
    expect(registered.find((r) => r.name === "scanner")?.type).toBe("pulumi-nodejs:dynamic/runtask:RunTask");
    expect(registered.find((r) => r.name === "attach")?.type).toBe("pulumi-nodejs:dynamic/runtask:WorkspaceRunTask");
    expect(registered.find((r) => r.name === "scanner")?.inputs.__provider).not.toContain("plain-hmac-canary");
  });

  test("the deprecated stage warns", () => {
    new WorkspaceRunTask("old", { workspaceId: "ws-1", taskId: "task-1", enforcementLevel: "advisory", stage: "pre_plan" });
    expect(warnings).toContain('WorkspaceRunTask "old": `stage` is deprecated; use `stages` (a list) instead');
  });
});
