import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { OpMap } from "@pulumi/pulumi/automation";
import { dynamicProviderPlugin, Engine, plainConfig, type Step } from "../engine";
import type { Deployment, DeploymentContext } from "./deployment";
import { describeStepEvent } from "./driverProgress";

/** `{ create: 3 }` from the driver's steps. */
function changesOf(steps: Step[]): OpMap {
  const changes: Record<string, number> = {};
  for (const s of steps) changes[s.op] = (changes[s.op] ?? 0) + 1;
  return changes as OpMap;
}

/**
 * The stack in the engine driver (engine/): the same program and the same provider plugin process as with the
 * Pulumi engine, driven through preview, up and destroy by a stand-in for the engine, with a state file of its own.
 *
 * Where the engine runs the program once per update and answers each registration with the resource's outputs
 * when its step is done, the driver runs it twice: before the update as for a plan (resources in the state with
 * their outputs, new ones without), to learn what to register; after it, against the new state, for the stack
 * outputs.
 */
export function driverDeployment(ctx: DeploymentContext): Deployment {
  const stateFile = join(ctx.work, "driver-state.json");
  let printed = 0;
  const engine = new Engine({
    // Node's compile cache, which the provider turns on in the plugin process, goes to the work directory too.
    plugin: dynamicProviderPlugin(ctx.project.dir, { env: { ...ctx.env, NODE_COMPILE_CACHE: join(ctx.work, "compile-cache") } }),
    stateFile,
    config: plainConfig(ctx.config),
    onEvent: (event) => {
      const line = describeStepEvent(event);
      if (line) ctx.say(`  ${line}`);
    },
  });
  const run = async (preview: boolean) => {
    const result = await ctx.project.run({ main: ctx.main, preview, config: ctx.config, env: ctx.env, stateFile }).catch((err: unknown) => {
      throw programFailure(err);
    });
    const foreign = result.registrations.find((r) => !r.type.startsWith("pulumi-nodejs:dynamic/"));
    if (foreign) {
      throw new Error(
        `${foreign.name} is a ${foreign.type}: the engine driver runs this package's resources only (no components, no other providers); run this program with the Pulumi CLI`,
      );
    }
    return result;
  };
  const command = async (body: () => Promise<Step[]>): Promise<Step[]> => {
    try {
      return await body();
    } finally {
      if (ctx.verbose) process.stdout.write(engine.pluginOutput.slice(printed));
      printed = engine.pluginOutput.length;
    }
  };
  return {
    describe: () => [`  state: ${stateFile} (the engine driver's, temporary)`],
    preview: async () => changesOf(await command(async () => engine.preview((await run(true)).registrations))),
    up: async () => {
      const steps = await command(async () => engine.up((await run(true)).registrations));
      return { changes: changesOf(steps), outputs: (await run(false)).outputs };
    },
    destroy: async () => changesOf(await command(() => engine.destroy())),
    removeStack: async () => rmSync(stateFile, { force: true }),
    keep: async () => {
      const passphrase = randomBytes(18).toString("base64url");
      engine.seal(passphrase);
      return [
        `  ${stateFile}: the driver's state (JSON, every resource's inputs and outputs, readable by you only; its secrets`,
        `  encrypted with the passphrase ${passphrase}, as the Pulumi engine's passphrase secrets provider keeps them)`,
        "  (only the engine driver can act on it: install the Pulumi CLI to keep stacks you can work with later)",
      ];
    },
  };
}

/**
 * The error of a program that threw, as the language host reports it: the error's own lines, without Node's
 * echo of the source line and the stack, which points into the staged copy.
 */
function programFailure(err: unknown): Error {
  const stderr = String((err as { stderr?: unknown }).stderr ?? "");
  const lines = stderr.split("\n");
  const start = lines.findIndex((l) => /^[A-Za-z]*(Error|Exception)\b.*:/.test(l));
  if (start < 0) return err instanceof Error ? err : new Error(String(err));
  const end = lines.findIndex((l, i) => i > start && /^\s+at /.test(l));
  return new Error(
    `the program failed: ${lines
      .slice(start, end < 0 ? undefined : end)
      .map((l) => l.trim())
      .join(" ")}`,
  );
}
