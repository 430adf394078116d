import { schemaText } from "../schema/load";
import { packageVersion } from "./packageRoot";

/**
 * What a standalone executable of a plugin carries in itself, written in by its build (plugin/executables/build.ts,
 * esbuild's `define`): it has no package beside it to read them from. Undefined everywhere else.
 */
declare const EMBEDDED_PLUGIN: { name: string; version: string; schema: string } | undefined;

/** The plugin built into this standalone executable, if this is one. */
export function embeddedPlugin(): { name: string; version: string; schema: string } | undefined {
  return typeof EMBEDDED_PLUGIN === "undefined" ? undefined : EMBEDDED_PLUGIN;
}

/** The plugins' version, which GetPluginInfo answers: the package's. */
export function pluginVersion(): string {
  return embeddedPlugin()?.version ?? packageVersion();
}

/** The schema of the plugin `name`, which GetSchema answers: `plugin/schema/<name>.json` of the package. */
export function pluginSchema(name: string): string {
  const embedded = embeddedPlugin();
  if (!embedded) return schemaText(name);
  if (embedded.name !== name) throw new Error(`pulumi-resource-${embedded.name} holds no schema of the ${name} plugin`);
  return embedded.schema;
}
