import type { ConfigLookup } from "../../provider/config/lookup";
import type { ServiceDescription } from "../../provider/config/serviceSettings";
import type { ResourceProvider } from "../../provider/resource";
import type { ClientTuning } from "../../provider/services/tuning";
import type { FieldTable, ResourceTable } from "../../provider/table/field";

type Props = Record<string, unknown>;

/** A resource of a provider plugin: its token, its field table and its provider core. */
export interface ResourceDefinition {
  /** `snapshot:index:SnapshotAutoConfig`. */
  token: string;
  table: ResourceTable;
  /**
   * The SDK's source of its doc comments: the file, the `Args` interface (or the interfaces whose members make up
   * the arguments, the first that documents one describing it) and the class.
   */
  docs: { file: string; args: string | string[]; class: string; nested?: Record<string, string> };
  /** What `pulumi import` takes as this resource's id. */
  importId: string;
  /** Loaded on first use, as in the dynamic provider. */
  provider(): ResourceProvider;
  /**
   * The resource id the engine keeps, for the core's id and outputs; the core's id by default. An association's
   * is `<workspaceId>/<wstask-id>`, the form an import gives, since the API reaches it only through its workspace.
   */
  idOf?(id: string, outputs: Props): string;
}

/** A function (a data source) of a provider plugin. */
export interface FunctionDefinition {
  /** `runtask:index:getRunTask`. */
  token: string;
  /**
   * The source of its doc comments: the file and function, and the interfaces of its arguments and result (the
   * items of a list result in `outputItems`, from `itemsFile` when another file declares them).
   */
  docs: { file: string; function: string; inputs?: string; outputs: string; outputItems?: string; itemsFile?: string };
  /** Its arguments and result, typed like table fields (never written, so `onChange` is "none"). */
  inputs: FieldTable;
  outputs: FieldTable;
  call(args: Props, config: ConfigLookup, tuning: ClientTuning): Promise<Props>;
}

/** One provider plugin: a Pulumi package named as its service's stack config namespace. */
export interface PackageDefinition {
  /** `snapshot` or `runtask`: the plugin `pulumi-resource-<name>`, and the config namespace. */
  name: string;
  displayName: string;
  description: string;
  service: ServiceDescription<string>;
  resources: ResourceDefinition[];
  functions: FunctionDefinition[];
}
