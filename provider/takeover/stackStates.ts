import { execFile, execFileSync } from "node:child_process";
import { readFileSync, readlinkSync } from "node:fs";
import { basename } from "node:path";
import { SnapshotRunTaskError } from "../common/errors";
import { runTaskTable } from "../runTask/fields";
import { snapshotAutoConfigTable } from "../snapshotAutoConfig/fields";
import type { FieldTable } from "../table/field";
import { workspaceRunTaskTable } from "../workspaceRunTask/fields";

/**
 * What the stacks of a backend hold of the package's objects, from their states (`pulumi stack export`, secrets left
 * encrypted): the evidence a takeover rests on where the service alone cannot tell whose an object is. The services
 * know nothing of stacks, and a provider is given no state but its resource's: the states are read through the
 * Pulumi CLI, as the user's own commands read them, with the user's backend and credentials (`CliStackStates`).
 */

/**
 * A create the engine began and never recorded (`pending_operations` of type `creating` in the state): the CLI was
 * stopped while the service carried it out, and the service may hold the object. The engine keeps it in the state
 * until a refresh clears it (a successful `up` keeps it too), and the next create of the resource is refused
 * "already exists" by its own object.
 */
export interface PendingCreate {
  urn: string;
  type: string;
  /** What the create was sent: the object's identity (its `name`, `organization`, ...) among it. */
  inputs: Record<string, unknown>;
}

interface ExportedState {
  resources?: { urn: string; type: string; id?: string; outputs?: Record<string, unknown> }[];
  pending_operations?: { type?: string; resource?: { urn?: string; type?: string; inputs?: Record<string, unknown> } }[];
}

/** Every pending create of an exported state (`pulumi stack export`'s `deployment`), of any resource. */
export function pendingCreates(deployment: unknown): PendingCreate[] {
  const operations = (deployment as ExportedState | undefined)?.pending_operations ?? [];
  return operations.flatMap(({ type, resource }) =>
    type === "creating" && typeof resource?.urn === "string" ? [{ urn: resource.urn, type: resource.type ?? "", inputs: resource.inputs ?? {} }] : [],
  );
}

/**
 * The pending creates whose resource the state does not record. `pulumi refresh --clear-pending-creates` drops every
 * pending create of the stack, whatever `--target` names: only where this is empty does it forget no object.
 */
export function unrecordedPendingCreates(deployment: unknown): PendingCreate[] {
  const recorded = new Set(((deployment as ExportedState | undefined)?.resources ?? []).map((r) => r.urn));
  return pendingCreates(deployment).filter((p) => !recorded.has(p.urn));
}

/**
 * What names an object at the service (the fields its table marks `identity`), by resource type, on both routes
 * (dynamic and provider plugins): the resources whose pending creates the provider can take over
 * (provider/takeover/pendingCreates.ts).
 */
const IDENTITIES: Record<string, readonly string[]> = Object.fromEntries(
  (
    [
      ["snapshot", snapshotAutoConfigTable],
      ["runtask", runTaskTable],
      ["runtask", workspaceRunTaskTable],
    ] as const
  ).flatMap(([pkg, table]) => {
    const identity = Object.entries(table.fields as FieldTable)
      .filter(([, field]) => field.identity)
      .map(([key]) => key);
    return [
      [`pulumi-nodejs:dynamic/${pkg}:${table.resource}`, identity],
      [`${pkg}:index:${table.resource}`, identity],
    ];
  }),
);

/** Whether a resource type is one of the package's (either route). */
export function isPackageType(type: string): boolean {
  return type in IDENTITIES;
}

/** Whether the create is of one of the package's resources, whose object the provider can take over. */
export function adoptable(create: PendingCreate): boolean {
  return isPackageType(create.type);
}

/**
 * What in an exported state holds an object of `type` (either route): a resource that records it, by its service id
 * (`id`: a configuration's name, a `task-` id, a `wstask-` id; a resource's id is that, or `<workspace-id>/<wstask-id>`),
 * or where the id is not known, by the fields of its identity (`inputs`: those its table marks `identity`, compared
 * where both give them); else a create of that identity pending (`creating`), which that stack's next `up` takes over.
 */
export function holderIn(
  deployment: unknown,
  object: { type: string; id?: string; inputs?: Record<string, unknown> },
): { urn: string; how: "recorded" | "creating" } | undefined {
  const state = (deployment as ExportedState | undefined) ?? {};
  const keys = IDENTITIES[object.type] ?? [];
  const sameIdentity = (values: Record<string, unknown> | undefined) =>
    object.inputs !== undefined && keys.every((k) => object.inputs?.[k] === undefined || values?.[k] === undefined || object.inputs[k] === values[k]);
  const recorded = (state.resources ?? []).find(
    (r) =>
      sameKind(r.type, object.type) &&
      (object.id !== undefined ? r.id === object.id || r.id?.endsWith(`/${object.id}`) === true : sameIdentity(r.outputs)),
  );
  if (recorded) return { urn: recorded.urn, how: "recorded" };
  const creating = pendingCreates(deployment).find((p) => sameKind(p.type, object.type) && sameIdentity(p.inputs));
  return creating && { urn: creating.urn, how: "creating" };
}

/** Whether two resource types are one kind of object: the same resource, through the dynamic provider or the plugins. */
function sameKind(a: string, b: string): boolean {
  return a in IDENTITIES && b in IDENTITIES && a.slice(a.lastIndexOf(":")) === b.slice(b.lastIndexOf(":"));
}

/**
 * The resources of an exported state that hold the object of `type` with the service id `id` (a configuration's name,
 * a `task-` id, a `wstask-` id): their URNs. A resource's id is the object's, or `<workspace-id>/<wstask-id>` for an
 * association imported so.
 */
export function holdersOfId(type: string, id: string, deployment: unknown): string[] {
  const resources = (deployment as ExportedState | undefined)?.resources ?? [];
  return resources.filter((r) => sameKind(r.type, type) && (r.id === id || r.id?.endsWith(`/${id}`) === true)).map((r) => r.urn);
}

/** The stacks of a backend and their states, as the Pulumi CLI reads them. */
export interface StackStates {
  /** Every stack of the backend, by the names `export` takes. */
  list(): Promise<string[]>;
  /** The stack's state (`deployment` of `pulumi stack export`), secrets still encrypted. */
  export(stack: string): Promise<unknown>;
}

/** An object of the package, as the states name it: its resource type (either route), its service id, its identity. */
export interface StateObject {
  type: string;
  id: string;
  /** The fields of its identity (a create's inputs), by which another stack's pending create of it is told. */
  inputs?: Record<string, unknown>;
}

/** Stacks of the backend read at most for one question: each read is a CLI run. */
export const STACKS_READ_AT_MOST = 50;

/**
 * What of the backend's stacks other than `except` (a stack's name as the URN gives it, and its project) holds the
 * object (`holderIn`), and the stacks whose states could not be read (or were not, past `STACKS_READ_AT_MOST`); the
 * stacks of `except`'s project first (those whose programs most often give the same names), and told apart in
 * `unreadOfProject`.
 */
export async function otherStacksHolding(
  states: StackStates,
  object: StateObject,
  except?: { stack: string; project: string },
): Promise<{ holders: { stack: string; urn: string; how: "recorded" | "creating" }[]; unread: string[]; unreadOfProject: string[] }> {
  const listed = (await states.list()).filter((name) => !except || !(name === except.stack || name.endsWith(`/${except.project}/${except.stack}`)));
  // Listed in a project's folder, its own stacks may go by their names alone.
  const ofProject = (name: string) => except !== undefined && (!name.includes("/") || name.split("/").at(-2) === except.project);
  const others = [...listed.filter(ofProject), ...listed.filter((name) => !ofProject(name))];
  const holders: { stack: string; urn: string; how: "recorded" | "creating" }[] = [];
  const unread = others.slice(STACKS_READ_AT_MOST);
  const queue = others.slice(0, STACKS_READ_AT_MOST);
  // A few CLI runs at a time: each is a process of its own.
  const reader = async () => {
    for (let stack = queue.shift(); stack !== undefined; stack = queue.shift()) {
      const deployment = await states.export(stack).catch(() => undefined);
      if (deployment === undefined) unread.push(stack);
      else {
        const holder = holderIn(deployment, object);
        if (holder) holders.push({ stack, ...holder });
      }
    }
  };
  await Promise.all(Array.from({ length: 4 }, reader));
  return { holders, unread, unreadOfProject: unread.filter(ofProject) };
}

/** The stack and project a URN names (`urn:pulumi:<stack>::<project>::...`). */
export function stackOfUrn(urn: string): { stack: string; project: string } {
  const [stack, project] = urn.slice("urn:pulumi:".length).split("::");
  return { stack: stack ?? "", project: project ?? "" };
}

/**
 * Stacks read through a Pulumi CLI run in `cwd` (a project's folder: its stacks are named there as the user names
 * them) with `env` (the backend, its credentials, the passphrase). No update check, no prompt; a bound on each run.
 */
export class CliStackStates implements StackStates {
  constructor(
    private readonly cli: string,
    private readonly cwd: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly timeoutMs = 60_000,
  ) {}

  async list(): Promise<string[]> {
    const listed = JSON.parse(await this.run(["stack", "ls", "--all", "--json"])) as { name?: unknown }[];
    return listed.flatMap((s) => (typeof s.name === "string" ? [s.name] : []));
  }

  async export(stack: string): Promise<unknown> {
    return (JSON.parse(await this.run(["stack", "export", "--stack", stack])) as { deployment?: unknown }).deployment;
  }

  private run(args: string[]): Promise<string> {
    return new Promise((resolve, reject) => {
      execFile(
        this.cli,
        ["--non-interactive", ...args],
        { cwd: this.cwd, env: { ...this.env, PULUMI_SKIP_UPDATE_CHECK: "true" }, timeout: this.timeoutMs, maxBuffer: 1024 * 1024 * 1024 },
        (err, stdout, stderr) =>
          err
            ? reject(new SnapshotRunTaskError("unexpected_answer", `${basename(this.cli)} ${args.join(" ")}: ${stderr.trim() || err.message}`))
            : resolve(stdout),
      );
    });
  }
}

/**
 * The Pulumi CLI that runs the engine this process serves: the nearest `pulumi` among its ancestors (a provider
 * plugin's parent is the CLI; the dynamic provider plugin's, a shell script the CLI started), so that its states are
 * read by the very CLI, and version, the user runs. Undefined where it cannot be told (no process table to read).
 */
export function engineCli(): string | undefined {
  let pid = process.ppid;
  for (let depth = 0; depth < 8 && pid > 1; depth++) {
    const info = processInfo(pid);
    if (!info) return undefined;
    if (/^pulumi(\.exe)?$/.test(basename(info.executable))) return info.executable;
    pid = info.parent;
  }
  return undefined;
}

/** A process's executable and parent: from /proc (Linux), else from `ps` (macOS). */
function processInfo(pid: number): { executable: string; parent: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command's name may hold spaces and parentheses: the fields after its closing one are the state, the parent.
    const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    return { executable: readlinkSync(`/proc/${pid}/exe`), parent };
  } catch {
    try {
      const [parent, ...command] = execFileSync("ps", ["-o", "ppid=,comm=", "-p", String(pid)], { encoding: "utf8" })
        .trim()
        .split(/\s+/);
      return { executable: command.join(" "), parent: Number(parent) };
    } catch {
      return undefined;
    }
  }
}
