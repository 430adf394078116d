import { readFileSync, writeFileSync } from "node:fs";

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
}

/** The stack's state, in dependency order (creation order), persisted as JSON like a file backend's. */
export class StackState {
  resources: ResourceState[] = [];

  constructor(private readonly file: string) {}

  static load(file: string): StackState {
    const state = new StackState(file);
    try {
      state.resources = JSON.parse(readFileSync(file, "utf8")).resources;
    } catch {
      state.resources = [];
    }
    return state;
  }

  save(): void {
    writeFileSync(this.file, JSON.stringify({ resources: this.resources }, null, 2));
  }

  get(name: string): ResourceState | undefined {
    return this.resources.find((r) => r.name === name);
  }

  put(resource: ResourceState): void {
    const i = this.resources.findIndex((r) => r.name === resource.name);
    if (i >= 0) this.resources[i] = resource;
    else this.resources.push(resource);
  }

  remove(name: string): void {
    this.resources = this.resources.filter((r) => r.name !== name);
  }
}
