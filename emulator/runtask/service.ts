import { createHash } from "node:crypto";
import { Router, type EmulatorRequest, type EmulatorResponse } from "../core/router";
import type { Mount } from "../core/server";
import { bearerToken, DEFAULT_RUNTASK_TOKEN, deniedRoute, FULL_GRANT, type TokenGrant } from "./access";
import { API } from "./documents";
import { errors, isJsonApi, notFound, unauthorized, unsupportedMediaType } from "./jsonApi";
import type { RouteContext } from "./routes";
import {
  DEFAULT_ORGANIZATION,
  DEFAULT_WORKSPACES,
  RunTaskStore,
  type OrganizationSeed,
  type Task,
  type Workspace,
  type WorkspaceTask,
} from "./store";
import { ListViews } from "./listViews";
import { DEFAULT_PAGE_LIMITS } from "./pagination";
import { taskRoutes } from "./tasksRoutes";
import { workspaceTaskRoutes } from "./workspaceTasksRoutes";

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
  /**
   * Answer as the spec's letter says where the real service answers otherwise (where the spec contradicts itself, or
   * lists no such answer): associate 204 with no body (its status table), a missing or unknown token 404 (its error
   * table lists no 401). Default false: as the real service answers, and as its vendor's client (go-tfe) needs, the
   * association's document (the spec's sample) and 401. `associateResponse` and `unknownTokenStatus`, where given,
   * win over it.
   */
  letterOfSpec?: boolean;
  /**
   * Which reading of the spec the service follows where its tables and its samples differ in a task's attributes.
   * `"tables"`, the default: as the tables say, `enabled` a JSON boolean, show carrying `global-configuration` (the
   * attribute list of a response document), the HMAC key read from `hmac-key`. `"samples"`: as the samples show,
   * `enabled` rendered "true"/"false", show without `global-configuration`, the key read from `hmac_key` (the create
   * and update sample bodies), and associate answering with the association's document whatever `letterOfSpec` says.
   * The options of each of these, where given, win over the profile.
   */
  shapes?: "tables" | "samples";
  /**
   * What an organization relationship's `data.id` holds (a task's, an included workspace's): `"name"`, the default,
   * the organization's name, by which the paths name it; or `"opaque"`, an id of its own (`org-` and characters), as
   * the spec's "id of organization" allows of a service that knows its organizations by id.
   */
  organizationIds?: "name" | "opaque";
  /**
   * How the associate call (`POST /workspaces/:id/tasks`) answers: `"201"` with the new association's document, the
   * default, as the spec's sample shows and the real service answers (go-tfe and the Terraform provider read the
   * association from it); or `"204"` with no body, as the spec's status table says (`letterOfSpec`).
   */
  associateResponse?: "201" | "204";
  /**
   * The answer to a request whose token is missing or unknown: `401` with an `unauthorized` error object, the
   * default, as the real service answers a bad token (go-tfe's `ErrUnauthorized`); or `404`, the same JSON:API error
   * object as for a missing object or a forbidden one, as the spec's letter has it ("A missing resource and a user
   * without permission both give 404"; its error table lists no 401; `letterOfSpec`). A known token without the
   * permission gets 404 either way.
   */
  unknownTokenStatus?: 401 | 404;
  /**
   * Whether show (`GET /tasks/:id`) carries `global-configuration` in its attributes. Default true: the spec's
   * attribute list of a response document has it. `false` omits it from show only, as the spec's show sample
   * does; list, create and update answers keep it (their samples are not said to omit it), so a client still
   * has a place to read the settings from. Without the organization's global run tasks feature it is absent
   * from every answer either way.
   */
  showGlobalConfiguration?: boolean;
  /**
   * The largest page a list serves. Default 100: the spec gives the default page size (20) but not the maximum,
   * and the emulator bounds pages so that no client comes to rely on pages of any size it asks for.
   */
  maxPageSize?: number;
  /**
   * What a list does with a `page[size]` above `maxPageSize`: `"clamp"`, the default, serves pages of
   * `maxPageSize` (and says so in `meta.pagination.page-size` and the links); `"reject"` refuses the request
   * with a JSON:API error whose `source.parameter` is `page[size]` (status `pageSizeRejectStatus`), as a server
   * that refuses large pages does, so that clients can be tested falling back to the server's default size.
   */
  pageSizeAboveMax?: "clamp" | "reject";
  /** The status of that refusal: 400 (a bad query parameter, as JSON:API advises), the default, or 422. */
  pageSizeRejectStatus?: 400 | 422;
  /**
   * The attribute a task's HMAC key is read from: `"hmac-key"`, the default, as the attribute table spells it; or
   * `"hmac_key"`, as the spec's create and update sample bodies do. The other spelling is ignored, as a service
   * ignores an attribute it does not know. Answers carry `"hmac-key": null` either way.
   */
  hmacKeyAttribute?: "hmac-key" | "hmac_key";
  /**
   * Render `enabled` as the strings "true"/"false", as the spec's samples do, and take those strings back in
   * `enabled` and `global-configuration.enabled`. Default false: booleans only, both ways, as the spec types them.
   */
  enabledAsString?: boolean;
  /**
   * Render a task's description sent as `""` as `null` in every answer, as a service that keeps an empty description
   * as none does. Default false: as sent. The spec types the description as a string and says nothing of an empty one.
   */
  emptyDescriptionAsNull?: boolean;
  /**
   * Render every list of stages (an association's `stages`, a task's `global-configuration.stages`) in the
   * reverse of the order it was sent in. Default false: the order sent. The spec lists stages as a set of
   * lifecycle points and does not say that their order is kept, so clients are tested comparing them as sets.
   */
  reverseStages?: boolean;
  /**
   * Leave out of a task's answers (its `workspace-tasks` relationship, and `include=workspace_tasks`) the
   * associations on workspaces the token may not manage, as a service may that answers a user without permission
   * as if the object did not exist (the spec's rule for 404s). Default false: every association of the task.
   */
  includeVisibleOnly?: boolean;
  /**
   * Answer 415 to a request whose body is not sent as `application/vnd.api+json`, so that clients which forget
   * the header fail here rather than against the service. Default true; false accepts any content type.
   */
  requireJsonApiContentType?: boolean;
  /**
   * Whether an organization may hold two tasks of one name, and a workspace two associations of one task; the spec
   * says neither. `"refuse"`, the default: a create (or a rename) to a name taken, or an association of a task
   * already associated to the workspace, is a 422 naming the attribute. `"accept"`: every create makes a new
   * object, as a service that knows its objects by id alone does.
   */
  duplicates?: "refuse" | "accept";
  /**
   * Milliseconds after its create before a task or an association shows in its organization's or workspace's list,
   * as on a service whose lists are served from a replica that lags behind writes. Show, update and delete find it
   * at once. Default 0: the spec says nothing of a lag, and lists show every object at once.
   */
  listLagMs?: number;
  /**
   * A list that changes while a client pages through it, as when another client creates or deletes objects between
   * two page requests: before each page after the first, the list's first object is deleted (`"remove"`: the items
   * after it move one place towards the front, so that one of them is on no page the client reads) or a new one is
   * made ahead of it (`"insert"`: one moves to the next page, and is read twice). Default: none.
   */
  listChurn?: "remove" | "insert";
}

/** An id of the organization's own, the same for one name in every run (`organizationIds: "opaque"`). */
function opaqueOrganizationId(name: string): string {
  return `org-${createHash("sha256").update(name).digest("base64url").slice(0, 16)}`;
}

export { DEFAULT_RUNTASK_TOKEN, DEFAULT_ORGANIZATION };

/** The API version the service reports on every answer (`TFP-API-Version`), which go-tfe reads as RemoteAPIVersion. */
export const API_VERSION = "2.6";

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
 * with a body are sent as `application/vnd.api+json`. Checks run in this order, the first that fails answers:
 * 1. token: missing or unknown is 401 (or 404 with `unknownTokenStatus: 404`, the spec's letter);
 * 2. content type of a body: 415;
 * 3. the objects named by the path and the token's permission on them: 404 for missing and forbidden alike;
 * 4. query parameters: an `include` value the spec does not list is 400; a `page[size]` above the maximum under
 *    `pageSizeAboveMax: "reject"` is 400 (or 422);
 * 5. the body: 422; then objects the body names (the task of an association): 404 when missing or forbidden.
 */
export class RunTaskService {
  readonly store: RunTaskStore;
  /** Bodies of the requests that carried one, newest last (bounded). */
  readonly received: ReceivedBody[] = [];
  private readonly tokens: Record<string, TokenGrant>;
  private readonly router = new Router();
  private readonly unknownTokenStatus: 401 | 404;

  constructor(private readonly options: RunTaskEmulatorOptions = {}) {
    const letter = options.letterOfSpec === true;
    this.unknownTokenStatus = oneOf("unknownTokenStatus", options.unknownTokenStatus ?? (letter ? 404 : undefined), [401, 404] as const);
    this.store = new RunTaskStore(
      options.organizations ?? [{ name: DEFAULT_ORGANIZATION, globalRunTasks: true, workspaces: DEFAULT_WORKSPACES.map((name) => ({ name })) }],
    );
    this.tokens = options.tokens ?? { [DEFAULT_RUNTASK_TOKEN]: FULL_GRANT };
    const samples = oneOf("shapes", options.shapes, ["tables", "samples"] as const) === "samples";
    const ctx: RouteContext = {
      store: this.store,
      render: {
        enabledAsString: options.enabledAsString ?? samples,
        reverseStages: options.reverseStages,
        emptyDescriptionAsNull: options.emptyDescriptionAsNull === true,
        organizationId:
          oneOf("organizationIds", options.organizationIds, ["name", "opaque"] as const) === "opaque" ? opaqueOrganizationId : undefined,
      },
      associateResponse: oneOf("associateResponse", options.associateResponse ?? (letter && !samples ? "204" : undefined), ["201", "204"] as const),
      showGlobalConfiguration: options.showGlobalConfiguration ?? !samples,
      hmacKeyAttribute: oneOf("hmacKeyAttribute", options.hmacKeyAttribute ?? (samples ? "hmac_key" : undefined), ["hmac-key", "hmac_key"] as const),
      includeVisibleOnly: options.includeVisibleOnly === true,
      acceptDuplicates: oneOf("duplicates", options.duplicates, ["refuse", "accept"] as const) === "accept",
      lists: new ListViews(this.store, {
        lagMs: nonNegativeInteger("listLagMs", options.listLagMs ?? 0),
        churn: options.listChurn === undefined ? undefined : oneOf("listChurn", options.listChurn, ["remove", "insert"] as const),
      }),
      paging: {
        max: positiveInteger("maxPageSize", options.maxPageSize ?? DEFAULT_PAGE_LIMITS.max),
        aboveMax: oneOf("pageSizeAboveMax", options.pageSizeAboveMax, ["clamp", "reject"] as const),
        rejectStatus: oneOf("pageSizeRejectStatus", options.pageSizeRejectStatus, [400, 422] as const),
      },
    };
    // go-tfe's NewClient asks the service's API version of this no-op endpoint before any call; it takes no token.
    this.router.add("GET", "/ping", () => ({ status: 204 }));
    for (const route of [...taskRoutes(ctx), ...workspaceTaskRoutes(ctx)]) {
      this.router.add(route.method, route.template, (req) =>
        this.authed(req, (grant) => (deniedRoute(grant, route.method, route.template) ? notFound() : route.handle(req, grant))),
      );
    }
  }

  mount(): Mount {
    return {
      prefix: API,
      router: this.router,
      notFound: () => notFound(),
      methodNotAllowed: () => errors(405, { status: "405", title: "method not allowed" }),
      badPath: (_req, detail) => errors(400, { status: "400", title: "bad request", detail }),
      headers: { "TFP-API-Version": API_VERSION },
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
      .filter(
        (w) =>
          (filter.workspaceId === undefined || w.workspaceId === filter.workspaceId) && (filter.taskId === undefined || w.taskId === filter.taskId),
      )
      .map((w) => structuredClone(w));
  }

  addOrganization(name: string, options: { globalRunTasks?: boolean } = {}): void {
    this.store.addOrganization(name, options.globalRunTasks ?? true);
  }

  /** A new workspace in an existing organization; the id (`ws-...`) is derived from the names unless given. */
  addWorkspace(organization: string, name: string, id?: string): Workspace {
    return { ...this.store.addWorkspace(organization, name, id) };
  }

  /** Deletes a workspace out of band, with its associations (as the service deletes them with it). */
  deleteWorkspace(id: string): void {
    if (!this.store.workspaces.has(id)) throw new Error(`no workspace "${id}"`);
    this.store.deleteWorkspace(id);
  }

  /** Deletes an organization out of band, with its workspaces, tasks and associations. */
  deleteOrganization(name: string): void {
    if (!this.store.organizations.has(name)) throw new Error(`no organization "${name}"`);
    this.store.deleteOrganization(name);
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
    const wt = this.store.addWorkspaceTask({
      workspaceId,
      taskId,
      enforcementLevel: fields.enforcementLevel ?? "advisory",
      stages: [...(fields.stages ?? ["post_plan"])],
    });
    return structuredClone(wt);
  }

  private authed(req: EmulatorRequest, then: (grant: TokenGrant) => EmulatorResponse): EmulatorResponse {
    if (req.body !== undefined) {
      this.received.push({ method: req.method, path: req.path, body: req.body });
      if (this.received.length > 10_000) this.received.shift();
    }
    const token = bearerToken(req);
    const grant = token === undefined || !Object.hasOwn(this.tokens, token) ? undefined : this.tokens[token];
    if (!grant) return this.unknownTokenStatus === 401 ? unauthorized() : notFound();
    const contentType = req.headers["content-type"];
    if (req.rawBody.length > 0 && this.options.requireJsonApiContentType !== false && !isJsonApi(contentType))
      return unsupportedMediaType(contentType);
    return then(grant);
  }
}

/** An option's value, checked against the values it may take; the first is the default. */
export function oneOf<T>(name: string, value: T | undefined, allowed: readonly T[]): T {
  if (value === undefined) return allowed[0];
  if (!allowed.includes(value))
    throw new Error(`run task emulator: ${name} must be one of ${allowed.map((a) => JSON.stringify(a)).join(", ")}, not ${JSON.stringify(value)}`);
  return value;
}

function nonNegativeInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0)
    throw new Error(`run task emulator: ${name} must be a whole number of milliseconds, not ${JSON.stringify(value)}`);
  return value;
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1)
    throw new Error(`run task emulator: ${name} must be a positive integer, not ${JSON.stringify(value)}`);
  return value;
}
