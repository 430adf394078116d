import type { RunTaskHttp } from "./client";
import { readString, readStringList, relatedId, resourceOf, type ResourceObject } from "./jsonApi";

/** An association of a run task to a workspace. */
export interface WorkspaceTaskRecord {
  id: string;
  workspaceId: string;
  taskId: string;
  enforcementLevel: string;
  stages: string[];
}

export interface WorkspaceTaskAttributes {
  enforcementLevel?: string;
  stages?: string[];
}

export function readWorkspaceTask(resource: ResourceObject, workspaceId: string): WorkspaceTaskRecord {
  const a = resource.attributes;
  const stage = readString(a.stage);
  return {
    id: resource.id,
    workspaceId: relatedId(resource, "workspace") ?? workspaceId,
    taskId: relatedId(resource, "task") ?? "",
    enforcementLevel: readString(a["enforcement-level"]) ?? "",
    // Older servers know only the single `stage`.
    stages: readStringList(a.stages) ?? (stage ? [stage] : []),
  };
}

function body(attrs: WorkspaceTaskAttributes, taskId?: string): object {
  const attributes: Record<string, unknown> = {};
  if (attrs.enforcementLevel !== undefined) attributes["enforcement-level"] = attrs.enforcementLevel;
  if (attrs.stages !== undefined) attributes.stages = attrs.stages;
  const data: Record<string, unknown> = { type: "workspace-tasks", attributes };
  if (taskId !== undefined) data.relationships = { task: { data: { id: taskId, type: "tasks" } } };
  return { data };
}

const segment = encodeURIComponent;

/** The workspace run task endpoints: `/workspaces/:workspace_id/tasks[/:id]`. */
export class WorkspaceTasks {
  constructor(private readonly http: RunTaskHttp) {}

  /**
   * Associates the task. The service answers 201/200 with the new association, or 204 with no body; then the
   * association is found by listing the workspace's tasks.
   */
  async associate(workspaceId: string, taskId: string, attrs: WorkspaceTaskAttributes): Promise<WorkspaceTaskRecord> {
    const res = await this.http.request("POST", `/workspaces/${segment(workspaceId)}/tasks`, { json: body(attrs, taskId) });
    const resource = resourceOf(res.body);
    if (resource) return readWorkspaceTask(resource, workspaceId);
    const found = await this.findByTask(workspaceId, taskId);
    if (!found) throw new Error(`run task service: task ${taskId} was associated to workspace ${workspaceId}, but the association is not listed`);
    return found;
  }

  async list(workspaceId: string): Promise<WorkspaceTaskRecord[]> {
    return (await this.http.listAll(`/workspaces/${segment(workspaceId)}/tasks`)).map((r) => readWorkspaceTask(r, workspaceId));
  }

  async show(workspaceId: string, id: string): Promise<WorkspaceTaskRecord | undefined> {
    const res = await this.http.request("GET", `/workspaces/${segment(workspaceId)}/tasks/${segment(id)}`, { allowStatus: [404] });
    const resource = res.status === 404 ? undefined : resourceOf(res.body);
    return resource && readWorkspaceTask(resource, workspaceId);
  }

  async update(workspaceId: string, id: string, attrs: WorkspaceTaskAttributes): Promise<WorkspaceTaskRecord> {
    const res = await this.http.request("PATCH", `/workspaces/${segment(workspaceId)}/tasks/${segment(id)}`, { json: body(attrs) });
    const resource = resourceOf(res.body);
    if (!resource) throw new Error("run task service: the update answer holds no workspace task document");
    return readWorkspaceTask(resource, workspaceId);
  }

  async delete(workspaceId: string, id: string): Promise<boolean> {
    const res = await this.http.request("DELETE", `/workspaces/${segment(workspaceId)}/tasks/${segment(id)}`, { allowStatus: [404] });
    return res.status !== 404;
  }

  /** The association of that task in the workspace, looking through every page. */
  async findByTask(workspaceId: string, taskId: string): Promise<WorkspaceTaskRecord | undefined> {
    return (await this.list(workspaceId)).find((w) => w.taskId === taskId);
  }
}
