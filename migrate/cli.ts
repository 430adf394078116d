#!/usr/bin/env node
import { basename } from "node:path";
import { parseArgs } from "node:util";
import { messageOf } from "../provider/common/errors";
import { packageVersion } from "../plugin/server/packageRoot";
import { migrateTerraform, readStateText } from "./migration";
import { MigrationRefused } from "./refusal";

const USAGE = `Usage: pulumi-snapshot-runtask migrate terraform <state.json|-> --stack <name> [options]

Moves the run tasks, workspace run tasks, their global settings (hashicorp/tfe) and the automated snapshot
configurations (hashicorp/vault) of a Terraform state to a Pulumi stack on this package's provider plugins, with
every object kept and no change after: secrets into the stack config, \`pulumi import --file\`, the program written,
\`pulumi preview --expect-no-changes\`, and a report.

  <state.json|->        \`terraform state pull\` or \`terraform show -json\` output; - reads standard input
  --stack <name>        the stack to import into (made when it does not exist)
  --out <dir>           the Pulumi project's folder (default: pulumi); a new one, or one without a program
  --project <name>      the project's name where --out has no Pulumi.yaml (default: the current folder's name)
  --language <l>        yaml (default) or typescript (the plugins' Node.js SDK)
  --leave-others        leave resources of other types to Terraform, listed in the report, rather than refuse
  --dry-run             check and read everything, write the program (with import options) and the report;
                        make nothing in the stack
  --version             print this package's version
  --help                print this text

It uses the \`pulumi\` CLI on PATH (v3.274.1 or later), with the language host of the program and the provider
plugins, and its current backend, and reads the services' settings from the stack's config, then the environment, as
the provider plugins do. It says it migrated the objects, and prints the steps that make Terraform forget them, only
once the stack's preview shows no change. Exit status: 0 done, 2 refused (nothing was made or written), 1 failed after
it began to make things, which it then took back (the report says what): Terraform still manages every object.
`;

/** Exit statuses: done; failed once things were made; refused (or misused) with nothing made. */
const DONE = 0;
const FAILED = 1;
const REFUSED = 2;

export async function main(argv: string[], print: (text: string) => void, printError: (text: string) => void): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        stack: { type: "string" },
        out: { type: "string" },
        project: { type: "string" },
        language: { type: "string" },
        "leave-others": { type: "boolean" },
        "dry-run": { type: "boolean" },
        version: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (err) {
    printError(`${messageOf(err)}\n\n${USAGE}`);
    return REFUSED;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    print(USAGE);
    return DONE;
  }
  if (values.version) {
    print(`pulumi-snapshot-runtask ${packageVersion()}\n`);
    return DONE;
  }
  const [command, from, source, ...extra] = positionals;
  const language = values.language ?? "yaml";
  const problem =
    command !== "migrate" || from !== "terraform"
      ? "the command is `migrate terraform`"
      : source === undefined
        ? "give the state: a file, or - for standard input"
        : extra.length > 0
          ? `unexpected arguments: ${extra.join(" ")}`
          : !values.stack
            ? "give the stack to import into: --stack <name>"
            : language !== "yaml" && language !== "typescript"
              ? `--language is yaml or typescript, not ${language}`
              : undefined;
  if (problem) {
    printError(`${problem}\n\n${USAGE}`);
    return REFUSED;
  }
  let stateText: string;
  try {
    stateText = readStateText(source!);
  } catch (err) {
    printError(`cannot read the state ${source === "-" ? "from standard input" : source}: ${messageOf(err)}; nothing was made or written\n`);
    return REFUSED;
  }
  try {
    await migrateTerraform({
      stateText,
      stack: values.stack!,
      out: values.out ?? "pulumi",
      project: values.project ?? (values.out ? undefined : basename(process.cwd())),
      language: language as "yaml" | "typescript",
      dryRun: values["dry-run"] === true,
      leaveOthers: values["leave-others"] === true,
      print,
    });
    return DONE;
  } catch (err) {
    if (err instanceof MigrationRefused) {
      printError(`${err.message}\n`);
      return REFUSED;
    }
    printError(`${messageOf(err)}\n`);
    return FAILED;
  }
}

if (require.main === module) {
  main(
    process.argv.slice(2),
    (text) => process.stdout.write(text),
    (text) => process.stderr.write(text),
  ).then((code) => (process.exitCode = code));
}
