import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { repositoryRoot } from "../../toolchain/repository";

/** One request the emulator served, as its `--verbose` line gives it. */
export interface ServedRequest {
  method: string;
  path: string;
  status: string;
}

/** What the services hold, read through their own endpoints. */
export interface ServiceHoldings {
  /** The organization's run tasks: name, id, description. */
  tasks: { id: string; name: string; description?: string }[];
  /** The associations of each workspace, by the workspace's name. */
  workspaceTasks: Record<string, { id: string; taskId: string; enforcementLevel: string }[]>;
  /** The names of the snapshot configurations. */
  configs: string[];
}

/**
 * The emulator as a service of its own, in a process of its own (`pulumi-snapshot-runtask-emulator --json --verbose`,
 * the package's command), as a real service is to the plugins: what it served is read from its request log, and what
 * it holds through the specs' endpoints, as any client reads it.
 */
export class EmulatorCommand {
  private served: ServedRequest[] = [];

  private constructor(
    private readonly child: ChildProcess,
    readonly env: Record<string, string>,
    /** The seeded workspaces' ids by name. */
    readonly workspaces: Record<string, string>,
  ) {
    createInterface({ input: child.stderr! }).on("line", (line) => {
      const m = /^(\S+) (\S+) (\S+) \(/.exec(line);
      if (m) this.served.push({ method: m[1], path: m[2], status: m[3] });
    });
  }

  /** Starts it with `args` (`--organization acme --workspace app ...`); resolves once it printed its environment. */
  static async start(args: string[]): Promise<EmulatorCommand> {
    const cli = join(repositoryRoot(), "dist/emulator/cli.js");
    const child = spawn(process.execPath, [cli, "--json", "--verbose", "--no-snapshots", ...args], { stdio: ["ignore", "pipe", "pipe"] });
    const first = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once("line", resolve);
      child.once("exit", (code) => reject(new Error(`the emulator exited (${code}) before it printed its environment`)));
    });
    const report = JSON.parse(first) as { env: Record<string, string>; workspaces: { name: string; id: string }[] };
    return new EmulatorCommand(child, report.env, Object.fromEntries(report.workspaces.map((w) => [w.name, w.id])));
  }

  get url(): string {
    return this.env.RUNTASK_ADDR;
  }

  /** The stack config that points both packages at it. */
  stackConfig(): Record<string, string> {
    return {
      "runtask:address": this.env.RUNTASK_ADDR,
      "runtask:token": this.env.RUNTASK_TOKEN,
      "runtask:organization": this.env.RUNTASK_ORGANIZATION,
      "snapshot:address": this.env.SERVICE_ADDR,
      "snapshot:token": this.env.SERVICE_TOKEN,
    };
  }

  /** The requests served since the last reset. */
  requests(): ServedRequest[] {
    return [...this.served];
  }

  /** The requests since the last reset that change something (every method but GET and LIST). */
  writes(): ServedRequest[] {
    return this.served.filter((r) => r.method !== "GET" && r.method !== "LIST");
  }

  /** Forgets the requests served so far, once the log has caught up with what was sent before. */
  async resetRequests(): Promise<void> {
    await new Promise((r) => setTimeout(r, 100));
    this.served = [];
  }

  /** What the services hold now (the requests this makes are left out of the log). */
  async holdings(): Promise<ServiceHoldings> {
    const before = this.served.length;
    const runTask = { authorization: `Bearer ${this.env.RUNTASK_TOKEN}` };
    const org = this.env.RUNTASK_ORGANIZATION;
    const tasks = (await this.json("GET", `/api/v2/organizations/${org}/tasks?page%5Bsize%5D=100`, runTask)).data.map((t: any) => ({
      id: t.id,
      name: t.attributes.name,
      description: t.attributes.description ?? undefined,
    }));
    const workspaceTasks: ServiceHoldings["workspaceTasks"] = {};
    for (const [name, id] of Object.entries(this.workspaces)) {
      workspaceTasks[name] = (await this.json("GET", `/api/v2/workspaces/${id}/tasks?page%5Bsize%5D=100`, runTask)).data.map((a: any) => ({
        id: a.id,
        taskId: a.relationships.task.data.id,
        enforcementLevel: a.attributes["enforcement-level"],
      }));
    }
    const list = await fetch(`${this.env.SERVICE_ADDR}/v1/sys/storage/raft/snapshot-auto/config`, {
      method: "LIST",
      headers: { "x-service-token": this.env.SERVICE_TOKEN },
    });
    const configs = list.status === 404 ? [] : (((await list.json()) as { data: { keys: string[] } }).data.keys ?? []);
    await this.forgetOwnRequests(before, 2 + Object.keys(this.workspaces).length);
    return { tasks, workspaceTasks, configs };
  }

  /** Makes a run task at the service, as someone outside Pulumi does; returns its id. */
  async createTask(name: string, url: string): Promise<string> {
    const before = this.served.length;
    const body = { data: { type: "tasks", attributes: { name, url, category: "task" } } };
    const made = await this.json(
      "POST",
      `/api/v2/organizations/${this.env.RUNTASK_ORGANIZATION}/tasks`,
      { authorization: `Bearer ${this.env.RUNTASK_TOKEN}` },
      body,
    );
    await this.forgetOwnRequests(before, 1);
    return made.data.id;
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once("exit", resolve));
    this.child.kill("SIGTERM");
    await exited;
  }

  private async json(method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<any> {
    const res = await fetch(`${this.env.RUNTASK_ADDR}${path}`, {
      method,
      headers: { ...headers, ...(body ? { "content-type": "application/vnd.api+json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!res.ok) throw new Error(`${method} ${path}: HTTP ${res.status} ${await res.text()}`);
    return res.json();
  }

  /** Drops from the log the `n` requests this helper made after the log held `before`, once they are in it. */
  private async forgetOwnRequests(before: number, n: number): Promise<void> {
    const deadline = Date.now() + 5000;
    while (this.served.length < before + n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    this.served.splice(before, n);
  }
}
