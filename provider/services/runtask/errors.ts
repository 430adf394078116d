import { messageOf, SnapshotRunTaskError } from "../../common/errors";
import type { HttpResponse } from "../../http/client";
import type { ServiceError } from "../../http/serviceError";
import { RUNTASK_SETTING_KEYS } from "./settings";

/**
 * The run task service's errors: what its failed statuses mean, and its 404, which the spec gives both for a
 * missing object and for a token without the permission. A create's or an update's 404 is explained here by one
 * request to the parent's list; after a read's or a delete's, only proof by content takes an object for gone
 * (`proofOfGone.ts`), and what cannot be proven fails with `notProvenGone`.
 */

/** The settings messages name, as `stack config key / environment variable`. */
export const TOKEN_SETTING = RUNTASK_SETTING_KEYS.token.join(" / ");
export const ORGANIZATION_SETTING = RUNTASK_SETTING_KEYS.organization.join(" / ");
export const ADDRESS_SETTING = RUNTASK_SETTING_KEYS.address.join(" / ");

/**
 * The spec answers 404 with a JSON:API error object (`{"errors": [{...}, ...]}`, error objects rather than strings)
 * both for a missing object and for a user without permission.
 * A 404 in any other shape (no body, a page of text) does not come from the run task API at all: the address,
 * its path or a proxy in front of it is wrong, and no probe of the API can say more.
 */
export function isJsonApiErrorDocument(body: unknown): boolean {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return false;
  const errors = (body as { errors?: unknown }).errors;
  return Array.isArray(errors) && errors.every((e) => e !== null && typeof e === "object" && !Array.isArray(e));
}

/** Request options that return the service's own 404 to the caller; any other 404 fails with the address advice. */
export const SERVICE_NOT_FOUND = { allowStatus: [404], allowAnswer: (res: HttpResponse) => isJsonApiErrorDocument(res.body) };

/** Advice on a 404 that is not a JSON:API error object. */
export const ADDRESS_ADVICE =
  `the answer is not the run task service's (a 404 without a JSON:API error object): check ${ADDRESS_SETTING}, ` +
  "the service's base address (e.g. https://runs.example.com; the API lives under /api/v2)";

/** Advice on the service's own 404 where nothing was probed (the functions). */
export const MISSING_OR_FORBIDDEN_ADVICE =
  "missing or not authorized: the service answers 404 both when the object does not exist and when the token lacks the " +
  `permission (owner to create tasks, Manage Run Tasks, Manage Workspace Run Tasks; ${TOKEN_SETTING})`;

/** How to forget an object whose parent is gone for certain, when nothing the service answers can prove it. */
export const FORGET_ADVICE = "forget it with `pulumi state delete <URN>` (`pulumi stack --show-urns` lists the URNs)";

/** What a failed status usually means on this service: the advice the client adds to its error. */
export function runTaskHint(status: number, _messages: string[], body: unknown): string | undefined {
  switch (status) {
    case 401:
      return `the token is not valid (${TOKEN_SETTING})`;
    case 404:
      return isJsonApiErrorDocument(body) ? MISSING_OR_FORBIDDEN_ADVICE : ADDRESS_ADVICE;
    default:
      return undefined;
  }
}

/** A 404 that could not be proven to mean "gone": refresh and delete fail and keep the object in the state. */
export function notProvenGone(message: string, cause?: unknown): SnapshotRunTaskError {
  return new SnapshotRunTaskError("not_found", message, { cause });
}

/**
 * Which list to ask after a call's 404, and what each answer means. The spec has no endpoint for an organization
 * or a workspace themselves: their run task lists stand for them.
 */
export interface ParentProbe {
  /** The parent's list, e.g. `/organizations/acme/tasks`. */
  path: string;
  /** Advice when the list answers 404 too: the parent is missing, or the token cannot see it. */
  whenMissing: string;
  /** Advice when the list answers: the parent is there, so the 404 is about the object (or a permission on it). */
  whenAnswers: string;
}

/**
 * After the service's 404 to a create or an update, one request to the parent's list (`answers`, whether a list
 * answers this token) says which of the parent and the object answered it, and the error says what to check. A
 * probe that fails itself leaves the 404's own advice, with what the probe got.
 */
export async function explainNotFound(failure: ServiceError, probe: ParentProbe, answers: (path: string) => Promise<boolean>): Promise<ServiceError> {
  try {
    return failure.with({ advice: (await answers(probe.path)) ? probe.whenAnswers : probe.whenMissing });
  } catch (err) {
    return failure.with({ advice: `${failure.advice ?? "missing or not authorized"} (asking the parent's list failed too: ${messageOf(err)})` });
  }
}

/** After a 404 to creating a task, or updating one, in `organization`. */
export function organizationProbe(organization: string, call: "create" | "update", taskId?: string): ParentProbe {
  const org = `organization "${organization}"`;
  return {
    path: `/organizations/${encodeURIComponent(organization)}/tasks`,
    whenMissing:
      `${org} answers 404 too: it does not exist, or the token cannot see it ` +
      `(check the RunTask's organization, or ${ORGANIZATION_SETTING}, and ${TOKEN_SETTING})`,
    whenAnswers:
      call === "create"
        ? `${org} answers, so the token may not create run tasks there: the spec requires owner permission in the organization to create one (${TOKEN_SETTING})`
        : `${org} answers, so run task ${taskId} was deleted outside the program (\`pulumi refresh\`, then \`pulumi up\` creates it again), ` +
          `or the token lacks the Manage Run Tasks permission (${TOKEN_SETTING})`,
  };
}

/** After a 404 to associating task `taskId` to `workspaceId`, or updating an association there. */
export function workspaceProbe(workspaceId: string, call: "associate" | "update", taskId: string | undefined, associationId?: string): ParentProbe {
  const ws = `workspace ${workspaceId}`;
  return {
    path: `/workspaces/${encodeURIComponent(workspaceId)}/tasks`,
    whenMissing:
      `${ws} answers 404 too: it does not exist, or the token lacks the Manage Workspace Run Tasks permission on it ` +
      `(check workspaceId, a ws-... id, and ${TOKEN_SETTING})`,
    whenAnswers:
      call === "associate"
        ? `${ws} answers, so run task ${taskId} does not exist or the token cannot see it (check taskId; the task must be in the workspace's organization)`
        : `${ws} answers, so association ${associationId} was deleted outside the program (\`pulumi refresh\`, then \`pulumi up\` attaches the ` +
          `task again), or the token lacks the Manage Workspace Run Tasks permission on the workspace (${TOKEN_SETTING})`,
  };
}
