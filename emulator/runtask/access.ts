import type { EmulatorRequest } from "../core/router";

/**
 * The spec's permissions in one organization: `owner` (everything, and the only way to create tasks),
 * `manageRunTasks` (list, show, update, delete tasks), `manageWorkspaceRunTasks` (associations: on every
 * workspace with `true`, or on the listed workspaces, named by id or by name).
 */
export interface OrganizationGrant {
  owner?: boolean;
  manageRunTasks?: boolean;
  manageWorkspaceRunTasks?: boolean | string[];
}

/**
 * What a token may do. The top-level permissions hold in every organization, or only in `organizations` when
 * that is given; `perOrganization` sets the permissions in the organizations it names, replacing the top-level
 * ones there. `{ perOrganization: { a: { owner: true }, b: { manageRunTasks: true } } }` owns `a`, manages the
 * tasks of `b`, and has nothing elsewhere.
 */
export interface TokenGrant extends OrganizationGrant {
  organizations?: string[];
  perOrganization?: Record<string, OrganizationGrant>;
  /**
   * Endpoints this token gets 404 on, as for a missing permission, whatever its permissions say: each named as
   * request counts name routes (`"DELETE /workspaces/:ws/tasks/:id"`). The spec gives a user without permission
   * a 404 and names permissions coarsely; services grant finer ones (a token may list a workspace's run tasks
   * but not dissociate them), and this is how tests make such a token.
   */
  deniedRoutes?: string[];
}

export const DEFAULT_RUNTASK_TOKEN = "emulator-runtask-token";

export const FULL_GRANT: TokenGrant = { owner: true, manageRunTasks: true, manageWorkspaceRunTasks: true };

export type Permission = "owner" | "manageRunTasks" | "manageWorkspaceRunTasks";

/** Whether the grant is denied the endpoint `METHOD template`. */
export function deniedRoute(grant: TokenGrant, method: string, template: string): boolean {
  return grant.deniedRoutes?.includes(`${method} ${template}`) ?? false;
}

/** The token of a request (`Authorization: Bearer ...`), or undefined. */
export function bearerToken(req: EmulatorRequest): string | undefined {
  const value = req.headers.authorization;
  const header = Array.isArray(value) ? value[0] : value;
  const m = header ? /^Bearer\s+(.+)$/i.exec(header.trim()) : null;
  return m ? m[1] : undefined;
}

/** The permissions a grant gives in one organization, or undefined when it gives none there. */
export function grantIn(grant: TokenGrant, organization: string): OrganizationGrant | undefined {
  if (grant.perOrganization && Object.hasOwn(grant.perOrganization, organization)) return grant.perOrganization[organization];
  if (grant.organizations && !grant.organizations.includes(organization)) return undefined;
  return grant;
}

/** Whether the grant holds `permission` in the organization (and, for associations, on that workspace). */
export function allows(grant: TokenGrant, permission: Permission, organization: string, workspace?: { id: string; name: string }): boolean {
  const g = grantIn(grant, organization);
  if (!g) return false;
  if (g.owner) return true;
  if (permission === "owner") return false;
  if (permission === "manageRunTasks") return g.manageRunTasks === true;
  const ws = g.manageWorkspaceRunTasks;
  return ws === true || (Array.isArray(ws) && workspace !== undefined && (ws.includes(workspace.id) || ws.includes(workspace.name)));
}
