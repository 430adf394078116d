// The `pulumi` that the Automation API helper's tests put first on PATH: it appends what it was called with to a
// log, runs the real CLI with the same arguments, standard streams and environment, and appends how it ended.
// `node cliRecorder.js <log folder> <real CLI> <arguments...>` (the shim recordedCli.ts writes). It records the
// environment's names only, and of the tokens and the passphrase only whether they are set. The CLI runs in a
// process group of its own, and every SIGINT, SIGTERM or SIGHUP this process gets goes on to it once, so the CLI
// gets the signals it would get run directly: a Ctrl-C sent to the caller's process group, the Automation API's
// SIGINT to the process it started. Two things of the test's, neither an answer of the CLI's: a file `version`
// in the log folder is printed for `pulumi version` in place of the CLI's (a CLI older than the helper needs), and
// while a file `hold` names a command (`stack init`), a call of it waits, with `holding` written, until `hold` goes.
"use strict";
const { spawn } = require("node:child_process");
const { appendFileSync, existsSync, readdirSync, readFileSync, writeFileSync } = require("node:fs");
const { join } = require("node:path");

const [dir, cli, ...args] = process.argv.slice(2);
const SECRETS = ["RUNTASK_TOKEN", "SERVICE_TOKEN", "PULUMI_CONFIG_PASSPHRASE", "PULUMI_ACCESS_TOKEN"];
const VALUES = ["PULUMI_BACKEND_URL", "PULUMI_FALLBACK_TO_STATE_SECRETS_MANAGER", "PULUMI_HOME", "PULUMI_SKIP_UPDATE_CHECK"];
const started = new Date().toISOString();
const files = {};
for (const name of readdirSync(process.cwd()).filter((n) => /^Pulumi(\..+)?\.ya?ml$/.test(n))) {
  files[name] = readFileSync(join(process.cwd(), name), "utf8");
}

function record(end) {
  const env = Object.keys(process.env).sort();
  const secrets = Object.fromEntries(SECRETS.map((name) => [name, Boolean(process.env[name])]));
  const values = Object.fromEntries(VALUES.filter((name) => name in process.env).map((name) => [name, process.env[name]]));
  const call = { args, cwd: process.cwd(), env, secrets, values, files, caller: process.ppid, started, ended: new Date().toISOString(), ...end };
  appendFileSync(join(dir, "calls.jsonl"), `${JSON.stringify(call)}\n`);
}

async function main() {
  const version = join(dir, "version");
  if (args[0] === "version" && existsSync(version)) {
    process.stdout.write(readFileSync(version, "utf8"));
    return record({ code: 0, answered: "recorder" });
  }
  const hold = join(dir, "hold");
  if (existsSync(hold) && args.join(" ").startsWith(readFileSync(hold, "utf8").trim())) {
    writeFileSync(join(dir, "holding"), String(process.pid));
    while (existsSync(hold)) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const child = spawn(cli, args, { stdio: "inherit", detached: true });
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal));
  const [code, signal] = await new Promise((resolve) => child.on("exit", (c, s) => resolve([c, s])));
  record({ code, signal });
  process.exitCode = code ?? 1;
}

main();
