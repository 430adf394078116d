import { fork } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type * as grpcTypes from "@grpc/grpc-js";
import type * as providerPb from "@pulumi/pulumi/proto/provider_pb";
import type * as structPb from "google-protobuf/google/protobuf/struct_pb";

/**
 * The calls the engine makes first of every provider plugin it starts (pkg/host/host.go, pkg/resource/plugin): its
 * version, its schema (a YAML program's types), then its settings, checked and configured (here none: settings left
 * unset are needed only when a resource of their service runs).
 */
function firstCalls(): [string, Uint8Array][] {
  const pb: typeof providerPb = require("@pulumi/pulumi/proto/provider_pb");
  const { Struct }: typeof structPb = require("google-protobuf/google/protobuf/struct_pb");
  const urn = "urn:pulumi:dev::training::pulumi:providers:plugin::default";
  return [
    ["GetPluginInfo", new Uint8Array()],
    ["GetSchema", new pb.GetSchemaRequest().serializeBinary()],
    ["CheckConfig", new pb.CheckRequest().setUrn(urn).setOlds(Struct.fromJavaScript({})).setNews(Struct.fromJavaScript({})).serializeBinary()],
    ["Configure", new pb.ConfigureRequest().setArgs(Struct.fromJavaScript({})).setAcceptsecrets(true).setAcceptresources(true).serializeBinary()],
  ];
}

/**
 * V8's code cache of a plugin's script after a start-up: the script run by this Node.js (the executable's own, for
 * a build for this machine) as the engine starts the plugin, its first calls answered, then the cache written to
 * `cacheFile`. A cache made before running holds only the top-level code, and start-up spends most of its time
 * compiling the functions it calls (measured: docs/design.md, "The plugins' executables").
 */
export async function trainCodeCache(scriptFile: string, cacheFile: string): Promise<void> {
  const child = fork(join(__dirname, "codeCacheTraining.js"), [scriptFile, cacheFile], { stdio: ["ignore", "pipe", "pipe", "ipc"] });
  let output = "";
  child.stderr!.on("data", (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  try {
    const port = await Promise.race([
      new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once("line", (line) => resolve(line.trim()))),
      exited.then((code) => Promise.reject(new Error(`the plugin's training run exited (${code}) before it served: ${output}`))),
    ]);
    const grpc: typeof grpcTypes = require("@grpc/grpc-js");
    const client = new grpc.Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    try {
      for (const [method, request] of firstCalls()) {
        await new Promise<void>((resolve, reject) =>
          client.makeUnaryRequest(
            `/pulumirpc.ResourceProvider/${method}`,
            (r: Uint8Array) => Buffer.from(r),
            (b: Buffer) => b,
            request,
            (err) => (err ? reject(new Error(`the plugin's training run failed ${method}: ${err.message}`)) : resolve()),
          ),
        );
      }
    } finally {
      client.close();
    }
    child.send("write the cache");
    const code = await exited;
    if (code !== 0 || !existsSync(cacheFile)) throw new Error(`the plugin's training run ended (${code}) without its code cache: ${output}`);
  } finally {
    clearTimeout(timer);
    if (child.exitCode === null) child.kill("SIGKILL");
  }
}
