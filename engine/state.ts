import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { isSealed, StateSecrets, type SecretsProviderState } from "./stateSecrets";

/** One resource as the engine keeps it in a stack's state. */
export interface ResourceState {
  urn: string;
  type: string;
  name: string;
  id: string;
  /** Checked inputs, `__provider` included, secrets plain (the real state encrypts them). */
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  secretInputs: string[];
  secretOutputs: string[];
  additionalSecretOutputs: string[];
  /** URNs this resource depends on: destroy deletes it before them. */
  dependencies?: string[];
  /** Deleting it leaves its object in place (`retainOnDelete`). */
  retainOnDelete?: boolean;
  /** The `customTimeouts` option it was registered with; its `delete` goes with the Delete call. */
  customTimeouts?: { create?: string; update?: string; delete?: string };
  /** Its `ignoreChanges` and `replaceOnChanges`, for the diffs the engine makes of it on its own. */
  ignoreChanges?: string[];
  replaceOnChanges?: string[];
  /** For each input, the URNs its value came from: a delete-before-replace of one of them may replace it. */
  propertyDependencies?: Record<string, string[]>;
  /**
   * An old object still to be deleted: a replacement created before it, whose delete has not happened yet. The
   * engine keeps it in the state (`Delete: true`) until its delete succeeds, in this command or the next.
   */
  delete?: true;
  /**
   * Deleted by a delete-before-replace whose create has not succeeded yet: the engine keeps it in the state
   * (`PendingReplacement`, pkg/resource/deploy/step.go, `DeleteStep.Apply`) so that the next `up` creates it without
   * deleting it again, and a resource the program no longer has leaves the state without a Delete
   * (`RemovePendingReplaceStep`).
   */
  pendingReplacement?: true;
  /**
   * Init errors: the reasons of a create or update that failed after its object was made or changed. The next `up`
   * updates the resource whatever its diff says; a refresh that reads it clears them.
   */
  initErrors?: string[];
}

/** The stack's state, in dependency order (creation order), persisted as JSON like a file backend's. */
export class StackState {
  resources: ResourceState[] = [];

  constructor(private readonly file: string) {}

  /** The state in `file`; sealed secrets (a kept state) are opened with `passphrase`. */
  static load(file: string, passphrase?: string): StackState {
    const state = new StackState(file);
    let saved: { resources: ResourceState[]; secretsProvider?: SecretsProviderState };
    try {
      saved = JSON.parse(readFileSync(file, "utf8"));
    } catch {
      return state;
    }
    const sealed = saved.secretsProvider;
    if (sealed && passphrase === undefined) throw new Error(`${file}: its secrets are encrypted; give the passphrase it was kept with`);
    const secrets = sealed ? new StateSecrets(passphrase!, sealed) : undefined;
    state.resources = secrets ? saved.resources.map((r) => mapSecrets(r, (v) => (isSealed(v) ? secrets.open(v) : v))) : saved.resources;
    return state;
  }

  /**
   * Writes the state, readable by its owner only (mode 0600: it holds every resource's inputs and outputs). With a
   * passphrase, the secret values (the keys each resource lists as secret) are written encrypted, as a kept state is.
   */
  save(passphrase?: string): void {
    const secrets = passphrase === undefined ? undefined : new StateSecrets(passphrase);
    const resources = secrets ? this.resources.map((r) => mapSecrets(r, (v) => secrets.seal(v))) : this.resources;
    const saved = secrets ? { secretsProvider: secrets.provider, resources } : { resources };
    writeFileSync(this.file, JSON.stringify(saved, null, 2), { mode: 0o600 });
    chmodSync(this.file, 0o600);
  }

  /** The resource of that name (not an old object waiting for its delete). */
  get(name: string): ResourceState | undefined {
    return this.resources.find((r) => r.name === name && !r.delete);
  }

  /** Old objects waiting for their delete. */
  condemned(): ResourceState[] {
    return this.resources.filter((r) => r.delete);
  }

  put(resource: ResourceState): void {
    const i = this.resources.findIndex((r) => r.name === resource.name && !r.delete);
    if (i >= 0) this.resources[i] = resource;
    else this.resources.push(resource);
  }

  /** The resource leaves the state (its object deleted, or gone). */
  remove(resource: ResourceState | string): void {
    this.resources = this.resources.filter((r) => (typeof resource === "string" ? r.name !== resource || r.delete : r !== resource));
  }

  /** The resource's object stays in the state, to be deleted, while its replacement takes its name. */
  condemn(resource: ResourceState): void {
    const i = this.resources.indexOf(resource);
    if (i >= 0) this.resources[i] = { ...resource, delete: true };
  }

  /** A resource found by an alias takes its new name and URN, keeping its object (the engine's aliases). */
  rename(resource: ResourceState, name: string, urn: string): ResourceState {
    const renamed = { ...resource, name, urn };
    this.resources[this.resources.indexOf(resource)] = renamed;
    return renamed;
  }
}

/** The resource with `map` applied to its secret values: of every key secret as an input or as an output, both. */
function mapSecrets(r: ResourceState, map: (value: unknown) => unknown): ResourceState {
  const secret = new Set([...r.secretInputs, ...r.secretOutputs]);
  const over = (props: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(props).map(([k, v]) => [k, secret.has(k) && v !== undefined ? map(v) : v]));
  return { ...r, inputs: over(r.inputs), outputs: over(r.outputs) };
}
