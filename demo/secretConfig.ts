import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { load } from "js-yaml";
import { offlineEngineEnv, type PulumiEngine } from "../toolchain/pulumiEngine";
import { shellWord, type KeptStackShell } from "./keptStackShell";
import type { StateFolder } from "./stateFolder";
import { asObject, flagKey, type UserProgram } from "./userProgram";

/**
 * The values a project's stack file holds encrypted (`secure:`), as set for a stack the demo keeps: the CLI's
 * "missing configuration" message advises `pulumi config set --secret <key>`, and the demo prints that command for
 * its kept stack (its file backend, its passphrase in `.pulumi-demo/passphrase`), which writes the encrypted value
 * into the project's `Pulumi.<stack>.yaml`. The CLI decrypts them as it encrypted them: `pulumi config
 * --show-secrets`, run in the project's directory with the kept stack's backend and passphrase. A value encrypted
 * otherwise (another passphrase, another secrets provider), or a stack that is not kept, cannot be read here: the
 * error says to give it on the command line instead.
 */
export function keptSecrets(
  program: UserProgram,
  stack: string,
  keys: string[],
  state: StateFolder,
  engine: PulumiEngine,
  shell: KeptStackShell,
): Record<string, string> {
  const file = `Pulumi.${stack}.yaml`;
  const flags = keys.map((k) => `--secret ${flagKey(program.name, k)}=<value>`).join(" ");
  const held = `${file} holds ${keys.join(", ")} encrypted`;
  if (!state.found) throw new Error(`${held}, and no stack kept by the demo (--keep) has the passphrase to read it: give it with ${flags}`);
  const provider = asObject(load(readFileSync(join(program.dir, file), "utf8"))).secretsprovider;
  if (typeof provider === "string" && provider !== "passphrase" && provider !== "default") {
    throw new Error(`${held} by the secrets provider ${provider}, which the demo does not use (it uses a passphrase): give it with ${flags}`);
  }
  const env = offlineEngineEnv(engine, { home: state.home, backend: state.backend, passphrase: state.secret("passphrase") }, process.env);
  let shown: Record<string, { value?: string }>;
  try {
    const out = execFileSync(engine.cli, ["config", "--show-secrets", "--json", "--stack", stack], {
      cwd: program.dir,
      env,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
    shown = JSON.parse(out) as Record<string, { value?: string }>;
  } catch (err) {
    const said = String((err as { stderr?: string }).stderr ?? "").trim() || String(err);
    const set = keys.map(
      (k) => `cd ${shellWord(program.dir)} && ${shell.command(["config", "set", "--secret", "--stack", stack, flagKey(program.name, k), "<value>"])}`,
    );
    throw new Error(
      `${held}, and the kept stack's passphrase does not decrypt it (${said}): give it with ${flags}, or set it again ` +
        `with the kept stack's passphrase:\n  ${shell.environment()}\n  ${set.join("\n  ")}`,
    );
  }
  return Object.fromEntries(keys.map((k) => [k, String(shown[k]?.value ?? "")]));
}
