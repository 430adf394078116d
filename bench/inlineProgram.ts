/**
 * One Automation API command on a stack whose program is inline, as a user's Node.js program drives the engine:
 * `node inlineProgram.js <request.json>`, run in a project folder of a consumer project (its @pulumi/pulumi and the
 * installed package are the ones loaded). It prints `@@begin` as the command starts, so that the caller measures
 * from there, and `@@result <json>` (a CommandResult) as its last line.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { NULL_PROVIDER_MODULE } from "./nullProvider";
import { childrenCpuMsOf } from "./processTree";
import { PLUGIN_TOKENS, type ResourceDescription, type Variant } from "./programs";

export interface CommandRequest {
  op: "up" | "destroy" | "refresh" | "import";
  project: string;
  stack: string;
  /** The stack's config, set before the command when given. */
  config?: Record<string, string>;
  variant: Variant;
  resources: ResourceDescription[];
  /** Options of the Automation API's command (`parallel`, ...). */
  options: Record<string, unknown>;
  /** For `import`: the objects `pulumi import` brings in, by the provider plugins' tokens (the program is not run). */
  imports?: { type: string; name: string; id: string }[];
}

export interface CommandResult {
  ok: boolean;
  error?: string;
  /** Steps by kind, as the summary counts them (the stack resource included). */
  changes: Record<string, number>;
  /** Milliseconds of the command, from the Automation API's call to its answer. */
  ms: number;
  /** CPU milliseconds of this process during the command: the program, the SDK, the Automation API. */
  ownCpuMs: number;
  /** CPU milliseconds of the processes this one waited for during the command (the CLI and what it waited for). */
  childrenCpuMs: number;
}

type Pulumi = typeof import("@pulumi/pulumi");
type Resource = import("@pulumi/pulumi").CustomResource;

/** The program: each resource made as the variant says, attachments given their task's id. */
function programOf(request: CommandRequest, requireFromProject: NodeJS.Require) {
  const pulumi = requireFromProject("@pulumi/pulumi") as Pulumi;
  const sdk = requireFromProject("pulumi-snapshot-runtask") as Record<string, new (name: string, args: object) => Resource>;
  const nullProvider = request.variant === "null" ? requireFromProject(NULL_PROVIDER_MODULE) : undefined;
  // Both classes are abstract in the SDK's types only: a program makes them as they are.
  const Custom = pulumi.CustomResource as unknown as new (type: string, name: string, args: object) => Resource;
  const Dynamic = pulumi.dynamic.Resource as unknown as new (provider: object, name: string, args: object) => Resource;
  return async () => {
    const made = new Map<string, Resource>();
    for (const r of request.resources) {
      const args = r.task ? { ...r.args, taskId: made.get(r.task)!.id } : r.args;
      let resource: Resource;
      if (request.variant === "dynamic") resource = new sdk[r.kind](r.name, args);
      else if (request.variant === "plugin") resource = new Custom(PLUGIN_TOKENS[r.kind], r.name, args);
      else resource = new Dynamic(nullProvider, r.name, { ...args, resourceName: r.name });
      made.set(r.name, resource);
    }
  };
}

async function main(): Promise<void> {
  const request = JSON.parse(readFileSync(process.argv[2], "utf8")) as CommandRequest;
  const requireFromProject = createRequire(join(process.cwd(), "package.json"));
  const { LocalWorkspace } = requireFromProject("@pulumi/pulumi/automation") as typeof import("@pulumi/pulumi/automation");
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName: request.stack, projectName: request.project, program: programOf(request, requireFromProject) },
    { workDir: process.cwd() },
  );
  if (request.config) await stack.setAllConfig(Object.fromEntries(Object.entries(request.config).map(([k, value]) => [k, { value }])));
  const result: CommandResult = { ok: true, changes: {}, ms: 0, ownCpuMs: 0, childrenCpuMs: 0 };
  process.stdout.write("@@begin\n");
  const cpu = process.cpuUsage();
  const children = childrenCpuMsOf(process.pid) ?? 0;
  const started = process.hrtime.bigint();
  try {
    const options = request.options;
    const summary =
      request.op === "up"
        ? (await stack.up(options)).summary
        : request.op === "destroy"
          ? (await stack.destroy(options)).summary
          : request.op === "import"
            ? (await stack.import({ ...options, resources: request.imports, generateCode: false, protect: false })).summary
            : (await stack.refresh(options)).summary;
    result.changes = (summary.resourceChanges ?? {}) as Record<string, number>;
  } catch (err) {
    Object.assign(result, { ok: false, error: err instanceof Error ? err.message : String(err) });
  }
  result.ms = Number(process.hrtime.bigint() - started) / 1e6;
  const used = process.cpuUsage(cpu);
  result.ownCpuMs = (used.user + used.system) / 1000;
  result.childrenCpuMs = (childrenCpuMsOf(process.pid) ?? 0) - children;
  process.stdout.write(`@@result ${JSON.stringify(result)}\n`);
}

main().catch((err: unknown) => {
  process.stdout.write(`@@result ${JSON.stringify({ ok: false, error: String(err instanceof Error ? err.stack : err), changes: {} })}\n`);
  process.exit(1);
});
