/**
 * The entry of a plugin's standalone executable (`pulumi-resource-<name>` in the release archives): the plugin,
 * the provider core and every dependency bundled into one script with the plugin's name, version and schema
 * (plugin/server/identity.ts), which build.ts makes into a single executable with Node.js inside.
 */
import { basename, dirname } from "node:path";
import { embeddedPlugin } from "../server/identity";
import { runPlugin, type PluginName } from "../server/run";

const plugin = embeddedPlugin();
if (!plugin) throw new Error("plugin/executables/main.ts runs only as built by plugin/executables/build.ts");
const name = plugin.name as PluginName;
const args = process.argv.slice(2);

/**
 * The version the engine installed this executable as, where it did: the plugin cache keeps each version in a folder
 * `resource-<name>-v<version>` (sdk/go/common/workspace/plugins.go, `PluginDescriptor.Dir`). The engine takes an
 * archive's version from its name and never looks inside.
 */
function installedAs(executable: string): string | undefined {
  const folder = basename(dirname(executable));
  const prefix = `resource-${name}-v`;
  return folder.startsWith(prefix) ? folder.slice(prefix.length) : undefined;
}

const installed = installedAs(process.execPath);
if (args.includes("--version")) {
  process.stdout.write(`${plugin.version}\n`);
} else if (installed !== undefined && installed !== plugin.version && !args.includes("--help") && !args.includes("-h")) {
  // The engine would run it, only warning where the version is older than asked: another version's archive was
  // published or installed under this version's name, and programs would not get what they pinned.
  console.error(
    `pulumi-resource-${name} ${plugin.version} is installed as version ${installed} (${dirname(process.execPath)}): ` +
      `the archive it came from holds another version's executable. Remove it (pulumi plugin rm resource ${name} ${installed}) ` +
      `and install ${installed} from pulumi-resource-${name}-v${installed}-<os>-<arch>.tar.gz of its release.`,
  );
  process.exitCode = 1;
} else {
  runPlugin(name, args, () => require("../server/entry"));
}
