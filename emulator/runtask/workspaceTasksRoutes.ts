import type { EmulatorRequest, EmulatorResponse } from "../core/router";
import { allows, type TokenGrant } from "./access";
import { API, workspaceTaskResource } from "./documents";
import { document, errors, invalid, notFound } from "./jsonApi";
import { pageSizeOf, paginate } from "./pagination";
import { requestOrigin, type ApiRoute, type RouteContext } from "./routes";
import type { Workspace, WorkspaceTask } from "./store";
import { requestData, taskRelationship, workspaceTaskAttributes } from "./validation";

/**
 * `/workspaces/:ws/tasks[/:id]`: associate a run task to a workspace, and list, show, update and delete the
 * associations (Manage Workspace Run Tasks on that workspace). Missing and forbidden objects are both 404.
 */
export function workspaceTaskRoutes(ctx: RouteContext): ApiRoute[] {
  const { store } = ctx;

  const visibleWorkspace = (id: string, grant: TokenGrant): Workspace | undefined => {
    const ws = store.workspaces.get(id);
    return ws && allows(grant, "manageWorkspaceRunTasks", ws.organization, ws) ? ws : undefined;
  };

  /** The association named by the path, if its workspace is visible and it belongs to that workspace. */
  const visibleAssociation = (req: EmulatorRequest, grant: TokenGrant): WorkspaceTask | undefined => {
    const ws = visibleWorkspace(req.params.ws, grant);
    const wt = ws && store.workspaceTasks.get(req.params.id);
    return wt && wt.workspaceId === ws.id ? wt : undefined;
  };

  function associate(req: EmulatorRequest, grant: TokenGrant): EmulatorResponse {
    const ws = visibleWorkspace(req.params.ws, grant);
    if (!ws) return notFound();
    const parsed = requestData(req.body, "workspace-tasks");
    if (Array.isArray(parsed)) return errors(422, ...parsed);
    const { enforcementLevel, stages, errors: errs } = workspaceTaskAttributes(parsed.attributes, "create");
    const taskId = taskRelationship(parsed.data, errs);
    if (errs.length > 0) return errors(422, ...errs);
    const task = store.tasks.get(taskId!);
    if (!task) return notFound();
    if (task.organization !== ws.organization) {
      // A task the token can see in another organization is a bad request; one it cannot see stays a 404.
      if (!allows(grant, "manageRunTasks", task.organization)) return notFound();
      return errors(422, invalid("/data/relationships/task/data/id", "Task must belong to the workspace's organization"));
    }
    if (!ctx.acceptDuplicates && store.workspaceTasksOf(ws.id).some((w) => w.taskId === task.id)) {
      return errors(422, invalid("/data/relationships/task/data/id", "Task has already been associated with this workspace"));
    }
    const wt = store.addWorkspaceTask({ workspaceId: ws.id, taskId: task.id, enforcementLevel: enforcementLevel!, stages: stages ?? ["post_plan"] });
    if (ctx.associateResponse === "204") return { status: 204 };
    return document(201, { data: workspaceTaskResource(wt, ctx.render) });
  }

  function list(req: EmulatorRequest, grant: TokenGrant): EmulatorResponse {
    const ws = visibleWorkspace(req.params.ws, grant);
    if (!ws) return notFound();
    const size = pageSizeOf(req.query, ctx.paging);
    if (typeof size !== "number") return size;
    ctx.lists.beforeWorkspaceTaskPage(ws.id, req.query);
    const all = ctx.lists.visible(store.workspaceTasksOf(ws.id));
    const page = paginate(all, size, req.query, requestOrigin(req), `${API}/workspaces/${ws.id}/tasks`);
    return document(200, { data: page.items.map((wt) => workspaceTaskResource(wt, ctx.render)), links: page.links, meta: page.meta });
  }

  function show(req: EmulatorRequest, grant: TokenGrant): EmulatorResponse {
    const wt = visibleAssociation(req, grant);
    return wt ? document(200, { data: workspaceTaskResource(wt, ctx.render) }) : notFound();
  }

  function update(req: EmulatorRequest, grant: TokenGrant): EmulatorResponse {
    const wt = visibleAssociation(req, grant);
    if (!wt) return notFound();
    const parsed = requestData(req.body, "workspace-tasks");
    if (Array.isArray(parsed)) return errors(422, ...parsed);
    const { enforcementLevel, stages, errors: errs } = workspaceTaskAttributes(parsed.attributes, "update");
    if (errs.length > 0) return errors(422, ...errs);
    if (enforcementLevel !== undefined) wt.enforcementLevel = enforcementLevel;
    if (stages) wt.stages = stages;
    return document(200, { data: workspaceTaskResource(wt, ctx.render) });
  }

  function remove(req: EmulatorRequest, grant: TokenGrant): EmulatorResponse {
    const wt = visibleAssociation(req, grant);
    if (!wt) return notFound();
    store.workspaceTasks.delete(wt.id);
    return { status: 204 };
  }

  return [
    { method: "POST", template: "/workspaces/:ws/tasks", handle: associate },
    { method: "GET", template: "/workspaces/:ws/tasks", handle: list },
    { method: "GET", template: "/workspaces/:ws/tasks/:id", handle: show },
    { method: "PATCH", template: "/workspaces/:ws/tasks/:id", handle: update },
    { method: "DELETE", template: "/workspaces/:ws/tasks/:id", handle: remove },
  ];
}
