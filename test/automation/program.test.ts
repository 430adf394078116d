import * as pulumi from "@pulumi/pulumi";

interface Registered {
  type: string;
  name: string;
  inputs: Record<string, any>;
}
const registered: Registered[] = [];

pulumi.runtime.setMocks(
  {
    newResource: (args) => {
      registered.push({ type: args.type, name: args.name, inputs: args.inputs });
      // As the provider does: without a `name`, the object is named after the resource.
      return { id: `${args.name}-id`, state: { ...args.inputs, name: args.inputs.name ?? args.name } };
    },
    call: () => ({}),
  },
  "project",
  "stack",
  false,
);

import { planAttachments, provisioningProgram, type ProvisioningDescription } from "../../automation";

/** Every Output leaf of the program's result, resolved. */
async function resolved(value: unknown): Promise<any> {
  if (pulumi.Output.isInstance(value)) return new Promise((r) => (value as pulumi.Output<unknown>).apply(r));
  if (value !== null && typeof value === "object") {
    const entries = await Promise.all(Object.entries(value).map(async ([k, v]) => [k, await resolved(v)] as const));
    return Object.fromEntries(entries);
  }
  return value;
}

const HMAC = "canary-hmac-key-in-description-51f0";

const description: ProvisioningDescription = {
  snapshots: {
    nightly: { interval: "24h", retain: 7, storageType: "local", pathPrefix: "/var/snapshots", localMaxSpace: 1_000_000 },
    offsite: { name: "offsite-s3", interval: 3600, storageType: "cloudA-s3", pathPrefix: "cluster", cloudAS3Bucket: "b", cloudAS3Region: "r" },
  },
  runTasks: {
    scanner: { url: "https://hooks.example.com/scan", hmacKey: HMAC, global: { enabled: true, stages: ["pre_plan"], enforcementLevel: "advisory" } },
    audit: { organization: "acme", url: "https://hooks.example.com/audit", enabled: false },
  },
  attachments: [
    { task: "scanner", workspaceIds: ["ws-prod", "ws-staging"], enforcementLevel: "mandatory", stages: ["post_plan"] },
    { task: "task-ManagedElsewhere1", workspaceIds: ["ws-prod"], enforcementLevel: "advisory" },
  ],
};

describe("provisioningProgram under mocks", () => {
  let outputs: any;
  beforeAll(async () => {
    outputs = await resolved(await provisioningProgram(description)());
  });
  const byName = (name: string) => registered.find((r) => r.name === name)!;

  test("declares one resource per snapshot, task and task-workspace pair, with the package's type tokens", () => {
    // Registrations finish in no set order (each serializes its provider first).
    expect(registered.map((r) => [r.type, r.name]).sort()).toEqual([
      ["pulumi-nodejs:dynamic/runtask:RunTask", "audit"],
      ["pulumi-nodejs:dynamic/runtask:RunTask", "scanner"],
      ["pulumi-nodejs:dynamic/runtask:WorkspaceRunTask", "scanner-on-ws-prod"],
      ["pulumi-nodejs:dynamic/runtask:WorkspaceRunTask", "scanner-on-ws-staging"],
      ["pulumi-nodejs:dynamic/runtask:WorkspaceRunTask", "task-ManagedElsewhere1-on-ws-prod"],
      ["pulumi-nodejs:dynamic/snapshot:SnapshotAutoConfig", "nightly"],
      ["pulumi-nodejs:dynamic/snapshot:SnapshotAutoConfig", "offsite"],
    ]);
  });

  test("passes the description's arguments through, and attaches managed tasks by their id", () => {
    expect(byName("nightly").inputs).toMatchObject({ interval: "24h", retain: 7, storageType: "local", localMaxSpace: 1_000_000 });
    // No name in the description: none sent, the provider names the object after the resource (by its URN).
    expect(byName("nightly").inputs.name).toBeUndefined();
    expect(byName("nightly").inputs.__resourceUrn).toMatch(/::nightly$/);
    expect(byName("offsite").inputs.name).toBe("offsite-s3");
    expect(byName("scanner").inputs.name).toBeUndefined();
    expect(byName("scanner").inputs).toMatchObject({
      url: "https://hooks.example.com/scan",
      global: { enabled: true, stages: ["pre_plan"] },
    });
    expect(byName("audit").inputs).toMatchObject({ organization: "acme", enabled: false });
    expect(byName("scanner-on-ws-prod").inputs).toMatchObject({
      workspaceId: "ws-prod",
      taskId: "scanner-id",
      enforcementLevel: "mandatory",
      stages: ["post_plan"],
    });
    expect(byName("task-ManagedElsewhere1-on-ws-prod").inputs).toMatchObject({
      workspaceId: "ws-prod",
      taskId: "task-ManagedElsewhere1",
      enforcementLevel: "advisory",
    });
  });

  test("keeps the HMAC key out of the provider text and out of the outputs", () => {
    for (const r of registered) expect(r.inputs.__provider).not.toContain(HMAC);
    expect(JSON.stringify(outputs)).not.toContain(HMAC);
  });

  test("exports what was provisioned, keyed as the description", () => {
    expect(outputs.snapshots).toEqual({
      nightly: { name: "nightly", interval: "24h", storageType: "local", pathPrefix: "/var/snapshots" },
      offsite: { name: "offsite-s3", interval: 3600, storageType: "cloudA-s3", pathPrefix: "cluster" },
    });
    expect(outputs.runTasks.scanner).toMatchObject({ id: "scanner-id", name: "scanner", url: "https://hooks.example.com/scan" });
    expect(Object.keys(outputs.attachments)).toEqual(["scanner-on-ws-prod", "scanner-on-ws-staging", "task-ManagedElsewhere1-on-ws-prod"]);
    expect(outputs.attachments["scanner-on-ws-staging"]).toMatchObject({
      id: "scanner-on-ws-staging-id",
      workspaceId: "ws-staging",
      taskId: "scanner-id",
    });
  });
});

describe("planAttachments", () => {
  test("rejects references to unknown tasks, empty and repeated workspaces, before declaring anything", () => {
    const before = registered.length;
    expect(() =>
      provisioningProgram({
        runTasks: { scanner: { url: "https://h.example" } },
        attachments: [
          { task: "scaner", workspaceIds: ["ws-1"], enforcementLevel: "advisory" },
          { task: "scanner", workspaceIds: [], enforcementLevel: "advisory" },
          { task: "scanner", workspaceIds: ["ws-1", "ws-1"], enforcementLevel: "advisory" },
        ],
      }),
    ).toThrow(
      'invalid provisioning description:\n  attachments[0].task "scaner" is neither a key of runTasks nor a task id (task-...)\n' +
        "  attachments[1] lists no workspaceIds\n" +
        '  task "scanner" is attached to workspace ws-1 more than once',
    );
    expect(registered.length).toBe(before);
  });

  test("one association per task and workspace", () => {
    expect(planAttachments({ attachments: [{ task: "task-x", workspaceIds: ["ws-a", "ws-b"], enforcementLevel: "advisory", adopt: true }] })).toEqual(
      [
        { resourceName: "task-x-on-ws-a", taskId: "task-x", workspaceId: "ws-a", enforcementLevel: "advisory", stages: undefined, adopt: true },
        { resourceName: "task-x-on-ws-b", taskId: "task-x", workspaceId: "ws-b", enforcementLevel: "advisory", stages: undefined, adopt: true },
      ],
    );
  });
});
