/**
 * `npm run demo`: the root Pulumi.yaml project (program: demo/program.ts) against the emulator, or with `--real`
 * the services named by the environment; with `--program <dir>`, a user's own project. With a `pulumi` CLI on PATH
 * it runs through the Automation API and the Pulumi engine; without one it says so and runs the same program
 * through the bundled engine driver (engine/), unless `--require-cli`, where it stops with the install advice.
 */
import { findPulumiCli, missingPulumiCliMessage, PULUMI_INSTALL_URL } from "../automation/pulumiCli";
import { automationDeployment } from "./automationDeployment";
import { Demo, message, say, type DemoEngine } from "./demo";
import { driverDeployment } from "./driverDeployment";
import { nativeDeployment } from "./nativeDeployment";
import { DEMO_USAGE, parseDemoArguments, type DemoOptions } from "./options";

/** The one line that opens the demo where there is no CLI. */
export const NO_CLI_NOTICE =
  `No \`pulumi\` CLI on PATH (install it from ${PULUMI_INSTALL_URL}), so what follows is the same program driven ` +
  "through the bundled engine driver (engine/), a stand-in for the Pulumi engine, not the Pulumi engine itself.";

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
  const cli = findPulumiCli();
  if (cli)
    return new Demo(options, {
      description: `the Pulumi engine, through the Automation API and the Pulumi CLI (${cli})`,
      kind: "pulumi",
      deploy: automationDeployment,
    }).run();
  if (options.requireCli) {
    process.stderr.write(`${missingPulumiCliMessage("The demo")}\n`);
    return 1;
  }
  if (options.keep && (options.real || options.program?.real)) {
    // Nothing but the driver could act on the kept stack later, and the real services would keep its objects.
    process.stderr.write(`${missingPulumiCliMessage("The demo with --keep --real")}\n`);
    return 1;
  }
  say(NO_CLI_NOTICE);
  const driver: DemoEngine = {
    description: "the bundled engine driver (engine/), a stand-in for the Pulumi engine",
    kind: "driver",
    deploy: async (ctx) => (ctx.runtime === "yaml" ? nativeDeployment(ctx) : driverDeployment(ctx)),
  };
  return new Demo(options, driver).run();
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
