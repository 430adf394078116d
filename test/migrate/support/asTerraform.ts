import { execFileSync, spawn } from "node:child_process";
import { copyFileSync, cpSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_SNAPSHOT_TOKEN, type Emulator } from "../../../emulator";
import { RUNTASK_TOKEN } from "../../support/emulatorStack";

const JSON_API = "application/vnd.api+json";

/**
 * Objects made at the emulator over its HTTP API as the Terraform providers make them (hashicorp/tfe: a task's POST
 * with its key, the global settings' PATCH, an association's POST; hashicorp/vault: a configuration's write), and
 * the ids they got, for a hand-written state of that Terraform workspace to name.
 */
export class AsTerraform {
  /** Ids by the fixture's names: `task:scanner`, `wstask:scanner-app`, `ws:app`. */
  readonly ids: Record<string, string> = {};

  constructor(readonly emulator: Emulator) {
    for (const ws of ["app", "web"]) this.ids[`ws:${ws}`] = emulator.runTask.workspace(ws, "acme").id;
  }

  private async call(method: string, path: string, body: unknown): Promise<any> {
    const res = await fetch(`${this.emulator.url}/api/v2${path}`, {
      method,
      headers: { authorization: `Bearer ${RUNTASK_TOKEN}`, "content-type": JSON_API },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    const text = await res.text();
    return text ? JSON.parse(text) : undefined;
  }

  /** `tfe_organization_run_task`: a POST with every attribute, the key as `hmac-key`. */
  async task(name: string, attributes: { name: string; url: string; description?: string; enabled?: boolean; hmacKey?: string }): Promise<string> {
    const { hmacKey, ...rest } = attributes;
    const made = await this.call("POST", "/organizations/acme/tasks", {
      data: { type: "tasks", attributes: { category: "task", description: "", enabled: true, ...rest, ...(hmacKey ? { "hmac-key": hmacKey } : {}) } },
    });
    return (this.ids[`task:${name}`] = made.data.id);
  }

  /** `tfe_organization_run_task_global_settings`: a PATCH of the task's `global-configuration`. */
  async globalSettings(task: string, global: { enabled: boolean; stages: string[]; enforcementLevel: string }): Promise<void> {
    await this.call("PATCH", `/tasks/${this.ids[`task:${task}`]}`, {
      data: {
        type: "tasks",
        attributes: { "global-configuration": { enabled: global.enabled, stages: global.stages, "enforcement-level": global.enforcementLevel } },
      },
    });
  }

  /** `tfe_workspace_run_task`: a POST to the workspace's tasks, then its id from the workspace's list. */
  async attach(name: string, task: string, ws: string, attributes: { enforcementLevel: string; stages?: string[]; stage?: string }): Promise<string> {
    const taskId = this.ids[`task:${task}`];
    const { enforcementLevel, ...stages } = attributes;
    await this.call("POST", `/workspaces/${this.ids[`ws:${ws}`]}/tasks`, {
      data: {
        type: "workspace-tasks",
        attributes: { "enforcement-level": enforcementLevel, ...stages },
        relationships: { task: { data: { id: taskId, type: "tasks" } } },
      },
    });
    const listed = this.emulator.runTask.workspaceTasks({ workspaceId: this.ids[`ws:${ws}`], taskId });
    return (this.ids[`wstask:${name}`] = listed[0].id);
  }

  /** `vault_raft_snapshot_agent_config`: a write of the configuration (the spec's wire names). */
  async config(name: string, body: Record<string, unknown>): Promise<void> {
    const res = await fetch(`${this.emulator.url}/v1/sys/storage/raft/snapshot-auto/config/${name}`, {
      method: "POST",
      headers: { "X-Service-Token": DEFAULT_SNAPSHOT_TOKEN, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`POST config/${name}: ${res.status} ${await res.text()}`);
  }

  /** The fixture `file` with its placeholders filled: `{{task:x}}` and the like by id, `{{secret:x}}` by `secrets[x]`. */
  state(file: string, secrets: Record<string, string>): string {
    return readFileSync(join(__dirname, "../fixtures", file), "utf8").replace(
      /\{\{([a-z]+):([^}]+)\}\}/g,
      (placeholder, kind: string, name: string) => {
        const value = kind === "secret" ? secrets[name] : this.ids[`${kind}:${name}`];
        if (value === undefined) throw new Error(`the fixture ${file} names ${placeholder}, which the test did not make`);
        // Inside a JSON string: a service account key (a JSON document) keeps its quotes escaped.
        return JSON.stringify(value).slice(1, -1);
      },
    );
  }
}

/** What a run of the command printed, and its exit status. */
export interface CommandRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** `pulumi-snapshot-runtask <args>` as the consumer project's `node_modules/.bin` links it, `input` on its standard input. */
export function runCommand(bin: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; input?: string }): Promise<CommandRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: options.cwd, env: options.env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr }));
    child.stdin.end(options.input ?? "");
  });
}

/**
 * The provider plugins' Node.js SDKs (plugin/sdks/nodejs) installed into `projectDir/node_modules` as `npm install
 * --install-links` of their folders does, offline: each copied and compiled by its own postinstall (`tsc`, with the
 * TypeScript and @types/node the project has).
 */
export function installPluginSdks(projectDir: string, repo: string): void {
  for (const name of ["runtask", "snapshot"]) {
    const dir = join(projectDir, "node_modules", `pulumi-snapshot-runtask-${name}`);
    cpSync(join(repo, "plugin/sdks/nodejs", name), dir, { recursive: true, filter: (from) => !/[/\\](node_modules|bin)$/.test(from) });
    execFileSync(process.execPath, [join(projectDir, "node_modules/typescript/bin/tsc"), "--types", "node"], { cwd: dir });
    copyFileSync(join(dir, "package.json"), join(dir, "bin/package.json"));
  }
}
