#!/usr/bin/env node
/**
 * `pulumi-snapshot-runtask-emulator`: the emulator of both services as a standalone process, for running stacks
 * and CI pipelines offline. Prints the environment to export, then serves until SIGINT or SIGTERM.
 */
import { startEmulator, type Emulator } from "./index";
import { parseCommandLine, USAGE } from "./commandLine/arguments";
import { formatJson, formatShell, reportOf } from "./commandLine/report";
import { emulatorOptionsOf } from "./commandLine/seed";

async function main(argv: string[]): Promise<number> {
  let command;
  try {
    command = parseCommandLine(argv);
  } catch (err) {
    process.stderr.write(`${message(err)}\n\n${USAGE}\n`);
    return 2;
  }
  if (command.kind === "help") {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }

  let emulator: Emulator;
  try {
    emulator = await startEmulator(emulatorOptionsOf(command.seed));
  } catch (err) {
    process.stderr.write(`pulumi-snapshot-runtask-emulator: ${message(err)}\n`);
    return 1;
  }
  if (command.verbose) {
    // Each request once answered, with its status (unknown paths and refused methods too).
    emulator.requests.onRecord = ({ method, path, route, status }) =>
      process.stderr.write(`${method} ${path} ${status === 0 ? "dropped" : status} (${route})\n`);
  }

  const report = reportOf(emulator, command.seed);
  process.stdout.write(command.json ? formatJson(report) : formatShell(report));
  await stopped();
  process.stderr.write("stopping the emulator\n");
  await emulator.close();
  return 0;
}

/** Resolves on the first SIGINT or SIGTERM; a second one exits at once. */
function stopped(): Promise<void> {
  return new Promise((resolve) => {
    const onSignal = () => {
      process.off("SIGINT", onSignal).off("SIGTERM", onSignal);
      process.once("SIGINT", () => process.exit(130)).once("SIGTERM", () => process.exit(143));
      resolve();
    };
    process.on("SIGINT", onSignal).on("SIGTERM", onSignal);
  });
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`pulumi-snapshot-runtask-emulator: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
