import { buildSync } from "esbuild";
import { readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * One plugin's standalone script: main.ts with everything it loads (the server, the provider core, undici, gRPC,
 * the protobuf messages, zod), only `node:` built-ins left outside, and the plugin's name, version and schema written
 * in (`EMBEDDED_PLUGIN`, plugin/server/identity.ts) where the npm package reads its package.json and schema files.
 * The same inputs give the same text, so the text keys the build's reuse.
 */
export function bundlePlugin(root: string, plugin: string, version: string): string {
  const result = buildSync({
    entryPoints: [join(root, "plugin/executables/main.ts")],
    bundle: true,
    write: false,
    platform: "node",
    format: "cjs",
    target: "node22",
    // Identifiers keep their names, so that stack traces do too.
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: "none",
    logLevel: "warning",
    define: { EMBEDDED_PLUGIN: JSON.stringify({ name: plugin, version, schema: schemaOf(root, plugin, version) }) },
  });
  return result.outputFiles[0].text;
}

/** The main script of every executable (seaMain.ts), which runs the plugin's script from the executable's assets. */
export function bundleSeaMain(root: string): string {
  const result = buildSync({
    entryPoints: [join(root, "plugin/executables/seaMain.ts")],
    bundle: true,
    write: false,
    platform: "node",
    format: "cjs",
    target: "node22",
    logLevel: "warning",
  });
  return result.outputFiles[0].text;
}

/** `plugin/schema/<plugin>.json`, with `version` set to the version built (which a pre-release build may change). */
function schemaOf(root: string, plugin: string, version: string): string {
  const text = readFileSync(join(root, "plugin/schema", `${plugin}.json`), "utf8");
  const schema = JSON.parse(text) as { version?: string };
  return schema.version === version ? text : `${JSON.stringify({ ...schema, version }, null, 2)}\n`;
}
