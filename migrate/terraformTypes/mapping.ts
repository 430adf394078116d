import type { Refusal } from "../refusal";
import type { TerraformInstance } from "../terraformState";

type Props = Record<string, unknown>;

/** The resource types of this package a Terraform object can become. */
export type PulumiType = "runtask:index:RunTask" | "runtask:index:WorkspaceRunTask" | "snapshot:index:SnapshotAutoConfig";

/** A Terraform attribute that does not cross, and why. */
export interface NotCarried {
  attribute: string;
  why: string;
}

/**
 * A secret argument Terraform cannot give: it keeps the value write-only (never in its state). The report says how
 * to set it; `whileUnset` says what happens to the object until then.
 */
export interface UnknownSecret {
  input: string;
  attribute: string;
  whileUnset: string;
}

/** A Terraform object that becomes a resource of this package. */
export interface MappedResource {
  kind: "resource";
  pulumiType: PulumiType;
  /** The id `pulumi import` takes for it. */
  importId: string;
  /** The object at the service (`task:task-...`), by which two Terraform addresses on one object are found. */
  object: string;
  /** The arguments as Terraform holds them, secrets aside: its defaults that are this package's too are left out. */
  inputs: Props;
  /** Secret arguments, from the plain text of Terraform's state. */
  secrets: Record<string, string>;
  /** The Terraform attributes carried, each with the argument it became. */
  carried: Record<string, string>;
  notCarried: NotCarried[];
  unknownSecrets: UnknownSecret[];
  /** Arguments that name another object (`taskId`): the object, for a reference when it migrates too. */
  references: Record<string, string>;
}

/** `tfe_organization_run_task_global_settings`: no resource of its own, but its task's `global` argument. */
export interface MappedGlobalSettings {
  kind: "global settings";
  /** The task's object (`task:task-...`). */
  task: string;
  global: { enabled: boolean; stages?: string[]; enforcementLevel?: string };
  carried: Record<string, string>;
  notCarried: NotCarried[];
}

export type Mapped = MappedResource | MappedGlobalSettings | { kind: "refused"; refusals: Refusal[] };

/** How one Terraform resource type crosses to this package. */
export interface TypeMapping {
  terraformType: string;
  /** The Terraform provider that defines it, as its registry address names it. */
  provider: string;
  /** The schema versions of the type that this mapping reads, as the provider's releases wrote them. */
  schemaVersions: readonly number[];
  map(instance: TerraformInstance): Mapped;
}

/**
 * An instance's attributes, read as the providers of either era stored them: the plugin SDK (v2) stores the zero
 * value (`""`, `false`, `0`) of an optional attribute left unset, the plugin framework `null`. Every reader here
 * says "unset" for both; where a zero is a value of its own (`enabled = false`), the caller reads it with `flag`.
 */
export class Attributes {
  private readonly read = new Set<string>();

  constructor(
    private readonly instance: TerraformInstance,
    private readonly known: readonly string[],
  ) {}

  private value(name: string): unknown {
    this.read.add(name);
    return this.instance.attributes[name];
  }

  /** A non-empty string, else undefined. */
  string(name: string): string | undefined {
    const v = this.value(name);
    return typeof v === "string" && v !== "" ? v : undefined;
  }

  /** A number other than 0, else undefined. */
  number(name: string): number | undefined {
    const v = this.value(name);
    return typeof v === "number" && v !== 0 ? v : undefined;
  }

  /** A boolean, `null` read as undefined (a zero that is a value of its own: `enabled = false`). */
  flag(name: string): boolean | undefined {
    const v = this.value(name);
    return typeof v === "boolean" ? v : undefined;
  }

  /** `true`, else undefined (`false` is the unset value of an optional switch of the plugin SDK era). */
  set(name: string): true | undefined {
    return this.value(name) === true ? true : undefined;
  }

  /** A list of strings, else undefined (an empty list too). */
  strings(name: string): string[] | undefined {
    const v = this.value(name);
    return Array.isArray(v) && v.length > 0 ? v.map(String) : undefined;
  }

  /**
   * Attributes with a value that the mapping neither read nor knows: those of a provider release newer than this
   * command, reported as not carried rather than dropped in silence.
   */
  unknownWithValues(): NotCarried[] {
    return Object.entries(this.instance.attributes)
      .filter(([name, v]) => !this.read.has(name) && !this.known.includes(name) && v !== null && v !== "" && v !== false && v !== 0)
      .filter(([, v]) => !(Array.isArray(v) && v.length === 0))
      .map(([attribute]) => ({ attribute, why: "an attribute this command does not know (a newer provider release?): not carried" }));
  }
}

/** A refusal of an instance that lacks an id the import needs. */
export function missingId(instance: TerraformInstance, attribute: string, what: string): Mapped {
  return {
    kind: "refused",
    refusals: [
      {
        address: instance.address,
        problem: `it has no \`${attribute}\` (${what}), which the import needs`,
        fix: "run `terraform apply -refresh-only` so that Terraform records it, then pull the state again",
      },
    ],
  };
}

/** Sets `inputs[key]` where `value` is defined. */
export function put(inputs: Props, key: string, value: unknown): void {
  if (value !== undefined) inputs[key] = value;
}
