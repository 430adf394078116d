// `npm run provision` / `npm run preview` / `npm run destroy`: the description through the Automation API.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import {
  describeEngineEvent,
  destroyProvisioning,
  previewProvisioning,
  provision,
  type ProgressOptions,
  type ProvisioningStackOptions,
} from "pulumi-snapshot-runtask/automation";
import { platformDescription, workspaceIds } from "./description";

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`set ${name}`);
  return value;
}

function stackOptions(): ProvisioningStackOptions & ProgressOptions {
  const localState = join(__dirname, ".pulumi-state");
  if (!process.env.PULUMI_BACKEND_URL) mkdirSync(localState, { recursive: true });
  return {
    stackName: process.env.STACK ?? "platform",
    projectName: "platform-run-tasks", // as in Pulumi.yaml
    backendUrl: process.env.PULUMI_BACKEND_URL ?? `file://${localState}`,
    passphrase: env("PULUMI_CONFIG_PASSPHRASE"),
    programDir: __dirname, // the provider plugin runs here and finds the package in ./node_modules
    description: platformDescription(workspaceIds()),
    credentials: {
      snapshot: { address: env("SERVICE_ADDR"), token: env("SERVICE_TOKEN") },
      runTask: { address: env("RUNTASK_ADDR"), token: env("RUNTASK_TOKEN"), organization: env("RUNTASK_ORGANIZATION") },
    },
    onEvent: (event) => {
      const line = describeEngineEvent(event);
      if (line) console.log(line);
    },
  };
}

async function main(command: string): Promise<void> {
  const options = stackOptions();
  if (command === "preview") {
    const { changes } = await previewProvisioning(options);
    console.log("planned:", changes);
  } else if (command === "destroy") {
    await destroyProvisioning({ ...options, removeStack: true });
  } else {
    const { outputs, changes } = await provision(options);
    console.log("changes:", changes);
    for (const [name, a] of Object.entries(outputs.attachments)) console.log(`${name}: ${a.id} (${a.enforcementLevel}, ${a.stages.join(", ")})`);
  }
}

main(process.argv[2] ?? "up").catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
