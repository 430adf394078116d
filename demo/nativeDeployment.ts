import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { OpMap, OutputMap } from "@pulumi/pulumi/automation";
import { load } from "js-yaml";
import {
  NativeEngine,
  plainConfig,
  SECRET_SIG,
  secret,
  startNativeProviderPlugin,
  type NativeProviderPlugin,
  type NativeProviderResource,
  type NativeStep,
  type PackageName,
} from "../engine";
import type { Deployment, DeploymentContext } from "./deployment";
import { describeStepEvent } from "./driverProgress";
import { readYamlProgram, type HeldLookup, type Invoke, type YamlProgram } from "./yamlProgram";

type Props = Record<string, unknown>;

/** `{ create: 3 }` from the native engine's steps. */
function changesOf(steps: NativeStep[]): OpMap {
  const changes: Record<string, number> = {};
  for (const s of steps) changes[s.op] = (changes[s.op] ?? 0) + 1;
  return changes as OpMap;
}

/**
 * The functions a program calls (`fn::invoke`), through a provider plugin of the package started and configured
 * from the stack config as the engine does for the default provider; one per package, started on the first call.
 */
class Invoker {
  private readonly plugins = new Map<PackageName, Promise<NativeProviderPlugin>>();
  /** Answers by call: a variable named in several places is called once per command, as the language host does. */
  private readonly answers = new Map<string, Promise<Props>>();

  constructor(
    private readonly programDir: string,
    private readonly config: Record<string, string>,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  readonly invoke: Invoke = (token, args) => {
    const key = JSON.stringify([token, args]);
    if (!this.answers.has(key)) this.answers.set(key, this.call(token, args));
    return this.answers.get(key)!;
  };

  private async call(token: string, args: Props): Promise<Props> {
    const name = token.split(":")[0] as PackageName;
    let started = this.plugins.get(name);
    if (!started) {
      started = startNativeProviderPlugin(this.programDir, name, this.env).then(async (plugin) => {
        const prefix = `${name}:`;
        const settings = Object.entries(this.config).filter(([k]) => k.startsWith(prefix));
        await plugin.client.configure(Object.fromEntries(settings.map(([k, v]) => [k.slice(prefix.length), k.endsWith(":token") ? secret(v) : v])));
        return plugin;
      });
      this.plugins.set(name, started);
    }
    return (await started).client.invoke(token, args);
  }

  async close(): Promise<void> {
    const plugins = await Promise.allSettled(this.plugins.values());
    this.plugins.clear();
    await Promise.all(plugins.map((p) => (p.status === "fulfilled" ? p.value.stop() : undefined)));
  }
}

/**
 * A Pulumi YAML program in the engine driver: the program read as the YAML language host would run it
 * (demo/yamlProgram.ts), its resources driven through the package's provider plugins by the driver's NativeEngine,
 * a stand-in for the engine. The state lives in this process; `keep` writes it to a file to look at.
 */
export function nativeDeployment(ctx: DeploymentContext): Deployment {
  const document = load(readFileSync(join(ctx.project.dir, ctx.main), "utf8"));
  const config = plainConfig(ctx.config);
  /** Resource names by URN, types by name, and the explicit providers, from the readings of the program. */
  const names = new Map<string, string>();
  let types = new Map<string, string>();
  let providers: NativeProviderResource[] = [];
  const engine = new NativeEngine({ programDir: ctx.project.dir, config, env: ctx.env });
  let printed = 0;
  /** One command, with an invoker for the functions the program calls while it runs. */
  const command = async <T>(body: (program: YamlProgram) => Promise<T>): Promise<T> => {
    const invoker = new Invoker(ctx.project.dir, config, ctx.env);
    try {
      const program = readYamlProgram(document, ctx.config, ctx.stack, invoker.invoke);
      for (const r of program.resources) names.set(r.urn, r.name);
      types = new Map([...types, ...program.types]);
      if (ctx.againstEmulator) {
        // The stack's settings of the services are the emulator's already; an explicit provider's are made so too.
        for (const p of program.providers) {
          const { organization } = p.inputs;
          p.inputs = {
            address: config[`${p.package}:address`],
            token: config[`${p.package}:token`],
            ...(organization === undefined ? {} : { organization }),
          };
        }
      }
      providers = program.providers;
      return await body(program);
    } finally {
      await invoker.close();
      if (ctx.verbose) process.stdout.write(engine.pluginOutput.slice(printed));
      printed = engine.pluginOutput.length;
    }
  };
  const held: HeldLookup = (name) => {
    const urn = [...names.entries()].find(([, n]) => n === name)?.[0];
    return urn === undefined ? undefined : engine.held(urn);
  };
  const report = (steps: NativeStep[], phase: "planned" | "done") => {
    for (const step of steps) {
      const id = phase === "done" && step.op !== "delete" ? held(step.name)?.id : undefined;
      const line = describeStepEvent({ phase, op: step.op, type: types.get(step.name) ?? "", name: step.name, id });
      if (line) ctx.say(`  ${line}`);
    }
  };
  return {
    describe: () => ["  state: held by the engine driver in this process (the provider plugins' resources)"],
    preview: () =>
      command(async (program) => {
        const steps = await engine.preview(program.resources, program.providers);
        report(steps, "planned");
        return changesOf(steps);
      }),
    up: () =>
      command(async (program) => {
        const steps = await engine.up(program.resources, program.providers);
        report(steps, "done");
        const outputs: OutputMap = await program.outputs(held);
        return { changes: changesOf(steps), outputs };
      }),
    // What the state holds goes, with the providers of the last reading: the program is not read again, as the
    // engine's destroy does not run it.
    destroy: async () => {
      const steps = await engine.destroy(providers);
      report(steps, "done");
      return changesOf(steps);
    },
    removeStack: async () => undefined,
    keep: async () => {
      const file = join(ctx.work, "driver-state.json");
      const resources = [...names.entries()].flatMap(([urn, name]) => {
        const h = engine.held(urn);
        return h ? [{ urn, type: types.get(name), id: h.id, inputs: masked(h.inputs), outputs: masked(h.outputs) }] : [];
      });
      writeFileSync(file, `${JSON.stringify({ resources }, null, 2)}\n`, { mode: 0o600 });
      return [
        `  ${file}: what the engine driver held (every resource's id, inputs and outputs, readable by you only; secrets`,
        "  shown as [secret]). Only this run of the driver could act on it: install the Pulumi CLI to keep stacks you can work with later",
      ];
    },
  };
}

/** Props with every secret value replaced by `[secret]`. */
function masked(props: Props): Props {
  return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, v !== null && typeof v === "object" && SECRET_SIG in v ? "[secret]" : v]));
}
