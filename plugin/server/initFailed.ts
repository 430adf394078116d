import type * as grpcTypes from "@grpc/grpc-js";
import type * as providerPb from "@pulumi/pulumi/proto/provider_pb";
import type * as statusPb from "@pulumi/pulumi/proto/status_pb";
import type * as anyPb from "google-protobuf/google/protobuf/any_pb";
import type { Struct } from "google-protobuf/google/protobuf/struct_pb";

const grpc: typeof grpcTypes = require("@grpc/grpc-js");
const pb: typeof providerPb = require("@pulumi/pulumi/proto/provider_pb");
const { Status }: typeof statusPb = require("@pulumi/pulumi/proto/status_pb");
const { Any }: typeof anyPb = require("google-protobuf/google/protobuf/any_pb");

/**
 * The engine's partial-failure answer to a Create or Update whose object was made or changed although the call
 * failed: status details (`grpc-status-details-bin`, a `google.rpc.Status`) holding `ErrorResourceInitFailed` with
 * the id the engine keeps, the properties (secrets marked) and the reasons it shows. Packed as the SDK's dynamic
 * provider plugin packs a thrown error that has an `id` (`@pulumi/pulumi/cmd/dynamic-provider`,
 * `grpcResponseFromError`), which the engine reads in `pkg/resource/plugin/provider_plugin.go` (`parseError`).
 */
export class InitFailedAnswer extends Error {
  readonly status: Partial<grpcTypes.StatusObject>;

  constructor(message: string, id: string, properties: Struct, reasons: string[]) {
    super(message);
    this.name = "InitFailedAnswer";
    const detail = new pb.ErrorResourceInitFailed().setId(id).setProperties(properties).setReasonsList(reasons);
    const any = new Any();
    any.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
    const status = new Status().setCode(grpc.status.UNKNOWN).setMessage(message).setDetailsList([any]);
    const metadata = new grpc.Metadata();
    metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
    this.status = { code: grpc.status.UNKNOWN, details: message, metadata };
  }
}
