/**
 * `npm run bench -- --profile`: where the plugin's CPU goes. Runs create, no-op up, update and delete of 1000 mixed
 * resources at parallelism 16 with our provider and with the bare-request provider, each plugin process under
 * V8's CPU profiler, and prints, per phase, the self time by where the code comes from (our package, undici, zod,
 * the plugin's gRPC and protobuf, Node) and our heaviest functions. Profiles go to bench/results/profiles/.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dynamicProviderPlugin, Engine, NativeEngine, nativeProgram, type ConsumerProject, type Registration } from "../engine";
import { benchConfig } from "./harness";
import { withBareRequestProvider } from "./bareRequestProvider";
import { startEmulatorProcess } from "./emulatorProcess";
import { mixedProgram } from "./mixedProgram";
import { LATENCY_MS } from "./throughput";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Where a function comes from, by its script's path. */
function origin(url: string): string {
  if (!url) return "(VM: gc, idle, native)";
  if (url.startsWith("node:")) return "node";
  const at = url.lastIndexOf("node_modules/");
  if (at >= 0) {
    const rest = url.slice(at + "node_modules/".length).split("/");
    const name = rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
    return name === "pulumi-snapshot-runtask" ? `ours: ${rest.slice(1, 4).join("/")}` : name;
  }
  return url;
}

/** Self times of several profiles (the provider plugins run one process per package) added up. */
function selfTimesOf(files: string[]): { byOrigin: Map<string, number>; ours: Map<string, number>; totalMs: number } {
  const sum = { byOrigin: new Map<string, number>(), ours: new Map<string, number>(), totalMs: 0 };
  for (const file of files) {
    const one = selfTimes(JSON.parse(readFileSync(file, "utf8")));
    sum.totalMs += one.totalMs;
    for (const [map, from] of [
      [sum.byOrigin, one.byOrigin],
      [sum.ours, one.ours],
    ] as const)
      for (const [k, v] of from) map.set(k, (map.get(k) ?? 0) + v);
  }
  return sum;
}

/** Self time in milliseconds by origin, and by function of ours. */
function selfTimes(profile: CpuProfile): { byOrigin: Map<string, number>; ours: Map<string, number>; totalMs: number } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const byOrigin = new Map<string, number>();
  const ours = new Map<string, number>();
  let totalMs = 0;
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const frame = byId.get(id)!.callFrame;
    if (frame.functionName === "(idle)" || frame.functionName === "(program)") return;
    totalMs += ms;
    const from = frame.functionName === "(garbage collector)" ? "(garbage collector)" : origin(frame.url);
    byOrigin.set(from, (byOrigin.get(from) ?? 0) + ms);
    if (from.startsWith("ours")) {
      const key = `${frame.functionName || "(anonymous)"} ${from.slice(6)}:${frame.lineNumber + 1}`;
      ours.set(key, (ours.get(key) ?? 0) + ms);
    }
  });
  return { byOrigin, ours, totalMs };
}

/** Runs the four phases with the plugin of each command profiled; returns the profile files, by phase. */
async function profiledRun(
  fixture: ConsumerProject,
  versions: [Registration[], Registration[]],
  dir: string,
  label: string,
  native = false,
): Promise<Record<string, string[]>> {
  const emulator = await startEmulatorProcess({
    snapshot: { takeSnapshots: false },
    faults: { latencyMs: LATENCY_MS },
    runTask: { organizations: [{ name: "emulator-org", workspaces: [{ id: "ws-bench", name: "bench" }] }], associateResponse: "201" },
  });
  const stateDir = mkdtempSync(join(tmpdir(), "bench-profile-"));
  // The plugin is stopped with SIGTERM; exiting on it lets V8 write the profile.
  const exitOnTerm = join(stateDir, "exit-on-term.js");
  writeFileSync(exitOnTerm, "process.on('SIGTERM', () => process.exit(0));\n");
  const files: Record<string, string[]> = {};
  const nodeOptions = (profileDir: string) => `--require ${exitOnTerm} --cpu-prof --cpu-prof-interval=100 --cpu-prof-dir=${profileDir}`;
  const programs = [nativeProgram(versions[0]), nativeProgram(versions[1])];
  let nativeEngine: NativeEngine | undefined;
  try {
    for (const [phase, command] of [
      ["create", (e: Engine) => e.up(versions[0])],
      ["noOpUp", (e: Engine) => e.up(versions[0])],
      ["update", (e: Engine) => e.up(versions[1])],
      ["delete", (e: Engine) => e.destroy()],
    ] as const) {
      const profileDir = join(dir, `${label}-${phase}`);
      mkdirSync(profileDir, { recursive: true });
      if (native) {
        nativeEngine ??= new NativeEngine({ programDir: fixture.dir, parallelism: 16, config: benchConfig(emulator.url) });
        nativeEngine.env = { NODE_OPTIONS: nodeOptions(profileDir) };
        await (phase === "delete" ? nativeEngine.destroy() : nativeEngine.up(programs[phase === "update" ? 1 : 0]));
      } else {
        const engine = new Engine({
          plugin: dynamicProviderPlugin(fixture.dir, { env: { NODE_OPTIONS: nodeOptions(profileDir) } }),
          stateFile: join(stateDir, "state.json"),
          parallelism: 16,
          config: benchConfig(emulator.url),
        });
        await command(engine);
      }
      files[phase] = readdirSync(profileDir)
        .filter((f) => f.endsWith(".cpuprofile"))
        .map((f) => join(profileDir, f));
    }
  } finally {
    rmSync(stateDir, { recursive: true, force: true });
    await emulator.close();
  }
  return files;
}

export async function profile(fixture: ConsumerProject, outDir: string, n = 1000): Promise<string> {
  rmSync(outDir, { recursive: true, force: true });
  const versions: [Registration[], Registration[]] = [fixture.capture(mixedProgram(n, 1)), fixture.capture(mixedProgram(n, 2))];
  const ours = await profiledRun(fixture, versions, outDir, "ours");
  const bare = await profiledRun(fixture, [withBareRequestProvider(versions[0]), withBareRequestProvider(versions[1])], outDir, "bare");
  const native = await profiledRun(fixture, versions, outDir, "native", true);
  const lines: string[] = [];
  for (const phase of Object.keys(ours)) {
    const a = selfTimesOf(ours[phase]);
    const b = selfTimesOf(bare[phase]);
    const c = selfTimesOf(native[phase]);
    const per = (x: number | undefined) => ((x ?? 0) / n).toFixed(3);
    lines.push(
      `## ${phase}: CPU ms/op, whole commands (start included): ours ${per(a.totalMs)}, bare ${per(b.totalMs)}, provider plugins ${per(c.totalMs)}`,
    );
    const origins = [...new Set([...a.byOrigin.keys(), ...b.byOrigin.keys(), ...c.byOrigin.keys()])].sort(
      (x, y) => (a.byOrigin.get(y) ?? 0) - (a.byOrigin.get(x) ?? 0),
    );
    for (const o of origins.slice(0, 16))
      lines.push(`  ${o.padEnd(48)} ours ${per(a.byOrigin.get(o))}  bare ${per(b.byOrigin.get(o))}  plugins ${per(c.byOrigin.get(o))}`);
    for (const [label, t] of [
      ["ours", a],
      ["provider plugins", c],
    ] as const) {
      lines.push(`  heaviest functions of the package, ${label} (self ms/op):`);
      for (const [f, ms] of [...t.ours.entries()].sort((x, y) => y[1] - x[1]).slice(0, 10)) lines.push(`    ${(ms / n).toFixed(4)} ${f}`);
    }
  }
  return lines.join("\n");
}
