import type * as grpcTypes from "@grpc/grpc-js";
import type * as enginePb from "@pulumi/pulumi/proto/engine_pb";

const grpc: typeof grpcTypes = require("@grpc/grpc-js");
const pb: typeof enginePb = require("@pulumi/pulumi/proto/engine_pb");
const { EngineClient } = require("@pulumi/pulumi/proto/engine_grpc_pb");

/**
 * Warnings to the engine's log service (pulumirpc.Engine/Log), which the CLI shows as `warning:` under the resource.
 * The engine passes a provider plugin its address as the last argument (pkg/resource/plugin/plugin.go), and again in
 * Attach where it attaches to a plugin started by hand. Without one, or where the call fails, a warning goes to
 * standard error, which the engine shows too, as text of the plugin's.
 */
export class EngineLog {
  private client?: { log(req: enginePb.LogRequest, done: (err: Error | null) => void): void; close(): void };

  constructor(private address?: string) {}

  /** The address the engine gives in Attach, in place of the one the plugin was started with. */
  attach(address: string): void {
    this.client?.close();
    this.client = undefined;
    this.address = address;
  }

  async warn(message: string, urn: string): Promise<void> {
    const req = new pb.LogRequest().setSeverity(pb.LogSeverity.WARNING).setMessage(message).setUrn(urn);
    const client = this.address ? (this.client ??= new EngineClient(this.address, grpc.credentials.createInsecure())) : undefined;
    const sent = client ? await new Promise<boolean>((resolve) => client.log(req, (err: Error | null) => resolve(!err))) : false;
    if (!sent) process.stderr.write(`warning: ${message}\n`);
  }
}

/** The engine's address among a plugin's arguments (`[flags] <host:port>`): the last, where it has that shape. */
export function engineAddressOf(args: string[]): string | undefined {
  const last = args[args.length - 1];
  return last && /^[\w.[\]:-]+:\d+$/.test(last) && !last.startsWith("-") ? last : undefined;
}
