// `npm run provision` / `npm run preview` / `npm run destroy`: the description through the Automation API.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import {
  describeEngineEvent,
  destroyProvisioning,
  previewProvisioning,
  provision,
  ProvisioningError,
  type ProvisioningStackOptions,
  type RunOptions,
} from "pulumi-snapshot-runtask/automation";
import { platformDescription, workspaceIds } from "./description";

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`set ${name}`);
  return value;
}

/** The state: PULUMI_BACKEND_URL when set (s3://..., https://api.pulumi.com), else ./.pulumi-state. */
function backendUrl(): string {
  if (process.env.PULUMI_BACKEND_URL) return process.env.PULUMI_BACKEND_URL;
  const localState = join(__dirname, ".pulumi-state");
  mkdirSync(localState, { recursive: true });
  return pathToFileURL(localState).href;
}

function stackOptions(signal: AbortSignal): ProvisioningStackOptions & RunOptions {
  return {
    stackName: process.env.STACK ?? "platform",
    projectName: "platform-run-tasks", // as in Pulumi.yaml
    backendUrl: backendUrl(),
    passphrase: env("PULUMI_CONFIG_PASSPHRASE"),
    programDir: __dirname, // the provider plugin runs here and finds the package in ./node_modules
    description: platformDescription(workspaceIds()),
    credentials: {
      snapshot: { address: env("SERVICE_ADDR"), token: env("SERVICE_TOKEN") },
      runTask: { address: env("RUNTASK_ADDR"), token: env("RUNTASK_TOKEN"), organization: env("RUNTASK_ORGANIZATION") },
    },
    signal,
    onEvent: (event) => {
      const line = describeEngineEvent(event);
      if (line) console.log(line);
    },
    onNotice: (line) => console.log(line),
  };
}

async function main(command: string): Promise<void> {
  // Ctrl-C (or a CI job's cancellation) stops the CLI cleanly: it finishes the steps in flight and records them. A
  // second one quits at once. `process.on`, not `once`: the Automation API's process library re-raises a signal
  // that no other listener is left to handle, which would end this process before the CLI has stopped.
  const controller = new AbortController();
  const stop = () => {
    if (controller.signal.aborted) process.exit(130);
    console.error("stopping: the CLI finishes the steps in flight (Ctrl-C again to quit at once)");
    controller.abort();
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  const options = stackOptions(controller.signal);
  if (command === "preview") {
    const { changes } = await previewProvisioning(options);
    console.log("planned:", changes);
  } else if (command === "destroy") {
    await destroyProvisioning({ ...options, removeStack: true });
  } else {
    const { outputs, changes } = await provision({ ...options, message: `provision: ${workspaceIds().length} workspaces` });
    console.log("changes:", changes);
    for (const [name, a] of Object.entries(outputs.attachments)) console.log(`${name}: ${a.id} (${a.enforcementLevel}, ${a.stages.join(", ")})`);
  }
}

main(process.argv[2] ?? "up").catch((err: unknown) => {
  // The helper's errors say what failed and why, with no secret in them; the CLI's whole output is their cause.
  console.error(err instanceof Error ? err.message : err);
  if (err instanceof ProvisioningError && err.kind === "stack-not-found") console.error("run `npm run provision` first");
  process.exit(1);
});
