import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { LocalWorkspace } from "@pulumi/pulumi/automation";
import { describeEngineEvent } from "../automation/progress";
import type { Deployment, DeploymentContext } from "./deployment";

/** The stack in the Pulumi engine, through the Automation API and the `pulumi` CLI, with a temporary file backend. */
export async function automationDeployment(ctx: DeploymentContext): Promise<Deployment> {
  const backend = join(ctx.work, "state");
  mkdirSync(backend, { recursive: true });
  const passphrase = randomBytes(18).toString("base64url");
  const pulumiHome = join(ctx.work, "pulumi-home");
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName: ctx.stack, workDir: ctx.project.dir },
    {
      pulumiHome,
      envVars: {
        // A variable the run unsets is blank here, which the provider reads as unset.
        ...Object.fromEntries(Object.entries(ctx.env).map(([k, v]) => [k, v ?? ""])),
        PULUMI_BACKEND_URL: pathToFileURL(backend).href,
        PULUMI_CONFIG_PASSPHRASE: passphrase,
        PULUMI_SKIP_UPDATE_CHECK: "true",
      },
    },
  );
  await stack.setAllConfig(ctx.config);
  const progress = {
    onEvent: (event: Parameters<typeof describeEngineEvent>[0]) => {
      const line = describeEngineEvent(event);
      if (line) ctx.say(`  ${line}`);
    },
    onOutput: ctx.verbose ? (text: string) => process.stdout.write(text) : undefined,
  };
  return {
    describe: () => [`  backend: ${pathToFileURL(backend).href} (temporary), secrets passphrase: generated`],
    preview: async () => (await stack.preview(progress)).changeSummary,
    up: async () => {
      const result = await stack.up(progress);
      return { changes: result.summary.resourceChanges ?? {}, outputs: result.outputs };
    },
    destroy: async () => (await stack.destroy(progress)).summary.resourceChanges ?? {},
    removeStack: () => stack.workspace.removeStack(ctx.stack),
    // The engine's file backend keeps the stack's secrets encrypted with the passphrase.
    keep: async () => [
      `  cd ${ctx.project.dir}`,
      `  export PULUMI_BACKEND_URL=${pathToFileURL(backend).href} PULUMI_CONFIG_PASSPHRASE=${passphrase} PULUMI_HOME=${pulumiHome}`,
      `  pulumi stack output --stack ${ctx.stack} && pulumi stack export --stack ${ctx.stack}`,
    ],
  };
}
