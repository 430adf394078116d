import { startEmulator, type Emulator, type EmulatorOptions } from "../../../emulator";
import type { ConsumerProject } from "../../../toolchain/consumerProject";
import { emulatorStackConfig, forgetObjects, RUNTASK_TOKEN } from "../emulatorStack";
import type { Switchboard } from "../switchboard";
import { EngineStack, engineProject, type StackOptions } from "./engineStack";

/** What a suite through the engine works with: set up before its tests, taken down after. */
export interface EngineSuite {
  /** The packed package installed in a consumer project, as a user installs it. */
  readonly project: ConsumerProject;
  readonly emulator: Emulator;
  /**
   * A stack of the suite, an inline program's or a YAML program's, its config pointing both packages at the
   * emulator (tokens secret) unless `options` says otherwise; its folder is removed after the suite.
   */
  stack(runtime: "inline" | "yaml", projectName: string, options?: Partial<Omit<StackOptions, "project" | "projectName">>): EngineStack;
}

export interface EngineSuiteOptions {
  /** The emulator's options; default `scenarioEmulator()`. */
  emulator?: EmulatorOptions;
  /** Requests the tests answer or hold: its interceptor goes to the emulator, and it is reset after each test. */
  calls?: Switchboard;
  /** After each test the emulator forgets every object, so that what a failed test left does not meet the next one. */
  forgetBetweenTests?: boolean;
}

/** The scenario emulator: organization `acme` with the workspaces named, `RUNTASK_TOKEN` its owner, no snapshots taken. */
export function scenarioEmulator(
  workspaces: string[] = ["app", "web"],
  more: { name: string; workspaces: { name: string }[] }[] = [],
): EmulatorOptions {
  return {
    snapshot: { takeSnapshots: false },
    runTask: {
      tokens: { [RUNTASK_TOKEN]: { owner: true } },
      organizations: [{ name: "acme", workspaces: workspaces.map((name) => ({ name })) }, ...more],
    },
  };
}

/**
 * Registers the set-up every suite through the engine shares (jest's `beforeAll`, `afterEach`, `afterAll`), and
 * returns what it made; read its members inside tests and hooks, once the set-up has run.
 */
export function engineSuite(options: EngineSuiteOptions = {}): EngineSuite {
  let project: ConsumerProject | undefined;
  let emulator: Emulator | undefined;
  const stacks: EngineStack[] = [];
  const made = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`the suite's ${what} is made in its beforeAll: read it inside a test or hook`);
    return value;
  };

  beforeAll(async () => {
    project = engineProject();
    const emulatorOptions = options.emulator ?? scenarioEmulator();
    emulator = await startEmulator({
      ...emulatorOptions,
      interceptors: [...(emulatorOptions.interceptors ?? []), ...(options.calls ? [options.calls.interceptor] : [])],
    });
  });

  afterEach(() => {
    options.calls?.reset();
    if (options.forgetBetweenTests && emulator) forgetObjects(emulator);
  });

  afterAll(async () => {
    for (const stack of stacks) stack.remove();
    await emulator?.close();
    project?.remove();
  });

  return {
    get project() {
      return made(project, "consumer project");
    },
    get emulator() {
      return made(emulator, "emulator");
    },
    stack(runtime, projectName, stackOptions = {}) {
      const stack = (runtime === "inline" ? EngineStack.inline : EngineStack.yaml)({
        project: made(project, "consumer project"),
        projectName,
        config: emulatorStackConfig(made(emulator, "emulator")),
        secretKeys: ["runtask:token", "snapshot:token"],
        ...stackOptions,
      });
      stacks.push(stack);
      return stack;
    },
  };
}
