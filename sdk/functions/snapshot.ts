import * as pulumi from "@pulumi/pulumi";
import { getSnapshotStatus as getStatus, listSnapshotAutoConfigs as listConfigs } from "../../provider/functions/snapshot";
import type { SnapshotStatus } from "../../provider/snapshotAutoConfig/status";
import { programConfig } from "../programConfig";
import { whenSourcesExist, type OutputArgs } from "./outputArgs";
import { asProgramFailure } from "./programFailure";

export type { SnapshotStatus };

export type GetSnapshotStatusArgs = { name: string };

/** The snapshot status of a configuration; fails when no configuration has that name. */
export function getSnapshotStatus(args: GetSnapshotStatusArgs): Promise<SnapshotStatus> {
  return asProgramFailure(() => getStatus(args, programConfig));
}

/** `getSnapshotStatus` of arguments that may be Outputs (a `SnapshotAutoConfig`'s name, say): its result as an Output. */
export function getSnapshotStatusOutput(args: pulumi.Input<OutputArgs<GetSnapshotStatusArgs>>): pulumi.Output<SnapshotStatus> {
  return whenSourcesExist(pulumi.output(args)).apply((plain) => getSnapshotStatus(plain));
}

/** Names of every automated snapshot configuration (empty when there are none). */
export function listSnapshotAutoConfigs(): Promise<string[]> {
  return asProgramFailure(() => listConfigs(programConfig));
}

/** `listSnapshotAutoConfigs`, its result as an Output. */
export function listSnapshotAutoConfigsOutput(): pulumi.Output<string[]> {
  return pulumi.output(listSnapshotAutoConfigs());
}
