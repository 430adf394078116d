import { spawn } from "node:child_process";
import { delimiter, dirname, isAbsolute } from "node:path";
import type { LocalWorkspace } from "@pulumi/pulumi/automation";

/** A CLI run of the helper's own that failed: its exit code and output, shaped as the Automation API's errors are. */
export class CliRunError extends Error {
  constructor(
    readonly args: string[],
    readonly code: number | null,
    readonly stdout: string,
    readonly stderr: string,
  ) {
    super(`pulumi ${args[0]} ${args[1] ?? ""} exited with ${code === null ? "a signal" : `code ${code}`}\n${stderr.trim()}`);
    this.name = "CliRunError";
  }
}

/**
 * Sets one secret config value, handing the value to `pulumi config set --secret` on its standard input, which
 * the CLI reads when its input is not a terminal. The Automation API's `setConfig` and `setAllConfig` put the
 * value on the command line instead, where every user of the machine can read it while the CLI runs, and where
 * the Automation API quotes it whole in the error when the CLI fails. The environment is the one the Automation
 * API gives its own CLI runs.
 */
export function setSecretConfig(workspace: LocalWorkspace, stackName: string, key: string, value: string): Promise<void> {
  const command = workspace.pulumiCommand.command;
  const env: NodeJS.ProcessEnv = { ...process.env, ...workspace.envVars, PULUMI_AUTOMATION_API: "true" };
  if (workspace.pulumiHome) env.PULUMI_HOME = workspace.pulumiHome;
  // As the Automation API does: a CLI given by path finds its bundled plugins next to it.
  if (isAbsolute(command)) env.PATH = `${dirname(command)}${delimiter}${env.PATH ?? ""}`;
  const args = ["config", "set", "--stack", stackName, "--secret", "--non-interactive", "--", key];
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: workspace.workDir, env, stdio: ["pipe", "pipe", "pipe"], windowsHide: true });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new CliRunError(args, code, stdout, stderr))));
    // A failed write (the CLI exited first) shows as its exit code.
    child.stdin.on("error", () => undefined);
    child.stdin.end(value);
  });
}
