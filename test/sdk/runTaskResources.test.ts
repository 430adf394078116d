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

  test("the ids are read from the resource id, and the outputs only a program gives are Outputs of no value where it does not", async () => {
    const task = new RunTask("bare", { url: "https://h.example" });
    const attach = new WorkspaceRunTask("bare-attach", { workspaceId: "ws-1", taskId: task.id, enforcementLevel: "advisory" });
    expect(await value(task.taskId)).toBe("bare-id");
    expect(await value(attach.workspaceTaskId)).toBe("bare-attach-id");
    for (const unset of [task.hmacKey, task.adopt, attach.adopt] as pulumi.Output<unknown>[]) expect(await value(unset)).toBeUndefined();
    expect(await pulumi.isSecret(task.hmacKey)).toBe(false);
    const inputs = (n: string) => Object.keys(registered.find((r) => r.name === n)!.inputs).sort();
    expect(inputs("bare")).toEqual(["__provider", "__resourceUrn", "url"]);
    expect(inputs("bare-attach")).toEqual(["__provider", "__resourceUrn", "enforcementLevel", "taskId", "workspaceId"]);
    expect(registered.find((r) => r.name === "bare")!.inputs.__provider).toBe('exports.handler=()=>require("pulumi-snapshot-runtask/shim/runTask")');
    const adopted = new RunTask("adopted", { url: "https://h.example", adopt: true });
    expect(await value(adopted.adopt)).toBe(true);
  });

  test("the deprecated stage warns", () => {
    new WorkspaceRunTask("old", { workspaceId: "ws-1", taskId: "task-1", enforcementLevel: "advisory", stage: "pre_plan" });
    expect(warnings).toContain('WorkspaceRunTask "old": `stage` is deprecated; use `stages` (a list) instead');
  });
});
