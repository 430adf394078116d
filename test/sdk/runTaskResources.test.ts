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

  test("type tokens, the URN sent (under a component too), hmacKey secret even when plain", async () => {
    const task = new RunTask("scanner", { url: "https://h.example", hmacKey: "plain-hmac-canary" });
    const group = new pulumi.ComponentResource("acme:index:Scanners", "scanners");
    const attach = new WorkspaceRunTask("attach", { workspaceId: "ws-1", taskId: task.id, enforcementLevel: "advisory" }, { parent: group });
    expect(await value(attach.id)).toBe("attach-id");
    expect(registered.find((r) => r.name === "scanner")?.inputs).toMatchObject({
      __resourceUrn: "urn:pulumi:stack::project::pulumi-nodejs:dynamic/runtask:RunTask::scanner",
    });
    expect(registered.find((r) => r.name === "attach")?.inputs).toMatchObject({
      __resourceUrn: "urn:pulumi:stack::project::acme:index:Scanners$pulumi-nodejs:dynamic/runtask:WorkspaceRunTask::attach",
    });
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
