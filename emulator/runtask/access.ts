import type { EmulatorRequest } from "../core/router";

/**
 * What a token may do, as the spec's permissions: `owner` of an organization (needed to create tasks),
 * `manageRunTasks` (list, show, update, delete tasks), `manageWorkspaceRunTasks` (associations, on every
 * workspace or on the listed workspace ids). `organizations` limits the grant; default: every organization.
 */
export interface TokenGrant {
  owner?: boolean;
  manageRunTasks?: boolean;
  manageWorkspaceRunTasks?: boolean | string[];
  organizations?: string[];
}

export const DEFAULT_RUNTASK_TOKEN = "emulator-runtask-token";

export const FULL_GRANT: TokenGrant = { owner: true, manageRunTasks: true, manageWorkspaceRunTasks: true };

export type Permission = "owner" | "manageRunTasks" | "manageWorkspaceRunTasks";

/** The token of a request (`Authorization: Bearer ...`), or undefined. */
export function bearerToken(req: EmulatorRequest): string | undefined {
  const value = req.headers.authorization;
  const header = Array.isArray(value) ? value[0] : value;
  const m = header ? /^Bearer\s+(.+)$/i.exec(header.trim()) : null;
  return m ? m[1] : undefined;
}

export function allows(grant: TokenGrant, permission: Permission, organization: string, workspaceId?: string): boolean {
  if (grant.organizations && !grant.organizations.includes(organization)) return false;
  if (grant.owner) return true;
  if (permission === "owner") return false;
  if (permission === "manageRunTasks") return grant.manageRunTasks === true;
  const ws = grant.manageWorkspaceRunTasks;
  return ws === true || (Array.isArray(ws) && workspaceId !== undefined && ws.includes(workspaceId));
}
