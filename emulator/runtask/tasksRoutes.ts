import type { EmulatorRequest, EmulatorResponse } from "../core/router";
import { allows, type TokenGrant } from "./access";
import { API, included, includeOf, taskResource, type RenderOptions } from "./documents";
import { document, errors, invalid, notFound } from "./jsonApi";
import { pageSizeOf, paginate } from "./pagination";
import { requestOrigin, type ApiRoute, type RouteContext } from "./routes";
import type { Task, WorkspaceTask } from "./store";
import { requestData, taskAttributes } from "./validation";

/**
 * `/organizations/:org/tasks` and `/tasks/:id`: create (owner only), list, show, update and delete run tasks
 * (Manage Run Tasks). Missing and forbidden objects are both 404.
 */
export function taskRoutes(ctx: RouteContext): ApiRoute[] {
  const { store } = ctx;

  const visibleTask = (id: string, grant: TokenGrant): Task | undefined => {
    const task = store.tasks.get(id);
    return task && allows(grant, "manageRunTasks", task.organization) ? task : undefined;
  };

  /** How answers to this token render; under `includeVisibleOnly`, without the associations it may not see. */
  const renderFor = (grant: TokenGrant): RenderOptions => {
    if (!ctx.includeVisibleOnly) return ctx.render;
    const shows = (wt: WorkspaceTask) => {
      const ws = store.workspaces.get(wt.workspaceId);
      return ws !== undefined && allows(grant, "manageWorkspaceRunTasks", ws.organization, ws);
    };
    return { ...ctx.render, shows };
  };

  const taskDocument = (status: number, task: Task, include: string[], grant: TokenGrant, withGlobal = true): EmulatorResponse => {
    const render = renderFor(grant);
    const body: Record<string, unknown> = { data: taskResource(store, task, render, withGlobal) };
    const inc = included(store, [task], include, render);
    if (inc) body.included = inc;
    return document(status, body);
  };

  /** The name error when another task of the organization has that name (unless names may repeat). */
  const nameTaken = (organization: string, name: string, self?: string) =>
    !ctx.acceptDuplicates && store.tasksOf(organization).some((t) => t.name === name && t.id !== self)
      ? [invalid("/data/attributes/name", "Name has already been taken")]
      : [];

  const hasFeature = (organization: string) => store.organizations.get(organization)?.globalRunTasks ?? false;

  // Booleans sent as "true"/"false" are taken only where the emulator renders them so (a client may echo them).
  const stringBooleans = ctx.render.enabledAsString === true;

  function create(req: EmulatorRequest, grant: TokenGrant): EmulatorResponse {
    const org = req.params.org;
    if (!store.organizations.has(org) || !allows(grant, "owner", org)) return notFound();
    const parsed = requestData(req.body, "tasks");
    if (Array.isArray(parsed)) return errors(422, ...parsed);
    const { fields, errors: errs } = taskAttributes(parsed.attributes, undefined, hasFeature(org), stringBooleans, ctx.hmacKeyAttribute);
    if (errs.length === 0) errs.push(...nameTaken(org, fields.name));
    if (errs.length > 0) return errors(422, ...errs);
    return taskDocument(201, store.addTask({ ...fields, organization: org }), [], grant);
  }

  function list(req: EmulatorRequest, grant: TokenGrant): EmulatorResponse {
    const org = req.params.org;
    if (!store.organizations.has(org) || !allows(grant, "manageRunTasks", org)) return notFound();
    const size = pageSizeOf(req.query, ctx.paging);
    if (typeof size !== "number") return size;
    const include = includeOf(req.query);
    if (!Array.isArray(include)) return include;
    ctx.lists.beforeTaskPage(org, req.query);
    const all = ctx.lists.visible(store.tasksOf(org));
    const page = paginate(all, size, req.query, requestOrigin(req), `${API}/organizations/${encodeURIComponent(org)}/tasks`);
    const render = renderFor(grant);
    const body: Record<string, unknown> = {
      data: page.items.map((t) => taskResource(store, t, render)),
      links: page.links,
      meta: page.meta,
    };
    const inc = included(store, page.items, include, render);
    if (inc) body.included = inc;
    return document(200, body);
  }

  function show(req: EmulatorRequest, grant: TokenGrant): EmulatorResponse {
    const task = visibleTask(req.params.id, grant);
    if (!task) return notFound();
    const include = includeOf(req.query);
    return Array.isArray(include) ? taskDocument(200, task, include, grant, ctx.showGlobalConfiguration) : include;
  }

  function update(req: EmulatorRequest, grant: TokenGrant): EmulatorResponse {
    const task = visibleTask(req.params.id, grant);
    if (!task) return notFound();
    const parsed = requestData(req.body, "tasks");
    if (Array.isArray(parsed)) return errors(422, ...parsed);
    const { fields, errors: errs } = taskAttributes(parsed.attributes, task, hasFeature(task.organization), stringBooleans, ctx.hmacKeyAttribute);
    if (errs.length === 0) errs.push(...nameTaken(task.organization, fields.name, task.id));
    if (errs.length > 0) return errors(422, ...errs);
    Object.assign(task, fields);
    return taskDocument(200, task, [], grant);
  }

  function remove(req: EmulatorRequest, grant: TokenGrant): EmulatorResponse {
    const task = visibleTask(req.params.id, grant);
    if (!task) return notFound();
    store.deleteTask(task.id);
    return { status: 204 };
  }

  return [
    { method: "POST", template: "/organizations/:org/tasks", handle: create },
    { method: "GET", template: "/organizations/:org/tasks", handle: list },
    { method: "GET", template: "/tasks/:id", handle: show },
    { method: "PATCH", template: "/tasks/:id", handle: update },
    { method: "DELETE", template: "/tasks/:id", handle: remove },
  ];
}
