import { createHash, randomBytes } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

function base62(bytes: Buffer, length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) out += BASE62[bytes[i % bytes.length] % 62];
  return out;
}

/** A new id of the service's shape: `task-` or `wstask-` plus 16 characters. */
export function newId(prefix: "task" | "wstask"): string {
  return `${prefix}-${base62(randomBytes(16), 16)}`;
}

/** A stable workspace id for a seeded workspace, so seeds give the same ids on every start. */
export function workspaceIdFor(organization: string, workspace: string): string {
  return `ws-${base62(createHash("sha256").update(`${organization}/${workspace}`).digest(), 16)}`;
}
