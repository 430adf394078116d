import { Router, type EmulatorRequest, type EmulatorResponse } from "../core/router";
import type { Mount } from "../core/server";
import { allows, bearerToken, DEFAULT_RUNTASK_TOKEN, FULL_GRANT, type Permission, type TokenGrant } from "./access";
import { API, included, taskResource, workspaceTaskResource, type RenderOptions } from "./documents";
import { document, errors, invalid, isJsonApi, notFound, unauthorized, unsupportedMediaType, type JsonApiError } from "./jsonApi";
import { paginate } from "./pagination";
import { DEFAULT_ORGANIZATION, DEFAULT_WORKSPACES, ENFORCEMENT_LEVELS, RunTaskStore, type OrganizationSeed, type Task, type Workspace, type WorkspaceTask } from "./store";
import { requestData, stageList, taskAttributes } from "./validation";

/** Seeds and behaviour of the run task half. */
export interface RunTaskEmulatorOptions {
  /**
   * Organizations with their workspaces (ids `ws-...`, derived from the names unless given). Default: one
   * organization `emulator-org`, with global run tasks, and workspaces `app-production`, `app-staging`, `network`.
   */
  organizations?: OrganizationSeed[];
  /**
   * Tokens and their permissions, per organization (see `TokenGrant`). Default: one token,
   * `emulator-runtask-token` (`DEFAULT_RUNTASK_TOKEN`), owner of every organization.
   */
  tokens?: Record<string, TokenGrant>;
  /** How the associate call answers: 201 with a document (default), or 204 with no body as the spec's table says. */
  associateResponse?: "201" | "204";
  /** Render `enabled` as the strings "true"/"false", as the spec's samples do. Default false. */
  enabledAsString?: boolean;
  /**
   * Answer 415 to a request whose body is not sent as `application/vnd.api+json`, so that clients which forget
   * the header fail here rather than against the service. Default true; false accepts any content type.
   */
  requireJsonApiContentType?: boolean;
}

export { DEFAULT_RUNTASK_TOKEN, DEFAULT_ORGANIZATION };

/** A request with a body as the service received it, for tests that assert on what a client sent. */
export interface ReceivedBody {
  method: string;
  path: string;
  body: unknown;
}

/**
 * The run task API mounted under `/api/v2`: organizations' run tasks and their association to workspaces, with
 * the spec's permissions (404 for missing and forbidden alike), JSON:API documents, pagination and 422 errors.
 * Requests with a body must be sent as `application/vnd.api+json` (415 otherwise, unless turned off); answers
 * with a body are sent as `application/vnd.api+json`. Checks run in the order: token (401), content type (415),
 * object and permission (404), body (422).
 */
export class RunTaskService {
  readonly store: RunTaskStore;
  /** Bodies of the requests that carried one, newest last (bounded). */
  readonly received: ReceivedBody[] = [];
  private readonly tokens: Record<string, TokenGrant>;
  private readonly render: RenderOptions;
  private readonly router = new Router();

  constructor(private readonly options: RunTaskEmulatorOptions = {}) {
    this.store = new RunTaskStore(
      options.organizations ?? [{ name: DEFAULT_ORGANIZATION, globalRunTasks: true, workspaces: DEFAULT_WORKSPACES.map((name) => ({ name })) }],
    );
    this.tokens = options.tokens ?? { [DEFAULT_RUNTASK_TOKEN]: FULL_GRANT };
    this.render = { enabledAsString: options.enabledAsString };
    const r = this.router;
    r.add("POST", "/organizations/:org/tasks", (q) => this.authed(q, (g) => this.createTask(q, g)));
    r.add("GET", "/organizations/:org/tasks", (q) => this.authed(q, (g) => this.listTasks(q, g)));
    r.add("GET", "/tasks/:id", (q) => this.authed(q, (g) => this.showTask(q, g)));
    r.add("PATCH", "/tasks/:id", (q) => this.authed(q, (g) => this.updateTask(q, g)));
    r.add("DELETE", "/tasks/:id", (q) => this.authed(q, (g) => this.deleteTask(q, g)));
    r.add("POST", "/workspaces/:ws/tasks", (q) => this.authed(q, (g) => this.associate(q, g)));
    r.add("GET", "/workspaces/:ws/tasks", (q) => this.authed(q, (g) => this.listWorkspaceTasks(q, g)));
    r.add("GET", "/workspaces/:ws/tasks/:id", (q) => this.authed(q, (g) => this.showWorkspaceTask(q, g)));
    r.add("PATCH", "/workspaces/:ws/tasks/:id", (q) => this.authed(q, (g) => this.updateWorkspaceTask(q, g)));
    r.add("DELETE", "/workspaces/:ws/tasks/:id", (q) => this.authed(q, (g) => this.deleteWorkspaceTask(q, g)));
  }

  mount(): Mount {
    return {
      prefix: API,
      router: this.router,
      notFound: () => notFound(),
      methodNotAllowed: () => errors(405, { status: "405", title: "method not allowed" }),
    };
  }

  async close(): Promise<void> {}

  // Accessors for tests and tools. They bypass tokens and validation; the getters return copies. Changing
  // `store` directly (editing or deleting a task or an association) is how tests make out-of-band changes.

  /** Seeded workspace by name (first organization by default), for tests and tools. */
  workspace(name: string, organization = [...this.store.organizations.keys()][0]): Workspace {
    const ws = this.store.workspaceByName(organization, name);
    if (!ws) throw new Error(`no workspace "${name}" in "${organization}"`);
    return ws;
  }

  /** Workspaces of one organization, or of all. */
  workspaces(organization?: string): Workspace[] {
    return [...this.store.workspaces.values()].filter((w) => organization === undefined || w.organization === organization).map((w) => ({ ...w }));
  }

  /** Tasks held (HMAC keys included), of one organization or of all, oldest first. */
  tasks(organization?: string): Task[] {
    return [...this.store.tasks.values()].filter((t) => organization === undefined || t.organization === organization).map((t) => structuredClone(t));
  }

  /** Workspace run tasks held, optionally those of one workspace and/or one task, oldest first. */
  workspaceTasks(filter: { workspaceId?: string; taskId?: string } = {}): WorkspaceTask[] {
    return [...this.store.workspaceTasks.values()]
      .filter((w) => (filter.workspaceId === undefined || w.workspaceId === filter.workspaceId) && (filter.taskId === undefined || w.taskId === filter.taskId))
      .map((w) => structuredClone(w));
  }

  addOrganization(name: string, options: { globalRunTasks?: boolean } = {}): void {
    this.store.addOrganization(name, options.globalRunTasks ?? true);
  }

  /** A new workspace in an existing organization; the id (`ws-...`) is derived from the names unless given. */
  addWorkspace(organization: string, name: string, id?: string): Workspace {
    return { ...this.store.addWorkspace(organization, name, id) };
  }

  /** Turns the global run tasks feature of an organization on or off, as a change of plan would. */
  setFeature(organization: string, globalRunTasks: boolean): void {
    const org = this.store.organizations.get(organization);
    if (!org) throw new Error(`no organization "${organization}"`);
    org.globalRunTasks = globalRunTasks;
  }

  /** Adds a task as if created out of band (no token, no validation); unnamed fields take the create defaults. */
  addTask(organization: string, fields: Pick<Task, "name"> & Partial<Omit<Task, "id" | "organization" | "createdAt">>): Task {
    if (!this.store.organizations.has(organization)) throw new Error(`no organization "${organization}"`);
    const task = this.store.addTask({
      organization,
      url: "https://run-task.example.com/hook",
      category: "task",
      description: null,
      hmacKey: null,
      enabled: true,
      global: { enabled: false, stages: [], enforcementLevel: null },
      ...fields,
    });
    return structuredClone(task);
  }

  /** Associates a task to a workspace out of band; `stages` default to `["post_plan"]`. */
  addWorkspaceTask(workspaceId: string, taskId: string, fields: { enforcementLevel?: string; stages?: string[] } = {}): WorkspaceTask {
    if (!this.store.workspaces.has(workspaceId)) throw new Error(`no workspace "${workspaceId}"`);
    if (!this.store.tasks.has(taskId)) throw new Error(`no task "${taskId}"`);
    const wt = this.store.addWorkspaceTask({ workspaceId, taskId, enforcementLevel: fields.enforcementLevel ?? "advisory", stages: [...(fields.stages ?? ["post_plan"])] });
    return structuredClone(wt);
  }

  private authed(req: EmulatorRequest, then: (grant: TokenGrant) => EmulatorResponse): EmulatorResponse {
    if (req.body !== undefined) {
      this.received.push({ method: req.method, path: req.path, body: req.body });
      if (this.received.length > 10_000) this.received.shift();
    }
    const token = bearerToken(req);
    const grant = token === undefined || !Object.hasOwn(this.tokens, token) ? undefined : this.tokens[token];
    if (!grant) return unauthorized();
    const contentType = req.headers["content-type"];
    if (req.rawBody.length > 0 && this.options.requireJsonApiContentType !== false && !isJsonApi(contentType)) return unsupportedMediaType(contentType);
    return then(grant);
  }

  /** The task if it exists and the grant may act on it; the service answers 404 to both failures. */
  private visibleTask(id: string, grant: TokenGrant, permission: Permission = "manageRunTasks"): Task | undefined {
    const task = this.store.tasks.get(id);
    return task && allows(grant, permission, task.organization) ? task : undefined;
  }

  private visibleWorkspace(id: string, grant: TokenGrant): Workspace | undefined {
    const ws = this.store.workspaces.get(id);
    return ws && allows(grant, "manageWorkspaceRunTasks", ws.organization, ws) ? ws : undefined;
  }

  private taskDoc(status: number, task: Task, include: string | null): EmulatorResponse {
    const body: Record<string, unknown> = { data: taskResource(this.store, task, this.render) };
    const inc = included(this.store, [task], include);
    if (inc) body.included = inc;
    return document(status, body);
  }

  private createTask(req: EmulatorRequest, grant: TokenGrant): EmulatorResponse {
    const org = req.params.org;
    if (!this.store.organizations.has(org) || !allows(grant, "owner", org)) return notFound();
    const parsed = requestData(req.body, "tasks");
    if (Array.isArray(parsed)) return errors(422, ...parsed);
    const { fields, errors: errs } = taskAttributes(parsed.attributes, undefined, this.store.organizations.get(org)!.globalRunTasks);
    if (errs.length === 0 && this.store.tasksOf(org).some((t) => t.name === fields.name)) {
      errs.push(invalid("/data/attributes/name", "Name has already been taken"));
    }
    if (errs.length > 0) return errors(422, ...errs);
    return this.taskDoc(201, this.store.addTask({ ...fields, organization: org }), null);
  }

  private listTasks(req: EmulatorRequest, grant: TokenGrant): EmulatorResponse {
    const org = req.params.org;
    if (!this.store.organizations.has(org) || !allows(grant, "manageRunTasks", org)) return notFound();
    const page = paginate(this.store.tasksOf(org), req.query, origin(req), `${API}/organizations/${encodeURIComponent(org)}/tasks`);
    const body: Record<string, unknown> = {
      data: page.items.map((t) => taskResource(this.store, t, this.render)),
      links: page.links,
      meta: page.meta,
    };
    const inc = included(this.store, page.items, req.query.get("include"));
    if (inc) body.included = inc;
    return document(200, body);
  }

  private showTask(req: EmulatorRequest, grant: TokenGrant): EmulatorResponse {
    const task = this.visibleTask(req.params.id, grant);
    return task ? this.taskDoc(200, task, req.query.get("include")) : notFound();
  }

  private updateTask(req: EmulatorRequest, grant: TokenGrant): EmulatorResponse {
    const task = this.visibleTask(req.params.id, grant);
    if (!task) return notFound();
    const parsed = requestData(req.body, "tasks");
    if (Array.isArray(parsed)) return errors(422, ...parsed);
    const { fields, errors: errs } = taskAttributes(parsed.attributes, task, this.store.organizations.get(task.organization)?.globalRunTasks ?? false);
    if (errs.length === 0 && this.store.tasksOf(task.organization).some((t) => t.name === fields.name && t.id !== task.id)) {
      errs.push(invalid("/data/attributes/name", "Name has already been taken"));
    }
    if (errs.length > 0) return errors(422, ...errs);
    Object.assign(task, fields);
    return this.taskDoc(200, task, null);
  }

  private deleteTask(req: EmulatorRequest, grant: TokenGrant): EmulatorResponse {
    const task = this.visibleTask(req.params.id, grant);
    if (!task) return notFound();
    this.store.deleteTask(task.id);
    return { status: 204 };
  }

  private associate(req: EmulatorRequest, grant: TokenGrant): EmulatorResponse {
    const ws = this.visibleWorkspace(req.params.ws, grant);
    if (!ws) return notFound();
    const parsed = requestData(req.body, "workspace-tasks");
    if (Array.isArray(parsed)) return errors(422, ...parsed);
    const errs: JsonApiError[] = [];
    const level = parsed.attributes["enforcement-level"];
    if (!ENFORCEMENT_LEVELS.includes(level as never)) errs.push(invalid("/data/attributes/enforcement-level", "enforcement-level must be advisory or mandatory"));
    const stages = stagesOf(parsed.attributes, ["pre_plan", "post_plan", "pre_apply", "post_apply"], errs) ?? ["post_plan"];
    const rel = (parsed.data.relationships as { task?: { data?: { id?: unknown; type?: unknown } } } | undefined)?.task?.data;
    if (!rel || typeof rel.id !== "string" || rel.type !== "tasks") {
      errs.push(invalid("/data/relationships/task/data", "task relationship with type \"tasks\" is required"));
    }
    if (errs.length > 0) return errors(422, ...errs);
    const task = this.store.tasks.get(rel!.id as string);
    if (!task) return notFound();
    if (task.organization !== ws.organization) {
      // A task the token can see in another organization is a bad request; one it cannot see stays a 404.
      if (!allows(grant, "manageRunTasks", task.organization)) return notFound();
      return errors(422, invalid("/data/relationships/task/data/id", "Task must belong to the workspace's organization"));
    }
    if (this.store.workspaceTasksOf(ws.id).some((w) => w.taskId === task.id)) {
      return errors(422, invalid("/data/relationships/task/data/id", "Task has already been associated with this workspace"));
    }
    const wt = this.store.addWorkspaceTask({ workspaceId: ws.id, taskId: task.id, enforcementLevel: level as string, stages });
    if (this.options.associateResponse === "204") return { status: 204 };
    return document(201, { data: workspaceTaskResource(wt) });
  }

  private listWorkspaceTasks(req: EmulatorRequest, grant: TokenGrant): EmulatorResponse {
    const ws = this.visibleWorkspace(req.params.ws, grant);
    if (!ws) return notFound();
    const page = paginate(this.store.workspaceTasksOf(ws.id), req.query, origin(req), `${API}/workspaces/${ws.id}/tasks`);
    return document(200, { data: page.items.map(workspaceTaskResource), links: page.links, meta: page.meta });
  }

  private showWorkspaceTask(req: EmulatorRequest, grant: TokenGrant): EmulatorResponse {
    const ws = this.visibleWorkspace(req.params.ws, grant);
    const wt = ws && this.store.workspaceTasks.get(req.params.id);
    return wt && wt.workspaceId === ws.id ? document(200, { data: workspaceTaskResource(wt) }) : notFound();
  }

  private updateWorkspaceTask(req: EmulatorRequest, grant: TokenGrant): EmulatorResponse {
    const ws = this.visibleWorkspace(req.params.ws, grant);
    const wt = ws && this.store.workspaceTasks.get(req.params.id);
    if (!wt || wt.workspaceId !== ws.id) return notFound();
    const parsed = requestData(req.body, "workspace-tasks");
    if (Array.isArray(parsed)) return errors(422, ...parsed);
    const errs: JsonApiError[] = [];
    const level = parsed.attributes["enforcement-level"];
    if (level !== undefined && !ENFORCEMENT_LEVELS.includes(level as never)) {
      errs.push(invalid("/data/attributes/enforcement-level", "enforcement-level must be advisory or mandatory"));
    }
    // On update the deprecated `stage` only takes pre_plan or post_plan.
    const stages = stagesOf(parsed.attributes, ["pre_plan", "post_plan"], errs);
    if (errs.length > 0) return errors(422, ...errs);
    if (level !== undefined) wt.enforcementLevel = level as string;
    if (stages) wt.stages = stages;
    return document(200, { data: workspaceTaskResource(wt) });
  }

  private deleteWorkspaceTask(req: EmulatorRequest, grant: TokenGrant): EmulatorResponse {
    const ws = this.visibleWorkspace(req.params.ws, grant);
    const wt = ws && this.store.workspaceTasks.get(req.params.id);
    if (!wt || wt.workspaceId !== ws.id) return notFound();
    this.store.workspaceTasks.delete(wt.id);
    return { status: 204 };
  }
}

/**
 * `stages` when sent, else `[stage]` when the deprecated `stage` is sent, else undefined. A `stage` sent beside
 * `stages` is still checked against its own rule, then `stages` wins.
 */
function stagesOf(a: Record<string, unknown>, stageValues: string[], errs: JsonApiError[]): string[] | undefined {
  const stageValid = a.stage === undefined || stageValues.includes(a.stage as string);
  if (!stageValid) errs.push(invalid("/data/attributes/stage", `stage must be one of ${stageValues.join(", ")}`));
  if (a.stages !== undefined) return stageList(a.stages, "/data/attributes/stages", errs);
  return a.stage === undefined || !stageValid ? undefined : [a.stage as string];
}

/** `http://host:port` as the client addressed the emulator, for absolute links; empty without a Host header. */
function origin(req: EmulatorRequest): string {
  const host = req.headers.host;
  return host ? `http://${host}` : "";
}
