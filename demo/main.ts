/**
 * `npm run demo`: the demo's program through the Pulumi engine against the emulator, or with `--real` the services
 * named by the environment; with `--program <dir>`, a user's own project. The engine is a `pulumi` CLI on PATH,
 * else the one `npm run engine` built, else it is built now.
 */
import { Demo, message, say } from "./demo";
import { DEMO_USAGE, parseDemoArguments, type DemoOptions } from "./options";
import { ensurePulumiEngine, findPulumiEngine, type PulumiEngine } from "../toolchain/pulumiEngine";

/** What the demo says before the first build of the engine, which takes minutes. */
export const FIRST_BUILD_NOTICE =
  "No `pulumi` CLI on PATH, and the project's own build of the Pulumi engine is not there yet: building it now " +
  "(npm run engine: the Pulumi CLI and the YAML language host, from the versions in toolchain/go.mod). The first " +
  "build takes minutes and gigabytes of Go caches, as it says below; later runs reuse it.";

/** A `pulumi` on PATH, else the project's build, else a build made now (saying so first). */
export function demoEngine(
  find: () => PulumiEngine | undefined = () => findPulumiEngine("path"),
  build: () => PulumiEngine = () => ensurePulumiEngine("path", "inherit"),
): PulumiEngine {
  const found = find();
  if (found) return found;
  say(FIRST_BUILD_NOTICE);
  return build();
}

async function main(argv: string[]): Promise<number> {
  let options: DemoOptions;
  try {
    const command = parseDemoArguments(argv);
    if (command.kind === "help") {
      say(DEMO_USAGE);
      return 0;
    }
    options = command.options;
  } catch (err) {
    process.stderr.write(`${message(err)}\n\n${DEMO_USAGE}\n`);
    return 2;
  }
  let engine: PulumiEngine;
  try {
    engine = demoEngine();
  } catch (err) {
    process.stderr.write(`${message(err)}\n`);
    return 1;
  }
  return new Demo(options, engine).run();
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
      process.exit(1);
    },
  );
}
