import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** One resource of a stack's state, as the engine's file backend writes it (`apitype.ResourceV3`). */
export interface StateResource {
  urn: string;
  type: string;
  id?: string;
  custom?: boolean;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  parent?: string;
  provider?: string;
  /** Replaced, created first: the old object, waiting for its delete. */
  delete?: boolean;
  /** Deleted by a delete-first replacement whose create has not succeeded yet: it claims no live object. */
  pendingReplacement?: boolean;
  initErrors?: string[];
  aliases?: string[];
}

/** An operation the engine started and never saw end (the CLI was killed): `creating`, `updating`, `deleting`, ... */
export interface PendingOperation {
  resource: StateResource;
  type: string;
}

/** A stack's state as the backend holds it, with secrets still encrypted (what is on disk). */
export interface StackState {
  resources: StateResource[];
  pendingOperations: PendingOperation[];
  /** The file's text, to check what is stored in plain text. */
  text: string;
}

/** The state file of `project`/`stack` in a file backend at `backend` (a folder). */
export function stateFilePath(backend: string, project: string, stack: string): string {
  return join(backend, ".pulumi/stacks", project, `${stack}.json`);
}

export function readStackState(backend: string, project: string, stack: string): StackState {
  const file = stateFilePath(backend, project, stack);
  if (!existsSync(file)) return { resources: [], pendingOperations: [], text: "" };
  const text = readFileSync(file, "utf8");
  const latest = JSON.parse(text).checkpoint?.latest ?? {};
  return { resources: latest.resources ?? [], pendingOperations: latest.pending_operations ?? [], text };
}

/** The resource's name, the last part of its URN. */
export function nameOf(urn: string): string {
  return urn.slice(urn.lastIndexOf("::") + 2);
}

/** The resource's type, the part of its URN before its name (without its parents' types). */
export function typeOf(urn: string): string {
  const type = urn.split("::")[2] ?? "";
  return type.slice(type.lastIndexOf("$") + 1);
}

/** The resources of the package's types (dynamic and plugin), without providers, components or the stack. */
export function packageResources(state: StackState): StateResource[] {
  return state.resources.filter((r) => /(SnapshotAutoConfig|RunTask|WorkspaceRunTask)$/.test(r.type) && !r.type.startsWith("pulumi:providers:"));
}

/** Is the value an encrypted secret as the state file stores one? */
export function isEncryptedSecret(value: unknown): boolean {
  return typeof value === "object" && value !== null && "4dabf18193072939515e22adb298388d" in value && "ciphertext" in value;
}
