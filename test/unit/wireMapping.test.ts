import { runTaskTable } from "../../provider/runTask/fields";
import { taskBody, taskFromWire, workspaceTaskIdsOf } from "../../provider/runTask/wire";
import { snapshotAutoConfigTable, STORAGE_TYPES } from "../../provider/snapshotAutoConfig/fields";
import { fromWire as snapshotFromWire, toWire as snapshotToWire } from "../../provider/snapshotAutoConfig/wire";
import type { Field, FieldTable, ValueType } from "../../provider/table/field";
import { fromWire, toWire } from "../../provider/table/wire";
import { workspaceRunTaskTable } from "../../provider/workspaceRunTask/fields";
import { workspaceTaskBody, workspaceTaskFromWire } from "../../provider/workspaceRunTask/wire";

/** A value of a type that is not its zero value, so that it survives the read rules. */
function sample(type: ValueType): unknown {
  switch (type.type) {
    case "string":
      return type.enum ? type.enum[type.enum.length - 1] : "value";
    case "integer":
      return 42;
    case "boolean":
      return true;
    case "array":
      return [sample(type.items)];
    case "object":
      return Object.fromEntries(
        Object.entries(type.fields)
          .filter(([, f]) => f.wire)
          .map(([k, f]) => [k, sample(f.value)]),
      );
    case "oneOf":
      return sample(type.of[0]);
  }
}

const tables: [string, FieldTable][] = [
  ["SnapshotAutoConfig", snapshotAutoConfigTable.fields],
  ["RunTask", runTaskTable.fields],
  ["WorkspaceRunTask", workspaceRunTaskTable.fields],
];

describe.each(tables)("%s: every field with a wire name maps both ways", (_name, fields) => {
  const onWire = Object.entries(fields).filter((e): e is [string, Field & { wire: string }] => e[1].wire !== undefined && !e[1].output);

  test.each(onWire)("%s", (arg, field) => {
    const value = sample(field.value);
    const wire = toWire(fields, { [arg]: value }, { group: field.group });
    const expected = field.value.type === "object" ? toWire(field.value.fields, value as Record<string, unknown>) : value;
    expect(wire).toEqual({ [field.wire]: expected });
    // A write-only value is never read back: the state keeps what was last applied.
    const prior = field.writeOnly ? { [arg]: "last applied" } : {};
    expect(fromWire(fields, wire, prior, { group: field.group })[arg]).toEqual(field.writeOnly ? "last applied" : value);
  });

  test("arguments without a wire name never reach the wire", () => {
    const all = Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, sample(f.value)]));
    const keys = Object.keys(toWire(fields, all, { group: "local" }));
    expect(keys.sort()).toEqual(
      onWire
        .filter(([, f]) => !f.group || f.group === "local")
        .map(([, f]) => f.wire)
        .sort(),
    );
  });
});

describe("SnapshotAutoConfig, from the spec's samples", () => {
  test("the read shape of a local configuration", () => {
    const data = {
      file_prefix: "service-snapshot",
      interval: 86400,
      path_prefix: "/opt/snapshots",
      retain: 1,
      storage_type: "local",
      local_max_space: 100000,
    };
    expect(snapshotFromWire("daily", data, {})).toEqual({
      name: "daily",
      interval: 86400,
      retain: 1,
      pathPrefix: "/opt/snapshots",
      filePrefix: "service-snapshot",
      storageType: "local",
      localMaxSpace: 100000,
    });
  });

  test.each(STORAGE_TYPES)("the POST body of %s holds the common fields and its own group only", (storageType) => {
    const state = {
      name: "n",
      interval: 60,
      retain: 2,
      pathPrefix: "p/",
      filePrefix: "f",
      storageType,
      localMaxSpace: 1,
      cloudAS3Bucket: "b",
      cloudCGcsBucket: "g",
      cloudBContainerName: "c",
    } as const;
    const body = snapshotToWire(state);
    const own = {
      local: "local_max_space",
      "cloudA-s3": "cloudA_s3_bucket",
      "cloudB-blob": "cloudB_container_name",
      "cloudC-gcs": "cloudC_gcs_bucket",
    }[storageType];
    expect(Object.keys(body).sort()).toEqual(["file_prefix", "interval", "path_prefix", "retain", "storage_type", own].sort());
  });

  test("where the state knows which credentials the service hides, an absent or blank one keeps its value if hidden, and is none if shown", () => {
    const prior = { storageType: "cloudA-s3", cloudAAccessKeyId: "id-kept", cloudASecretAccessKey: "kept", cloudASessionToken: "token-kept" };
    const common = { interval: 60, path_prefix: "p", storage_type: "cloudA-s3", cloudA_s3_bucket: "b", cloudA_s3_region: "r" };
    const hides = new Set(["cloudASecretAccessKey", "cloudASessionToken"]);
    // The identifier shown, the secrets left out: hidden, kept (one read alone would take them for removed).
    expect(snapshotFromWire("n", { ...common, cloudA_access_key_id: "id-kept" }, prior, hides)).toMatchObject(prior);
    // A service that hides these, blanking one: kept too.
    expect(snapshotFromWire("n", { ...common, cloudA_access_key_id: "id-kept", cloudA_session_token: "" }, prior, hides)).toMatchObject(prior);
    // The identifier it shows left out: removed outside.
    expect(snapshotFromWire("n", common, prior, hides)).not.toHaveProperty("cloudAAccessKeyId");
    // A service known to show them all, showing none: every one removed (one read alone would take them for hidden).
    const none = snapshotFromWire("n", common, prior, new Set());
    for (const arg of Object.keys(prior).filter((k) => k !== "storageType")) expect(none).not.toHaveProperty(arg);
    // A placeholder keeps the value whatever is known.
    expect(snapshotFromWire("n", { ...common, cloudA_access_key_id: "****" }, prior, new Set())).toMatchObject({ cloudAAccessKeyId: "id-kept" });
  });

  test("where nothing is known (a state written before it was learned): a credential the service blanks, or leaves out while it shows others, is none; one it masks, or where it shows none, keeps its value; echoed zero values of unset fields stay unset", () => {
    const prior = { storageType: "cloudA-s3", cloudAAccessKeyId: "id-kept", cloudASecretAccessKey: "kept", cloudASessionToken: "token-kept" };
    const common = { interval: 60, path_prefix: "p", storage_type: "cloudA-s3", cloudA_s3_bucket: "b", cloudA_s3_region: "r" };
    // A service that shows credentials: the secret blanked and the session token left out were removed there.
    const shown = snapshotFromWire(
      "n",
      { ...common, cloudA_access_key_id: "****", cloudA_secret_access_key: "", cloudA_s3_disable_tls: false, cloudA_s3_endpoint: "" },
      prior,
    );
    expect(shown).toMatchObject({ cloudAAccessKeyId: "id-kept", cloudAS3Bucket: "b" });
    expect(shown).not.toHaveProperty("cloudASecretAccessKey");
    expect(shown).not.toHaveProperty("cloudASessionToken");
    expect(shown).not.toHaveProperty("cloudAS3DisableTls");
    expect(shown).not.toHaveProperty("cloudAS3Endpoint");
    // A service that shows none: it hides them; the state's stay.
    expect(snapshotFromWire("n", common, prior)).toMatchObject({
      cloudAAccessKeyId: "id-kept",
      cloudASecretAccessKey: "kept",
      cloudASessionToken: "token-kept",
    });
  });
});

describe("RunTask, from the spec's samples", () => {
  /** The spec's show sample: no global-configuration, `enabled` rendered as a string, `hmac-key` null. */
  const show = {
    id: "task-7SGYUNmeNa5drRRH",
    type: "tasks",
    attributes: { category: "task", name: "my-task", url: "http://example.com", description: "Simple task", enabled: "true", "hmac-key": null },
    relationships: { organization: { data: { id: "hashicorp", type: "organizations" } }, tasks: { data: [] } },
  };

  test("the show sample reads as booleans and keeps the last applied key, global settings and organization name", () => {
    const prior = { organization: "acme", hmacKey: "secret", global: { enabled: true, stages: ["pre_plan"] } };
    // The relationship's id is the organization's id, which need not be its name: never put into `organization`.
    expect(taskFromWire(show, {}).organization).toBe("");
    expect(taskFromWire(show, prior)).toEqual({
      organization: "acme",
      name: "my-task",
      url: "http://example.com",
      description: "Simple task",
      category: "task",
      enabled: true,
      hmacKey: "secret",
      global: { enabled: true, stages: ["pre_plan"] },
    });
  });

  test("the create body: type tasks, kebab-case attributes, the key and global settings only when asked", () => {
    const state = { organization: "o", name: "t", url: "https://u.example", category: "task" as const, enabled: false, hmacKey: "k" };
    expect(taskBody(state, {})).toEqual({
      type: "tasks",
      attributes: { name: "t", url: "https://u.example", description: "", category: "task", enabled: false },
    });
    expect(taskBody(state, { hmacKey: "k", global: { enabled: true, enforcementLevel: "mandatory" } }).attributes).toMatchObject({
      "hmac-key": "k",
      "global-configuration": { enabled: true, "enforcement-level": "mandatory" },
    });
  });
});

test("a task's associations come from what the spec defines, never from a relationship it does not name", () => {
  const task = {
    id: "task-1",
    type: "tasks",
    attributes: {},
    relationships: {
      tasks: { data: [{ id: "wstask-a", type: "workspace-tasks" }] },
      "workspace-tasks": { data: [{ id: "wstask-unnamed", type: "workspace-tasks" }] },
    },
  };
  const included = [
    { id: "wstask-b", type: "workspace-tasks", attributes: {}, relationships: { task: { data: { id: "task-1", type: "tasks" } } } },
    { id: "wstask-c", type: "workspace-tasks", attributes: {}, relationships: { task: { data: { id: "task-2", type: "tasks" } } } },
    { id: "ws-1", type: "workspaces", attributes: {}, relationships: {} },
  ];
  expect(workspaceTaskIdsOf(task, included)).toEqual(["wstask-b", "wstask-a"]);
  expect(workspaceTaskIdsOf(task, undefined)).toEqual(["wstask-a"]);
  expect(workspaceTaskIdsOf(task, [])).toEqual(["wstask-a"]);
  // Neither included nor listed: the answer says nothing of the associations.
  expect(workspaceTaskIdsOf({ ...task, relationships: { tasks: { data: [] } } }, undefined)).toBeUndefined();
  expect(workspaceTaskIdsOf({ ...task, relationships: {} }, [])).toEqual([]);
});

describe("WorkspaceRunTask, from the spec's samples", () => {
  test("the associate body carries the task relationship; the update body does not", () => {
    const state = { workspaceId: "ws-1", taskId: "task-1", enforcementLevel: "advisory" as const, stages: ["pre_plan" as const] };
    expect(workspaceTaskBody(state, { withTask: true })).toEqual({
      type: "workspace-tasks",
      attributes: { "enforcement-level": "advisory", stages: ["pre_plan"] },
      relationships: { task: { data: { id: "task-1", type: "tasks" } } },
    });
    expect(workspaceTaskBody(state, { withTask: false })).not.toHaveProperty("relationships");
  });

  test("a document with stages, and one of an older server with the single stage", () => {
    const doc = (attributes: Record<string, unknown>) => ({
      id: "wstask-1",
      type: "workspace-tasks",
      attributes,
      relationships: { task: { data: { id: "task-1", type: "tasks" } }, workspace: { data: { id: "ws-1", type: "workspaces" } } },
    });
    expect(workspaceTaskFromWire(doc({ "enforcement-level": "mandatory", stage: "post_plan", stages: ["pre_plan", "post_plan"] }), "ws-x")).toEqual({
      id: "wstask-1",
      workspaceId: "ws-1",
      taskId: "task-1",
      enforcementLevel: "mandatory",
      stages: ["pre_plan", "post_plan"],
      stage: "post_plan",
    });
    expect(workspaceTaskFromWire(doc({ "enforcement-level": "advisory", stage: "pre_apply" }), "ws-x").stages).toEqual(["pre_apply"]);
    // The deprecated `stage` of the result: the service's, else the first of `stages`; none where there is neither.
    expect(workspaceTaskFromWire(doc({ "enforcement-level": "advisory", stages: ["pre_apply", "post_apply"] }), "ws-x").stage).toBe("pre_apply");
    expect(workspaceTaskFromWire(doc({ "enforcement-level": "advisory" }), "ws-x")).not.toHaveProperty("stage");
  });
});
