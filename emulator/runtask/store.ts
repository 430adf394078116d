import { newId, workspaceIdFor } from "./ids";

export const STAGES = ["pre_plan", "post_plan", "pre_apply", "post_apply"] as const;
export const ENFORCEMENT_LEVELS = ["advisory", "mandatory"] as const;

export interface Workspace {
  id: string;
  name: string;
  organization: string;
}

export interface Organization {
  name: string;
  /** Whether the organization has the global run tasks feature; without it `global-configuration` is absent. */
  globalRunTasks: boolean;
}

export interface GlobalConfiguration {
  enabled: boolean;
  stages: string[];
  enforcementLevel: string | null;
}

export interface Task {
  id: string;
  organization: string;
  name: string;
  url: string;
  description: string | null;
  category: string;
  /** Held by the service, never returned. */
  hmacKey: string | null;
  enabled: boolean;
  global: GlobalConfiguration;
  createdAt: string;
}

export interface WorkspaceTask {
  id: string;
  workspaceId: string;
  taskId: string;
  enforcementLevel: string;
  stages: string[];
}

export interface OrganizationSeed {
  name: string;
  /** Default true. */
  globalRunTasks?: boolean;
  workspaces?: { id?: string; name: string }[];
}

export const DEFAULT_ORGANIZATION = "emulator-org";
export const DEFAULT_WORKSPACES = ["app-production", "app-staging", "network"];

/** What the run task half holds. Insertion order is list order, as on the service (oldest first). */
export class RunTaskStore {
  readonly organizations = new Map<string, Organization>();
  readonly workspaces = new Map<string, Workspace>();
  readonly tasks = new Map<string, Task>();
  readonly workspaceTasks = new Map<string, WorkspaceTask>();
  /** When each task and association was made (epoch milliseconds), for lists that lag behind writes. */
  readonly madeAt = new Map<string, number>();

  constructor(seeds: OrganizationSeed[]) {
    for (const seed of seeds) {
      this.addOrganization(seed.name, seed.globalRunTasks ?? true);
      for (const ws of seed.workspaces ?? []) this.addWorkspace(seed.name, ws.name, ws.id);
    }
  }

  addOrganization(name: string, globalRunTasks = true): Organization {
    if (this.organizations.has(name)) throw new Error(`organization "${name}" exists already`);
    const org = { name, globalRunTasks };
    this.organizations.set(name, org);
    return org;
  }

  /** A new workspace; its id is derived from the names unless given, and must start with `ws-`. */
  addWorkspace(organization: string, name: string, id = workspaceIdFor(organization, name)): Workspace {
    if (!this.organizations.has(organization)) throw new Error(`no organization "${organization}"`);
    if (!id.startsWith("ws-")) throw new Error(`workspace id "${id}" must start with "ws-"`);
    if (this.workspaceByName(organization, name)) throw new Error(`workspace "${name}" exists already in "${organization}"`);
    if (this.workspaces.has(id)) throw new Error(`workspace id "${id}" is taken`);
    const ws = { id, name, organization };
    this.workspaces.set(id, ws);
    return ws;
  }

  /** Deletes a workspace, and its associations with it, as the service does. */
  deleteWorkspace(id: string): void {
    this.workspaces.delete(id);
    for (const [wid, wt] of this.workspaceTasks) if (wt.workspaceId === id) this.workspaceTasks.delete(wid);
  }

  /** Deletes an organization with its workspaces and tasks (and so every association of them). */
  deleteOrganization(name: string): void {
    for (const ws of [...this.workspaces.values()]) if (ws.organization === name) this.deleteWorkspace(ws.id);
    for (const task of this.tasksOf(name)) this.deleteTask(task.id);
    this.organizations.delete(name);
  }

  workspaceByName(organization: string, name: string): Workspace | undefined {
    return [...this.workspaces.values()].find((w) => w.organization === organization && w.name === name);
  }

  addTask(fields: Omit<Task, "id" | "createdAt">): Task {
    const task = { ...fields, id: newId("task"), createdAt: new Date().toISOString() };
    this.tasks.set(task.id, task);
    this.madeAt.set(task.id, Date.now());
    return task;
  }

  /** A new task listed ahead of every other (as by another client, in a list that shows the newest first). */
  addTaskFirst(fields: Omit<Task, "id" | "createdAt">): Task {
    const task = this.addTask(fields);
    putFirst(this.tasks, task.id);
    return task;
  }

  tasksOf(organization: string): Task[] {
    return [...this.tasks.values()].filter((t) => t.organization === organization);
  }

  deleteTask(id: string): void {
    this.tasks.delete(id);
    this.madeAt.delete(id);
    for (const [wid, wt] of this.workspaceTasks) if (wt.taskId === id) this.workspaceTasks.delete(wid);
  }

  addWorkspaceTask(fields: Omit<WorkspaceTask, "id">): WorkspaceTask {
    const wt = { ...fields, id: newId("wstask") };
    this.workspaceTasks.set(wt.id, wt);
    this.madeAt.set(wt.id, Date.now());
    return wt;
  }

  /** A new association listed ahead of every other (see `addTaskFirst`). */
  addWorkspaceTaskFirst(fields: Omit<WorkspaceTask, "id">): WorkspaceTask {
    const wt = this.addWorkspaceTask(fields);
    putFirst(this.workspaceTasks, wt.id);
    return wt;
  }

  workspaceTasksOf(workspaceId: string): WorkspaceTask[] {
    return [...this.workspaceTasks.values()].filter((w) => w.workspaceId === workspaceId);
  }

  workspaceTasksOfTask(taskId: string): WorkspaceTask[] {
    return [...this.workspaceTasks.values()].filter((w) => w.taskId === taskId);
  }
}

/** Moves the entry of `key` ahead of every other: a Map lists in insertion order. */
function putFirst<T>(map: Map<string, T>, key: string): void {
  const rest = [...map].filter(([k]) => k !== key);
  const first = map.get(key)!;
  map.clear();
  map.set(key, first);
  for (const [k, v] of rest) map.set(k, v);
}
