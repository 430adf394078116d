import type { OpMap, OutputMap } from "@pulumi/pulumi/automation";
import type { ConsumerProject, StackConfig } from "../engine";
import type { Runtime } from "./userProgram";

/** The demo's stack, whatever runs it: the Pulumi engine through the Automation API, or the engine driver. */
export interface Deployment {
  /** Lines saying where the state is kept. */
  describe(): string[];
  /** Planned steps by kind, e.g. `{ create: 3 }`. */
  preview(): Promise<OpMap>;
  up(): Promise<{ changes: OpMap; outputs: OutputMap }>;
  destroy(): Promise<OpMap>;
  /** Removes the stack itself (its resources must be gone). */
  removeStack(): Promise<void>;
  /** Makes the stack ready to be kept after `--keep` (its secrets encrypted), and says how to look at it. */
  keep(): Promise<string[]>;
}

/** What a deployment is made from. */
export interface DeploymentContext {
  /** The staged project: the root Pulumi.yaml and its program (or the user's), with the packed package installed. */
  project: ConsumerProject;
  /** The program file, relative to the project (a YAML program's is its Pulumi.yaml). */
  main: string;
  runtime: Runtime;
  /** Environment of the program and the provider plugins beyond this process's; an undefined value unsets one. */
  env: NodeJS.ProcessEnv;
  /**
   * Against the emulator: explicit provider resources of the program take the services' settings of `config` (the
   * emulator's address and token) in place of their own, as the stack's settings do, so that nothing reaches a
   * real service.
   */
  againstEmulator: boolean;
  /** The stack's name. */
  stack: string;
  config: StackConfig;
  /** The demo's work directory: everything the deployment writes goes there. */
  work: string;
  /** One line of progress. */
  say: (line: string) => void;
  verbose: boolean;
}
