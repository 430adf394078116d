import { diffRunTaskDetail, runTaskTable } from "../../provider/runTask/fields";
import { diffSnapshotAutoConfigDetail, snapshotAutoConfigTable } from "../../provider/snapshotAutoConfig/fields";
import { stateValues } from "../../provider/table/stateValues";

/**
 * What a state holds of write-only and secret arguments: an import records them in the inputs alone (the engine's
 * Read gives the outputs), the provider's own create, update and refresh in the outputs. Either way the diff answers
 * the same: the provider plugins pass the state's inputs, the dynamic provider (whose states carry them in their
 * outputs) none. test/engine/importedSecrets holds the same through the engine.
 */
const task = { organization: "acme", name: "scanner", url: "https://hooks.example.com/scan", category: "task", enabled: true, taskId: "task-1" };
const program = { organization: "acme", name: "scanner", url: "https://hooks.example.com/scan", category: "task", enabled: true, hmacKey: "k1" };

test("an imported key is compared with what the import recorded, as a created one is", () => {
  const imported = stateValues(runTaskTable.fields, task, { ...program });
  const created = stateValues(runTaskTable.fields, { ...task, hmacKey: "k1" }, {});
  expect(diffRunTaskDetail(imported, program).changed).toEqual([]);
  expect(diffRunTaskDetail(created, program).changed).toEqual([]);
  expect(diffRunTaskDetail(imported, { ...program, hmacKey: "k2" }).changed).toEqual(["hmacKey"]);
  // Dropped from the program, the key is a change (it is cleared), as for a created one.
  const { hmacKey: _k, ...withoutKey } = program;
  expect([diffRunTaskDetail(imported, withoutKey).changed, diffRunTaskDetail(created, withoutKey).changed]).toEqual([["hmacKey"], ["hmacKey"]]);
  // Without a recorded key, the program's is new: sent once.
  expect(diffRunTaskDetail(stateValues(runTaskTable.fields, task, {}), program).changed).toEqual(["hmacKey"]);
});

test("a credential a service hides is taken from the inputs; what the outputs hold wins", () => {
  const config = {
    name: "offsite",
    interval: 60,
    retain: 1,
    filePrefix: "service-snapshot",
    pathPrefix: "p",
    storageType: "cloudA-s3",
    cloudAS3Bucket: "b",
    cloudAS3Region: "r",
  };
  const inputs = { ...config, cloudASecretAccessKey: "s1", cloudAAccessKeyId: "a1" };
  expect(stateValues(snapshotAutoConfigTable.fields, config, inputs)).toEqual(inputs);
  expect(diffSnapshotAutoConfigDetail(stateValues(snapshotAutoConfigTable.fields, config, inputs), inputs).changed).toEqual([]);
  // Outputs that hold one (a service that echoes it) are the state's word; non-secret arguments never come from inputs.
  expect(stateValues(snapshotAutoConfigTable.fields, { ...config, cloudASecretAccessKey: "s0" }, { ...inputs, retain: 9 })).toEqual({
    ...config,
    cloudASecretAccessKey: "s0",
    cloudAAccessKeyId: "a1",
  });
});
