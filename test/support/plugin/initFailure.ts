// The engine's partial-failure answer (`ErrorResourceInitFailed`) read from a failed call's gRPC details.
import { join } from "node:path";
import type * as anyPb from "google-protobuf/google/protobuf/any_pb";
import type * as providerPb from "@pulumi/pulumi/proto/provider_pb";
import type * as statusPb from "@pulumi/pulumi/proto/status_pb";
import { GrpcError } from "./grpcUnary";

type Props = Record<string, unknown>;

/**
 * A Create or Update whose object exists (made, or changed) although the call failed: the plugin's error carried
 * `pulumirpc.ErrorResourceInitFailed` in its status details. The engine records the object with `id` and
 * `properties` and the reasons as its init errors, and reports the reasons as the step's error
 * (pulumi/pulumi `pkg/resource/plugin/provider_plugin.go`, `parseError`; `pkg/resource/deploy/step.go`,
 * `CreateStep.Apply` and `UpdateStep.Apply`).
 */
export class ResourceInitFailed extends Error {
  constructor(
    readonly id: string,
    readonly properties: Props,
    readonly reasons: string[],
  ) {
    // As the engine's `InitError` reads: the reasons, one a line, or "resource init failed" without any.
    super(reasons.length > 0 ? reasons.join("\n") : "resource init failed");
    this.name = "ResourceInitFailed";
  }
}

const INIT_FAILED = "pulumirpc.ErrorResourceInitFailed";

/**
 * The call's result, or its error read as the engine reads it: a `ResourceInitFailed` where the status details
 * (the `grpc-status-details-bin` trailer, a `google.rpc.Status`) hold an `ErrorResourceInitFailed`. Messages are
 * those of the @pulumi/pulumi at `pulumiDir`.
 */
export async function readingInitFailure<T>(call: Promise<T>, pulumiDir: string): Promise<T> {
  try {
    return await call;
  } catch (err) {
    const failed = err instanceof GrpcError && err.statusDetails ? initFailureOf(err.statusDetails, pulumiDir) : undefined;
    throw failed ?? err;
  }
}

function initFailureOf(details: Uint8Array, pulumiDir: string): ResourceInitFailed | undefined {
  const { Status }: typeof statusPb = require(join(pulumiDir, "proto/status_pb"));
  const { ErrorResourceInitFailed }: typeof providerPb = require(join(pulumiDir, "proto/provider_pb"));
  const detail = Status.deserializeBinary(details)
    .getDetailsList()
    .find((any: anyPb.Any) => any.getTypeName() === INIT_FAILED);
  if (!detail) return undefined;
  const failed = ErrorResourceInitFailed.deserializeBinary(detail.getValue_asU8());
  return new ResourceInitFailed(failed.getId(), (failed.getProperties()?.toJavaScript() ?? {}) as Props, failed.getReasonsList());
}
