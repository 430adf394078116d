import type { ConfigLookup } from "../../config/lookup";
import { providerContext } from "../../context";
import type { ClientTuning } from "../tuning";
import { RunTaskHttp, type ListResult } from "./client";
import { resolveRunTaskSettings } from "./settings";
import { resourceOf, type ResourceObject } from "./jsonApi";

/** A JSON:API body to send: the resource's type, its attributes, and its relationships where it has some. */
export interface Body {
  type: "tasks" | "workspace-tasks";
  attributes: Record<string, unknown>;
  relationships?: Record<string, { data: { id: string; type: string } }>;
}

const segment = encodeURIComponent;

/**
 * The run task endpoints (spec: run-task-api.md, "Endpoints"): organizations' run tasks and their association
 * to workspaces. Reads answer `undefined` for a 404, which on this service means "missing or not authorized":
 * the callers decide, with `tasksAnswer`/`workspaceTasksAnswer`, which of the two it is.
 */
export class RunTaskEndpoints {
  constructor(readonly http: RunTaskHttp) {}

  // Run tasks: /organizations/:organization_name/tasks, /tasks/:id

  async createTask(organization: string, body: Body, secrets: string[]): Promise<ResourceObject> {
    const res = await this.http.request("POST", `/organizations/${segment(organization)}/tasks`, { json: { data: body }, secrets });
    return expectDocument(res.body, "create");
  }

  listTasks(organization: string, include?: string): Promise<ListResult> {
    return this.http.listAll(`/organizations/${segment(organization)}/tasks`, { include });
  }

  /** The task and what `include` asked for; undefined on 404. */
  async showTask(id: string, include?: string): Promise<{ task: ResourceObject; included: unknown } | undefined> {
    const res = await this.http.request("GET", `/tasks/${segment(id)}`, { query: { include }, allowStatus: [404] });
    if (res.status === 404) return undefined;
    return { task: expectDocument(res.body, "show"), included: (res.body as { included?: unknown })?.included };
  }

  async updateTask(id: string, body: Body, secrets: string[]): Promise<ResourceObject> {
    const res = await this.http.request("PATCH", `/tasks/${segment(id)}`, { json: { data: body }, secrets });
    return expectDocument(res.body, "update");
  }

  /** False on 404. */
  async deleteTask(id: string): Promise<boolean> {
    const res = await this.http.request("DELETE", `/tasks/${segment(id)}`, { allowStatus: [404] });
    return res.status !== 404;
  }

  /** Whether the organization's task list answers this token: then a 404 for one of its tasks means it is gone. */
  tasksAnswer(organization: string): Promise<boolean> {
    return this.http.answers(`/organizations/${segment(organization)}/tasks`);
  }

  // Workspace run tasks: /workspaces/:workspace_id/tasks[/:id]

  /** The association's document, or undefined when the service answers 204 with no body (the spec's status). */
  async associate(workspaceId: string, body: Body): Promise<ResourceObject | undefined> {
    const res = await this.http.request("POST", `/workspaces/${segment(workspaceId)}/tasks`, { json: { data: body } });
    return resourceOf(res.body);
  }

  listWorkspaceTasks(workspaceId: string): Promise<ListResult> {
    return this.http.listAll(`/workspaces/${segment(workspaceId)}/tasks`);
  }

  async showWorkspaceTask(workspaceId: string, id: string): Promise<ResourceObject | undefined> {
    const res = await this.http.request("GET", `/workspaces/${segment(workspaceId)}/tasks/${segment(id)}`, { allowStatus: [404] });
    return res.status === 404 ? undefined : expectDocument(res.body, "show");
  }

  async updateWorkspaceTask(workspaceId: string, id: string, body: Body): Promise<ResourceObject> {
    const res = await this.http.request("PATCH", `/workspaces/${segment(workspaceId)}/tasks/${segment(id)}`, { json: { data: body } });
    return expectDocument(res.body, "update");
  }

  /** False on 404. */
  async deleteWorkspaceTask(workspaceId: string, id: string): Promise<boolean> {
    const res = await this.http.request("DELETE", `/workspaces/${segment(workspaceId)}/tasks/${segment(id)}`, { allowStatus: [404] });
    return res.status !== 404;
  }

  /** Whether the workspace's task list answers this token: then a 404 for one of its associations means it is gone. */
  workspaceTasksAnswer(workspaceId: string): Promise<boolean> {
    return this.http.answers(`/workspaces/${segment(workspaceId)}/tasks`);
  }
}

function expectDocument(body: unknown, what: string): ResourceObject {
  const resource = resourceOf(body);
  if (!resource) throw new Error(`run task service: the ${what} answer holds no document`);
  return resource;
}

/**
 * The endpoints with settings read now from `lookup` (a program's stack config), by default from the provider's
 * context (the stack config the engine handed over, and the clients' tuning).
 */
export function runTaskEndpoints(lookup: ConfigLookup = providerContext().config, tuning: ClientTuning = providerContext().tuning): RunTaskEndpoints {
  return new RunTaskEndpoints(new RunTaskHttp(resolveRunTaskSettings(lookup), tuning));
}
