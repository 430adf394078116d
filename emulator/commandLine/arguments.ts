import { parseArgs } from "node:util";
import { FULL_GRANT } from "../runtask/access";
import { addOrganization, addWorkspace, emptySeed, readSeedFile, type Seed } from "./seed";

export const USAGE = `Usage: pulumi-snapshot-runtask-emulator [options]

Starts an emulator of the snapshot service and the run task service on a loopback port, prints the
environment variables that point the provider at it, and runs until interrupted (Ctrl-C or SIGTERM).

Options:
  --host <address>          loopback address to listen on (default 127.0.0.1; other hosts are refused)
  --port <number>           port (default 0: a free port)
  --seed <file>             JSON seed file: organizations, workspaces, tokens, license, letterOfSpec, vendorNames
                            (flags add to it)
  --organization <name>     an organization (repeatable; the first is RUNTASK_ORGANIZATION)
  --workspace <[org/]name>  a workspace, in the first organization unless one is named (repeatable)
  --snapshot-token <token>  a snapshot service token with the sudo capability (repeatable; the first is SERVICE_TOKEN)
  --runtask-token <token>   a run task service token, owner of every organization (repeatable; the first is RUNTASK_TOKEN)
  --unlicensed              the snapshot service has no license for automated snapshots
  --no-snapshots            do not take snapshots on the configured intervals
  --letter-of-spec          answer as the specs' letter says where the real services answer otherwise: the
                            run task associate 204 with no body, an unknown token 404, snapshot POST and LIST only
  --vendor-names            the snapshot service also speaks its vendor's names to clients that send the vendor's
                            token header, and the vendors' settings are printed too (VAULT_*, TFE_*)
  --json                    print one JSON object (env, workspaces) instead of shell exports
  --verbose                 print each request on stderr, with the status answered
  --help                    print this help

Without seeds: organization "emulator-org" with workspaces app-production, app-staging and network, and the
tokens emulator-snapshot-token and emulator-runtask-token.`;

export type CliCommand = { kind: "help" } | { kind: "run"; seed: Seed; json: boolean; verbose: boolean };

/** Parses the command line; throws an Error whose message is meant for the user on a usage error. */
export function parseCommandLine(argv: string[]): CliCommand {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      host: { type: "string" },
      port: { type: "string" },
      seed: { type: "string" },
      organization: { type: "string", multiple: true },
      workspace: { type: "string", multiple: true },
      "snapshot-token": { type: "string", multiple: true },
      "runtask-token": { type: "string", multiple: true },
      unlicensed: { type: "boolean" },
      "no-snapshots": { type: "boolean" },
      "letter-of-spec": { type: "boolean" },
      "vendor-names": { type: "boolean" },
      json: { type: "boolean" },
      verbose: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) return { kind: "help" };

  const seed = values.seed ? readSeedFile(values.seed) : emptySeed();
  if (values.host !== undefined) seed.host = values.host;
  if (values.port !== undefined) seed.port = parsePort(values.port);
  for (const name of values.organization ?? []) addOrganization(seed, name);
  for (const spec of values.workspace ?? []) addWorkspace(seed, spec);
  for (const token of values["snapshot-token"] ?? []) seed.snapshotTokens[token] = { sudo: true };
  for (const token of values["runtask-token"] ?? []) seed.runTaskTokens[token] = FULL_GRANT;
  if (values.unlicensed) seed.licensed = false;
  if (values["no-snapshots"]) seed.takeSnapshots = false;
  if (values["letter-of-spec"]) seed.letterOfSpec = true;
  if (values["vendor-names"]) seed.vendorNames = true;
  return { kind: "run", seed, json: values.json ?? false, verbose: values.verbose ?? false };
}

function parsePort(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535) throw new Error(`--port: expected a port number (0-65535), got "${text}"`);
  return port;
}
