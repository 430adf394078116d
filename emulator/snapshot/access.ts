import type { EmulatorRequest, EmulatorResponse } from "../core/router";
import { permissionDenied, unsupportedPath } from "./errors";
import { headerOf, SPEC_NAMES, type Names } from "./names";

/** What a snapshot service token may do: the config endpoints need `sudo`; the status endpoint any token. */
export interface SnapshotTokenGrant {
  sudo?: boolean;
}

export const DEFAULT_SNAPSHOT_TOKEN = "emulator-snapshot-token";

/** The values of the namespace header that name the root namespace. */
const ROOT = new Set(["", "/", "root", "root/"]);

export interface AccessRules {
  tokens: Record<string, SnapshotTokenGrant>;
  licensed: boolean;
}

/**
 * The service's gate before any handler, in this order:
 * 1. namespace: the endpoints live in the root namespace only; from any other the path does not exist (404
 *    unsupported path), whatever the token;
 * 2. token (`X-Service-Token`, or the header of the names the request speaks): missing or unknown is 403 permission
 *    denied;
 * 3. sudo: the config endpoints (create/update, list, read, delete) need it (403); the status endpoint does not;
 * 4. license: without one the endpoints do not exist (404 unsupported path).
 * Undefined when the request may go on.
 */
export function checkAccess(req: EmulatorRequest, rules: AccessRules, needsSudo: boolean, names: Names = SPEC_NAMES): EmulatorResponse | undefined {
  const outside = checkNamespace(req, names);
  if (outside) return outside;
  const token = headerOf(req, names.tokenHeader);
  const grant = token !== undefined && Object.hasOwn(rules.tokens, token) ? rules.tokens[token] : undefined;
  if (!grant) return permissionDenied();
  if (needsSudo && !grant.sudo) return permissionDenied("this path requires the sudo capability");
  if (!rules.licensed) return unsupportedPath("automated snapshots require an enterprise license");
  return undefined;
}

/**
 * The namespace rule alone: outside the root namespace these paths do not exist, whatever the method, so it also
 * comes before the 405 of a method a path does not take.
 */
export function checkNamespace(req: EmulatorRequest, names: Names = SPEC_NAMES): EmulatorResponse | undefined {
  const namespace = headerOf(req, names.namespaceHeader);
  if (namespace !== undefined && !ROOT.has(namespace.trim())) {
    return unsupportedPath(`restricted to the root namespace; namespace "${namespace}"`);
  }
  return undefined;
}
