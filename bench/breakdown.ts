import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BenchStack } from "./benchStack";
import { startEmulatorProcess } from "./emulatorProcess";
import { mixed, type ResourceKind, type Variant } from "./programs";
import { benchConfig, EMULATOR_OPTIONS, PARALLEL, type Setting } from "./setting";

/**
 * Where the bytes and the CPU of a dynamic resource go, against the null provider's: each state field's bytes per
 * resource kind, and the CPU profiles (Node's `--cpu-prof`) of the program's process and of the dynamic provider
 * plugin's during an `up` and a no-op `up` of the mixed program.
 */
export interface Breakdown {
  resources: number;
  /** Bytes per resource of each top-level field of a resource in the state file, by kind then variant. */
  state: Record<ResourceKind, Partial<Record<Variant, FieldBytes>>>;
  /** The profiles, by phase then variant then process. */
  profiles: Record<"up" | "noOpUp", Partial<Record<Variant, Record<ProcessRole, Profile>>>>;
}

/** A resource's bytes in the state file: in all, by top-level field, and those of its largest input and output values. */
export interface FieldBytes {
  total: number;
  fields: Record<string, number>;
  /** Bytes of each input (and output) value, by key. */
  inputs: Record<string, number>;
  outputs: Record<string, number>;
}

export type ProcessRole = "program" | "plugin";

/** A process's profile: CPU milliseconds sampled, by part (what the code belongs to), and its heaviest functions by their own time. */
export interface Profile {
  ms: number;
  parts: Record<string, number>;
  top: { fn: string; where: string; ms: number }[];
}

const VARIANTS: Variant[] = ["dynamic", "null"];

/** The breakdown of the mixed program of `n` resources (a third of each kind), for the dynamic resources and the null provider. */
export async function breakdown(setting: Setting, n: number, log: (line: string) => void): Promise<Breakdown> {
  const program = mixed(n);
  const state = { SnapshotAutoConfig: {}, RunTask: {}, WorkspaceRunTask: {} } as Breakdown["state"];
  const profiles: Breakdown["profiles"] = { up: {}, noOpUp: {} };
  for (const variant of VARIANTS) {
    log(`breakdown, ${n} resources of the mixed program: ${variant}`);
    const emulator = await startEmulatorProcess(EMULATOR_OPTIONS);
    const dirs = { up: mkdtempSync(join(tmpdir(), "bench-prof-")), noOpUp: mkdtempSync(join(tmpdir(), "bench-prof-")) };
    const nodeOptions = process.env.NODE_OPTIONS ?? "";
    const profiled = (dir: string) => ({ NODE_OPTIONS: `${nodeOptions} --cpu-prof --cpu-prof-dir=${dir}`.trim() });
    const stack = new BenchStack(setting.project, setting.engine, `breakdown-${variant}-${n}`, benchConfig(emulator.url));
    try {
      stack.setEnv(profiled(dirs.up));
      await stack.up(variant, program, { parallel: PARALLEL });
      const text = readFileSync(join(stack.backend, ".pulumi/stacks", stack.projectName, "dev.json"), "utf8");
      for (const [kind, bytes] of Object.entries(stateBytesByKind(text))) state[kind as ResourceKind][variant] = bytes;
      stack.setEnv(profiled(dirs.noOpUp));
      await stack.up(variant, program, { parallel: PARALLEL });
      stack.setEnv({ NODE_OPTIONS: nodeOptions });
      await stack.destroy(variant, { parallel: PARALLEL });
      profiles.up[variant] = profilesIn(dirs.up);
      profiles.noOpUp[variant] = profilesIn(dirs.noOpUp);
    } finally {
      stack.remove();
      await emulator.close();
      // BENCH_PROFILES keeps the profiles there, for Chrome's DevTools or `node --cpu-prof` readers.
      const keep = process.env.BENCH_PROFILES;
      for (const [phase, dir] of Object.entries(dirs)) {
        if (keep) cpSync(dir, join(keep, `${variant}-${phase}`), { recursive: true });
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }
  return { resources: n, state, profiles };
}

interface StateResource {
  type: string;
  urn: string;
  [field: string]: unknown;
}

/** The kind of a state resource, by its type token (dynamic, or the null provider's by its URN's name). */
function kindOf(r: StateResource): ResourceKind | undefined {
  const name = r.urn.slice(r.urn.lastIndexOf("::") + 2);
  if (r.type.endsWith(":SnapshotAutoConfig") || name.startsWith("cfg-")) return "SnapshotAutoConfig";
  if (r.type.endsWith(":WorkspaceRunTask") || name.startsWith("attach-")) return "WorkspaceRunTask";
  if (r.type.endsWith(":RunTask") || name.startsWith("task-")) return "RunTask";
  return undefined;
}

/** Bytes of a value as the state file writes it (compact JSON), under its key. */
function bytesOf(key: string, value: unknown): number {
  return Buffer.byteLength(JSON.stringify({ [key]: value })) - 1;
}

/** The mean bytes per resource of each kind, by field, from a state file's text. */
export function stateBytesByKind(text: string): Partial<Record<ResourceKind, FieldBytes>> {
  const resources: StateResource[] = JSON.parse(text).checkpoint.latest.resources;
  const sums = new Map<ResourceKind, { count: number; bytes: FieldBytes }>();
  for (const r of resources) {
    const kind = r.custom === true && !r.type.startsWith("pulumi:providers:") ? kindOf(r) : undefined;
    if (!kind) continue;
    let s = sums.get(kind);
    if (!s) sums.set(kind, (s = { count: 0, bytes: { total: 0, fields: {}, inputs: {}, outputs: {} } }));
    s.count++;
    s.bytes.total += Buffer.byteLength(JSON.stringify(r)) + 1;
    for (const [key, value] of Object.entries(r)) s.bytes.fields[key] = (s.bytes.fields[key] ?? 0) + bytesOf(key, value) + 1;
    for (const side of ["inputs", "outputs"] as const) {
      for (const [key, value] of Object.entries((r[side] ?? {}) as Record<string, unknown>)) {
        s.bytes[side][key] = (s.bytes[side][key] ?? 0) + bytesOf(key, value) + 1;
      }
    }
  }
  const mean = (o: Record<string, number>, count: number) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, Math.round(v / count)]));
  return Object.fromEntries(
    [...sums].map(([kind, { count, bytes }]) => [
      kind,
      {
        total: Math.round(bytes.total / count),
        fields: mean(bytes.fields, count),
        inputs: mean(bytes.inputs, count),
        outputs: mean(bytes.outputs, count),
      },
    ]),
  );
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

/** The program's and the dynamic plugin's profiles in a folder of `--cpu-prof` files (other Node processes' left out). */
function profilesIn(dir: string): Record<ProcessRole, Profile> {
  const out = {} as Record<ProcessRole, Profile>;
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".cpuprofile"))) {
    const profile = JSON.parse(readFileSync(join(dir, file), "utf8")) as CpuProfile;
    const urls = new Set(profile.nodes.map((x) => x.callFrame.url));
    const role: ProcessRole | undefined = [...urls].some((u) => u.includes("cmd/dynamic-provider"))
      ? "plugin"
      : [...urls].some((u) => u.includes("inlineProgram.js"))
        ? "program"
        : undefined;
    if (!role) continue;
    const summary = summarise(profile);
    // Where a role has two processes, the larger one.
    if (!out[role] || out[role].ms < summary.ms) out[role] = summary;
  }
  return out;
}

/** What part of a process a function belongs to, by the file it is in. */
export function partOf(url: string, fn: string): string {
  if (!url)
    return fn === "(garbage collector)" ? "garbage collection" : fn === "(program)" ? "Node itself (compiling, start-up)" : "Node's built-ins";
  if (url.startsWith("node:")) return "Node's built-ins";
  if (/@pulumi\/pulumi\/runtime\/closure\//.test(url) || /\/typescript\/lib\//.test(url)) return "closure serialization (the SDK's)";
  if (/@pulumi\/pulumi\/automation\//.test(url)) return "the Automation API";
  if (/@pulumi\/pulumi\/cmd\/dynamic-provider\//.test(url)) return "the dynamic provider plugin's own code";
  if (/@pulumi\/pulumi\/proto\//.test(url) || /google-protobuf/.test(url)) return "protobuf messages";
  if (/@pulumi\/pulumi\/(output|runtime\/rpc|runtime\/resource|resource)\.js/.test(url)) return "the SDK's resources and Outputs";
  if (/@pulumi\/pulumi\//.test(url)) return "the SDK's other modules";
  if (/@grpc\//.test(url)) return "gRPC";
  if (/pulumi-snapshot-runtask\/dist\/provider\//.test(url)) return "the provider core (ours)";
  if (/pulumi-snapshot-runtask\/dist\/sdk\//.test(url)) return "the resource classes (ours)";
  if (/pulumi-snapshot-runtask\//.test(url)) return "the package's other modules";
  if (/bench-null-provider|inlineProgram/.test(url)) return "the program";
  return "other packages";
}

/**
 * Self time by part and by function, from a profile's samples. Time in Node's own code (no file, or a `node:` one) is
 * given to the code that called it: loading modules where a module loader is on the stack, else the nearest caller in
 * a package's file.
 */
function summarise(profile: CpuProfile): Profile {
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const byId = new Map(profile.nodes.map((x) => [x.id, x]));
  const internal = (url: string) => !url || url.startsWith("node:");
  const attributed = (id: number): string => {
    const { url, functionName } = byId.get(id)!.callFrame;
    if (!internal(url)) return partOf(url, functionName);
    if (functionName === "(garbage collector)" || functionName === "(program)") return partOf("", functionName);
    for (let at = parent.get(id); at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)!.callFrame;
      if (frame.url.startsWith("node:internal/modules/")) return "loading modules";
      if (!internal(frame.url)) return partOf(frame.url, frame.functionName);
    }
    return "Node's built-ins";
  };
  const parts: Record<string, number> = {};
  const byFn = new Map<string, { fn: string; where: string; us: number }>();
  let total = 0;
  for (const node of profile.nodes) {
    const us = selfUs.get(node.id) ?? 0;
    const { functionName, url, lineNumber } = node.callFrame;
    if (!us || functionName === "(idle)") continue;
    total += us;
    const part = attributed(node.id);
    parts[part] = (parts[part] ?? 0) + us;
    const where = url ? `${url.replace(/^.*node_modules\//, "").replace(/^file:\/\//, "")}:${lineNumber + 1}` : "";
    const key = `${functionName}@${where}`;
    const entry = byFn.get(key) ?? { fn: functionName || "(anonymous)", where, us: 0 };
    entry.us += us;
    byFn.set(key, entry);
  }
  const ms = (us: number) => Math.round(us / 100) / 10;
  return {
    ms: ms(total),
    parts: Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, ms(v)])),
    top: [...byFn.values()]
      .sort((a, b) => b.us - a.us)
      .slice(0, 8)
      .map((x) => ({ fn: x.fn, where: x.where, ms: ms(x.us) })),
  };
}
