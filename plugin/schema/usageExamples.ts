import { readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The example programs of each resource's schema description, one per language, in Pulumi's `{{% examples %}}`
 * convention: each generator keeps the block of its own language (`codegen.FilterExamples`), so that every SDK's
 * docstring has one, and the registry shows them all. They are whole programs, in `plugin/schema/examples/<dir>/`,
 * which the tests compile or run (test/plugin-sdks/, test/docs/schemaExamples.test.ts).
 */
export interface UsageExample {
  /** The folder under plugin/schema/examples/. */
  dir: string;
  title: string;
  /** A `pulumi import` of an object of this type, as the description's Import section shows it. */
  importCommand: string;
}

/** Each example's program file per language, by the fence name the generators filter on. */
export const EXAMPLE_FILES = {
  typescript: "index.ts",
  python: "__main__.py",
  go: "main.go",
  yaml: "Pulumi.yaml",
} as const;

export const EXAMPLES_FOLDER = "plugin/schema/examples";

export const USAGE_EXAMPLES: Record<string, UsageExample> = {
  "snapshot:index:SnapshotAutoConfig": {
    dir: "snapshotAutoConfig",
    title: "Daily snapshots to a local directory",
    importCommand: "pulumi import snapshot:index:SnapshotAutoConfig daily daily",
  },
  "runtask:index:RunTask": {
    dir: "runTask",
    title: "A run task with a signing key",
    importCommand: "pulumi import runtask:index:RunTask scanner acme/scanner",
  },
  "runtask:index:WorkspaceRunTask": {
    dir: "workspaceRunTask",
    title: "A run task on a workspace, before and after each plan",
    importCommand: "pulumi import runtask:index:WorkspaceRunTask scanner-on-production ws-1A2b3C4d5E6f7G8h/scanner",
  },
};

/** The sections a resource's description ends with: its example in every language, and how to import one. */
export function usageSections(token: string, importId: string, root: string): string {
  const example = USAGE_EXAMPLES[token];
  if (!example) throw new Error(`${token} has no usage example in ${EXAMPLES_FOLDER}: every resource shows one`);
  const blocks = Object.entries(EXAMPLE_FILES).map(([language, file]) => {
    const code = readFileSync(join(root, EXAMPLES_FOLDER, example.dir, file), "utf8");
    return `\`\`\`${language}\n${code.endsWith("\n") ? code : `${code}\n`}\`\`\``;
  });
  return [
    "{{% examples %}}",
    "## Example Usage",
    "{{% example %}}",
    `### ${example.title}`,
    "",
    ...blocks,
    "{{% /example %}}",
    "{{% /examples %}}",
    "",
    "## Import",
    "",
    `Import ID: ${importId}.`,
    "",
    "```sh",
    `$ ${example.importCommand}`,
    "```",
  ].join("\n");
}
