import { getSnapshotStatus, getSnapshotStatusArguments, listSnapshotAutoConfigs, snapshotStatusFields } from "../../provider/functions/snapshot";
import { SNAPSHOT_SERVICE } from "../../provider/services/snapshot/settings";
import { snapshotAutoConfigTable } from "../../provider/snapshotAutoConfig/fields";
import { t } from "../../provider/table/field";
import type { PackageDefinition } from "../server/definition";

/** The `snapshot` provider plugin: automated snapshot configurations (spec: snapshot-auto-api.md). */
export const snapshotPackage: PackageDefinition = {
  name: "snapshot",
  displayName: "Automated snapshot configurations",
  description: "Named automated snapshot configurations of a clustered storage service, and their status.",
  service: SNAPSHOT_SERVICE,
  resources: [
    {
      token: "snapshot:index:SnapshotAutoConfig",
      table: snapshotAutoConfigTable,
      docs: {
        file: "sdk/snapshotAutoConfig.ts",
        args: [
          "SnapshotAutoConfigCommonArgs",
          "LocalStorageParameters",
          "CloudAS3StorageParameters",
          "CloudBBlobStorageParameters",
          "CloudCGcsStorageParameters",
        ],
        class: "SnapshotAutoConfig",
      },
      importId: "the configuration name",
      provider: () => require("../../provider/snapshotAutoConfig/provider").snapshotAutoConfigProvider,
    },
  ],
  functions: [
    {
      token: "snapshot:index:getSnapshotStatus",
      docs: {
        file: "provider/functions/snapshot.ts",
        function: "getSnapshotStatus",
        inputs: "GetSnapshotStatusArgs",
        outputs: "SnapshotStatus",
        itemsFile: "provider/snapshotAutoConfig/status.ts",
      },
      inputs: getSnapshotStatusArguments,
      outputs: snapshotStatusFields,
      call: async (args, config, tuning) => ({ ...(await getSnapshotStatus({ name: String(args.name) }, config, tuning)) }),
    },
    {
      token: "snapshot:index:listSnapshotAutoConfigs",
      docs: { file: "provider/functions/snapshot.ts", function: "listSnapshotAutoConfigs", outputs: "ListSnapshotAutoConfigsResult" },
      inputs: {},
      outputs: { names: { value: t.list(t.string), required: true, onChange: "none" } },
      call: async (_args, config, tuning) => ({ names: await listSnapshotAutoConfigs(config, tuning) }),
    },
  ],
};
