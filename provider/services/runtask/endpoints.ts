import type { ConfigLookup } from "../../config/lookup";
import type { HttpMethod, HttpResponse, RequestOptions } from "../../http/client";
import type { ServiceError } from "../../http/serviceError";
import { providerContext } from "../../context";
import type { ClientTuning } from "../tuning";
import { RunTaskHttp, type ListResult } from "./client";
import { explainNotFound, organizationProbe, SERVICE_NOT_FOUND, workspaceProbe, type ParentProbe } from "./errors";
import { relatedId, resourceOf, type ResourceObject } from "./jsonApi";
import { resolveRunTaskSettings } from "./settings";

/** A JSON:API body to send: the resource's type, its attributes, and its relationships where it has some. */
export interface Body {
  type: "tasks" | "workspace-tasks";
  attributes: Record<string, unknown>;
  relationships?: Record<string, { data: { id: string; type: string } }>;
}

const segment = encodeURIComponent;

/** The shape of the service's ids of each type (the spec: `task-` and `wstask-` plus characters). */
const ID_PREFIXES: Record<Body["type"], string> = { tasks: "task-", "workspace-tasks": "wstask-" };

/** What an answer must be besides a document of its type: the object of that id, or one `named` accepts. */
interface Asked {
  id?: string;
  named?: (resource: ResourceObject) => boolean;
}

/**
 * Whether an associate's document is the association asked for: of its type, with an id of its shape, and, where
 * it names them, of the task and the workspace asked about.
 */
function isAssociationAsked(resource: ResourceObject, workspaceId: string, taskId: string | undefined): boolean {
  const task = relatedId(resource, "task");
  const workspace = relatedId(resource, "workspace");
  return (
    resource.type === "workspace-tasks" &&
    resource.id.startsWith(ID_PREFIXES["workspace-tasks"]) &&
    (task === undefined || task === taskId) &&
    (workspace === undefined || workspace === workspaceId)
  );
}

/**
 * The run task endpoints (spec: run-task-api.md, "Endpoints"): organizations' run tasks and their association
 * to workspaces. The service's 404 means "missing or not authorized". Reads and deletes answer `undefined`/false
 * for it and leave the callers to prove which of the two it is (`proofOfGone`); the other calls fail with an
 * error that says which of the object's parent and the object answered (`explainNotFound`, errors.ts). A 404
 * that is not the service's own fails at once, naming the address.
 */
export class RunTaskEndpoints {
  constructor(readonly http: RunTaskHttp) {}

  // Run tasks: /organizations/:organization_name/tasks, /tasks/:id

  /** The task made: a document of a task of the name sent (any other answer leaves whether it was made unknown). */
  createTask(organization: string, body: Body, secrets: string[]): Promise<ResourceObject> {
    const path = `/organizations/${segment(organization)}/tasks`;
    const named = (task: ResourceObject) => task.attributes.name === undefined || task.attributes.name === body.attributes.name;
    return this.expectDocument("POST", path, { json: { data: body }, secrets }, organizationProbe(organization, "create"), { named });
  }

  listTasks(organization: string, include?: string): Promise<ListResult> {
    return this.http.listAll(`/organizations/${segment(organization)}/tasks`, "tasks", { include });
  }

  /** The task and what `include` asked for; undefined on the service's 404. */
  async showTask(id: string, include?: string): Promise<{ task: ResourceObject; included: unknown } | undefined> {
    const path = `/tasks/${segment(id)}`;
    const res = await this.http.request("GET", path, { query: { include }, ...SERVICE_NOT_FOUND });
    if (res.status === 404) return undefined;
    return { task: this.documentOf("GET", path, res, "tasks", {}, { id }), included: (res.body as { included?: unknown })?.included };
  }

  /**
   * As `showTask`, with the task's global settings where its show leaves `global-configuration` out (the spec's
   * show sample does): from its item in the list of its `organization` (by name: the paths take names, and the
   * relationship's id may not be one), whose answers carry them. Unchanged where the list has none either (an
   * organization without the global run tasks feature).
   */
  async showTaskWithGlobal(id: string, organization: string, include?: string): Promise<{ task: ResourceObject; included: unknown } | undefined> {
    const found = await this.showTask(id, include);
    if (!found || found.task.attributes["global-configuration"] !== undefined) return found;
    const listed = (await this.listTasks(organization)).items.find((t) => t.id === id)?.attributes["global-configuration"];
    if (listed === undefined) return found;
    return { ...found, task: withGlobalOf(found.task, listed) };
  }

  /** `organization`, where known, is probed after a 404 to tell a missing organization from a missing task. */
  updateTask(id: string, body: Body, secrets: string[], organization?: string): Promise<ResourceObject> {
    const probe = organization ? organizationProbe(organization, "update", id) : undefined;
    return this.expectDocument("PATCH", `/tasks/${segment(id)}`, { json: { data: body }, secrets }, probe, { id });
  }

  /** False on the service's 404. */
  async deleteTask(id: string): Promise<boolean> {
    const res = await this.http.request("DELETE", `/tasks/${segment(id)}`, SERVICE_NOT_FOUND);
    return res.status !== 404;
  }

  // Workspace run tasks: /workspaces/:workspace_id/tasks[/:id]

  /**
   * The association's document, or undefined when the service answers 204 with no body (the spec's status) or with a
   * document that is not the association asked for (another type, an id of another shape, another task or workspace):
   * the association is then looked up, as after a lost answer.
   */
  async associate(workspaceId: string, body: Body): Promise<ResourceObject | undefined> {
    const path = `/workspaces/${segment(workspaceId)}/tasks`;
    const opts = { json: { data: body }, ...SERVICE_NOT_FOUND };
    const res = await this.http.request("POST", path, opts);
    if (res.status === 404) {
      const probe = workspaceProbe(workspaceId, "associate", body.relationships?.task?.data.id);
      throw await this.explained(this.http.failure("POST", path, res, opts), probe);
    }
    const resource = resourceOf(res.body);
    const task = body.relationships?.task?.data.id;
    return resource && isAssociationAsked(resource, workspaceId, task) ? resource : undefined;
  }

  listWorkspaceTasks(workspaceId: string): Promise<ListResult> {
    return this.http.listAll(`/workspaces/${segment(workspaceId)}/tasks`, "workspace-tasks");
  }

  async showWorkspaceTask(workspaceId: string, id: string): Promise<ResourceObject | undefined> {
    const path = `/workspaces/${segment(workspaceId)}/tasks/${segment(id)}`;
    const res = await this.http.request("GET", path, SERVICE_NOT_FOUND);
    return res.status === 404 ? undefined : this.documentOf("GET", path, res, "workspace-tasks", {}, { id });
  }

  updateWorkspaceTask(workspaceId: string, id: string, body: Body): Promise<ResourceObject> {
    const path = `/workspaces/${segment(workspaceId)}/tasks/${segment(id)}`;
    const probe = workspaceProbe(workspaceId, "update", body.relationships?.task?.data.id, id);
    return this.expectDocument("PATCH", path, { json: { data: body } }, probe, { id });
  }

  /** False on the service's 404. */
  async deleteWorkspaceTask(workspaceId: string, id: string): Promise<boolean> {
    const res = await this.http.request("DELETE", `/workspaces/${segment(workspaceId)}/tasks/${segment(id)}`, SERVICE_NOT_FOUND);
    return res.status !== 404;
  }

  /** The document a call answers; after the service's 404, an error that says which part answered it. */
  private async expectDocument(
    method: "POST" | "PATCH",
    path: string,
    request: { json: { data: Body }; secrets?: string[] },
    probe: ParentProbe | undefined,
    asked: Asked = {},
  ): Promise<ResourceObject> {
    const opts = { ...request, ...SERVICE_NOT_FOUND };
    const res = await this.http.request(method, path, opts);
    if (res.status !== 404) return this.documentOf(method, path, res, request.json.data.type, opts, asked);
    const failure = this.http.failure(method, path, res, opts);
    throw probe ? await this.explained(failure, probe) : failure;
  }

  /** A call's 404, explained by asking the parent's list (`explainNotFound`). */
  private explained(failure: ServiceError, probe: ParentProbe): Promise<ServiceError> {
    return explainNotFound(failure, probe, (parentPath) => this.http.answers(parentPath));
  }

  /**
   * The resource of a document of `type` that is the object asked for: the id asked about, else an id of the type's
   * shape, and what `asked.named` checks. Any other answer (a 204, a proxy's page, `{"data": null}`, another object)
   * is an error naming the address setting, never taken for the object; after a POST, whether it created is unknown.
   */
  private documentOf(
    method: HttpMethod,
    path: string,
    res: HttpResponse,
    type: Body["type"],
    opts: RequestOptions = {},
    asked: Asked = {},
  ): ResourceObject {
    const resource = resourceOf(res.body);
    const ofId = asked.id ?? `${ID_PREFIXES[type]}...`;
    if (
      resource?.type === type &&
      (asked.id ? resource.id === asked.id : resource.id.startsWith(ID_PREFIXES[type])) &&
      (asked.named?.(resource) ?? true)
    ) {
      return resource;
    }
    throw this.http.unexpectedAnswer(method, path, res, `a JSON:API document of type "${type}" for ${ofId}`, opts);
  }
}

/**
 * The endpoints with settings read now from `lookup` (a program's stack config), by default from the provider's
 * context (the stack config the engine handed over, and the clients' tuning).
 */
export function runTaskEndpoints(lookup: ConfigLookup = providerContext().config, tuning: ClientTuning = providerContext().tuning): RunTaskEndpoints {
  return new RunTaskEndpoints(new RunTaskHttp(resolveRunTaskSettings(lookup), tuning));
}

/** The task with `global-configuration` as `global` gives it (its organization's list item's). */
export function withGlobalOf(task: ResourceObject, global: unknown): ResourceObject {
  return { ...task, attributes: { ...task.attributes, "global-configuration": global } };
}
