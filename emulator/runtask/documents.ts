import type { EmulatorResponse } from "../core/router";
import { invalidParameter } from "./jsonApi";
import type { RunTaskStore, Task, Workspace, WorkspaceTask } from "./store";

export const API = "/api/v2";

export interface RenderOptions {
  /** Render `enabled` as "true"/"false", as the spec's samples do. */
  enabledAsString?: boolean;
  /** Render lists of stages in the reverse of the order they were sent in (the spec does not say the order is kept). */
  reverseStages?: boolean;
  /** The associations a task's answer may name (its relationship, its `included`); all of them by default. */
  shows?: (wt: WorkspaceTask) => boolean;
  /** The id an organization's relationship gives for its name; the name itself by default. */
  organizationId?: (name: string) => string;
  /** Render a description held as "" as null, as a service that keeps an empty description as none does. */
  emptyDescriptionAsNull?: boolean;
}

/** An organization relationship's data. */
function organizationOf(name: string, opts: RenderOptions): { id: string; type: "organizations" } {
  return { id: opts.organizationId ? opts.organizationId(name) : name, type: "organizations" };
}

/** Stages as an answer renders them. */
function renderStages(stages: string[], opts: RenderOptions): string[] {
  return opts.reverseStages ? [...stages].reverse() : [...stages];
}

/**
 * A run task resource object. `hmac-key` is always null; `global-configuration` only where the org has the
 * feature, and unless `withGlobal` is false (the show answer under `showGlobalConfiguration: false`).
 */
export function taskResource(store: RunTaskStore, task: Task, opts: RenderOptions, withGlobal = true): Record<string, unknown> {
  const attributes: Record<string, unknown> = {
    category: task.category,
    name: task.name,
    url: task.url,
    description: opts.emptyDescriptionAsNull && task.description === "" ? null : task.description,
    enabled: opts.enabledAsString ? String(task.enabled) : task.enabled,
    "hmac-key": null,
    "created-at": task.createdAt,
  };
  if (withGlobal && store.organizations.get(task.organization)?.globalRunTasks) {
    attributes["global-configuration"] = {
      enabled: task.global.enabled,
      stages: renderStages(task.global.stages, opts),
      "enforcement-level": task.global.enforcementLevel,
    };
  }
  return {
    id: task.id,
    type: "tasks",
    attributes,
    relationships: {
      organization: { data: organizationOf(task.organization, opts) },
      // The spec's documents carry `tasks` (an array whose meaning is not given; its samples leave it empty);
      // the associations are in `workspace-tasks`, as the service's API description names them.
      tasks: { data: [] },
      "workspace-tasks": { data: associationsShown(store, task, opts).map((w) => ({ id: w.id, type: "workspace-tasks" })) },
    },
    links: { self: `${API}/tasks/${task.id}` },
  };
}

export function workspaceTaskResource(wt: WorkspaceTask, opts: RenderOptions = {}): Record<string, unknown> {
  const stages = renderStages(wt.stages, opts);
  return {
    id: wt.id,
    type: "workspace-tasks",
    attributes: { "enforcement-level": wt.enforcementLevel, stage: stages[0], stages },
    relationships: {
      task: { data: { id: wt.taskId, type: "tasks" } },
      workspace: { data: { id: wt.workspaceId, type: "workspaces" } },
    },
    links: { self: `${API}/workspaces/${wt.workspaceId}/tasks/${wt.id}` },
  };
}

export function workspaceResource(ws: Workspace, opts: RenderOptions = {}): Record<string, unknown> {
  return {
    id: ws.id,
    type: "workspaces",
    attributes: { name: ws.name },
    relationships: { organization: { data: organizationOf(ws.organization, opts) } },
    links: { self: `${API}/workspaces/${ws.id}` },
  };
}

function associationsShown(store: RunTaskStore, task: Task, opts: RenderOptions): WorkspaceTask[] {
  const all = store.workspaceTasksOfTask(task.id);
  return opts.shows ? all.filter(opts.shows) : all;
}

/** The values `include` takes on the task endpoints, as the spec lists them. */
export const INCLUDES = ["workspace_tasks", "workspace_tasks.workspace"];

/**
 * The `include` of a request as a list, or a 400 error (`source.parameter` `include`) naming a value the spec
 * does not list, as JSON:API servers answer a relationship path they do not know. Its title says "include parameter",
 * as the real service's does: go-tfe reads it as `ErrInvalidIncludeValue`. Empty or absent: none.
 */
export function includeOf(query: URLSearchParams): string[] | EmulatorResponse {
  const raw = query.get("include");
  if (!raw) return [];
  const values = raw.split(",").map((s) => s.trim());
  const unknown = values.find((v) => !INCLUDES.includes(v));
  if (unknown !== undefined) {
    return invalidParameter("include", `include takes ${INCLUDES.join(", ")}, not ${JSON.stringify(unknown)}`, 400, "invalid include parameter");
  }
  return values;
}

/** `include=workspace_tasks[,workspace_tasks.workspace]`: the related objects of the given tasks. */
export function included(store: RunTaskStore, tasks: Task[], include: string[], opts: RenderOptions = {}): Record<string, unknown>[] | undefined {
  if (include.length === 0) return undefined;
  const wanted = new Set(include);
  const out: Record<string, unknown>[] = [];
  const workspaces = new Map<string, Workspace>();
  if (wanted.has("workspace_tasks") || wanted.has("workspace_tasks.workspace")) {
    for (const task of tasks) {
      for (const wt of associationsShown(store, task, opts)) {
        out.push(workspaceTaskResource(wt, opts));
        const ws = store.workspaces.get(wt.workspaceId);
        if (ws) workspaces.set(ws.id, ws);
      }
    }
  }
  if (wanted.has("workspace_tasks.workspace")) for (const ws of workspaces.values()) out.push(workspaceResource(ws, opts));
  return out;
}
