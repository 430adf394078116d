import type * as grpcTypes from "@grpc/grpc-js";
import type { EngineClient } from "@pulumi/pulumi/proto/engine_grpc_pb";
import { redact } from "./common/redact";
import { resourceOfCall, secretsOfCall } from "./context";

/**
 * What the provider tells the user while it works (what an adopt will change, a delete left undone, a deprecated
 * argument), through the engine's Log service, which the CLI shows with the resource, as warnings or as info. A
 * provider plugin's standard error reaches the engine as debug output only, shown with `-v` and `--debug` alone; the
 * dynamic provider plugin's is shown, but under the stack, without the resource (pkg plugin.go, `isDynamicPluginBinary`).
 *
 * The engine starts every plugin of a command with its own address as the plugin's one argument (the provider
 * plugins, and the dynamic provider plugin's process, which loads this module); where a process has none (a test
 * of the provider core, a plugin a debugger started), messages go to standard error.
 */
let engine: { address: string; client?: EngineClient } | undefined;

/** Sends later messages to the engine at `address`. */
export function useEngineLog(address: string | undefined): void {
  if (address === engine?.address) return;
  engine?.client?.close();
  engine = address ? { address } : undefined;
}

/** The engine's address, where this process is a plugin the engine started: the one argument it gives every plugin. */
export function engineAddressArgument(argv: readonly string[] = process.argv): string | undefined {
  const arg = argv[2];
  // Port 0 is no engine: a plugin started by hand or by a test.
  return arg !== undefined && /^([\w.-]+|\[[\d:a-fA-F]+\]):[1-9]\d*$/.test(arg) ? arg : undefined;
}

/**
 * Tells the user `message` about the resource of the call in progress (where the engine named it), without the
 * call's secrets. Resolves once the engine has it, or on its failure, which is told to standard error instead.
 * `debug` is what the CLI shows with `--debug` alone (where settings came from); without an engine it is not told.
 */
export function tellUser(severity: "debug" | "info" | "warning", message: string): Promise<void> {
  const text = redact(message, secretsOfCall());
  if (!engine) {
    if (severity !== "debug") process.stderr.write(`${severity}: ${text}\n`);
    return Promise.resolve();
  }
  const { LogRequest, LogSeverity } = require("@pulumi/pulumi/proto/engine_pb") as typeof import("@pulumi/pulumi/proto/engine_pb");
  const levels = { debug: LogSeverity.DEBUG, info: LogSeverity.INFO, warning: LogSeverity.WARNING };
  const request = new LogRequest()
    .setSeverity(levels[severity])
    .setMessage(text)
    .setUrn(resourceOfCall() ?? "");
  const client = clientOf(engine);
  return new Promise((resolve) =>
    client.log(request, (err) => {
      if (err && severity !== "debug") process.stderr.write(`${severity}: ${text}\n`);
      resolve();
    }),
  );
}

function clientOf(target: { address: string; client?: EngineClient }): EngineClient {
  if (!target.client) {
    const grpc = require("@grpc/grpc-js") as typeof grpcTypes;
    const { EngineClient: Client } = require("@pulumi/pulumi/proto/engine_grpc_pb") as typeof import("@pulumi/pulumi/proto/engine_grpc_pb");
    target.client = new Client(target.address, grpc.credentials.createInsecure());
  }
  return target.client;
}
