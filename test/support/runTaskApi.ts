import { request } from "undici";
import { DEFAULT_RUNTASK_TOKEN, startEmulator, type Emulator, type RunTaskEmulatorOptions } from "../../emulator";

/** What the run task API answered: status, content type, and the parsed body (undefined when empty). */
export interface ApiAnswer {
  status: number;
  contentType: string | undefined;
  body: any;
}

export interface CallOptions {
  /** Bearer token; `null` sends no Authorization header. Default: the emulator's default token. */
  token?: string | null;
  /** Content-Type of a request with a body. Default: the JSON:API media type. */
  contentType?: string | null;
  /** Raw text to send instead of JSON. */
  raw?: string;
}

/** A client for the emulator's `/api/v2` over real HTTP, as the tests speak to it. */
export class RunTaskApi {
  constructor(readonly emulator: Emulator) {}

  static async start(options: RunTaskEmulatorOptions = {}): Promise<RunTaskApi> {
    return new RunTaskApi(await startEmulator({ runTask: options }));
  }

  close(): Promise<void> {
    return this.emulator.close();
  }

  get origin(): string {
    return this.emulator.url;
  }

  async call(method: string, path: string, body?: unknown, options: CallOptions = {}): Promise<ApiAnswer> {
    const headers: Record<string, string> = {};
    const token = options.token === undefined ? DEFAULT_RUNTASK_TOKEN : options.token;
    if (token !== null) headers.authorization = `Bearer ${token}`;
    const text = options.raw ?? (body === undefined ? undefined : JSON.stringify(body));
    const contentType = options.contentType === undefined ? "application/vnd.api+json" : options.contentType;
    if (text !== undefined && contentType !== null) headers["content-type"] = contentType;
    const res = await request(`${this.emulator.url}/api/v2${path}`, { method: method as "GET", headers, body: text });
    const answer = await res.body.text();
    const type = res.headers["content-type"];
    return { status: res.statusCode, contentType: Array.isArray(type) ? type[0] : type, body: answer ? JSON.parse(answer) : undefined };
  }

  /** Creates a task through the API and returns its resource object; fails the test unless the answer is 201. */
  async createTask(name: string, attributes: Record<string, unknown> = {}, organization = "emulator-org", token?: string): Promise<Resource> {
    const r = await this.call("POST", `/organizations/${organization}/tasks`, taskBody({ name, ...attributes }), { token });
    if (r.status !== 201) throw new Error(`create task ${name}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body.data;
  }

  /**
   * Associates a task to a workspace through the API and returns the association's resource object: from the
   * 201 answer's document, or, after a 204 with no body, from the workspace's list. Fails the test on any other
   * answer.
   */
  async associate(workspaceId: string, taskId: string, attributes: Record<string, unknown> = { "enforcement-level": "advisory" }): Promise<Resource> {
    const r = await this.call("POST", `/workspaces/${workspaceId}/tasks`, associateBody(taskId, attributes));
    if (r.status === 201) return r.body.data;
    if (r.status !== 204) throw new Error(`associate ${taskId}: ${r.status} ${JSON.stringify(r.body)}`);
    const found = (await this.workspaceTasks(workspaceId)).find((w) => w.relationships.task.data.id === taskId);
    if (!found) throw new Error(`associate ${taskId}: 204, but the workspace does not list the association`);
    return found;
  }

  /** Every association of a workspace, following `links.next`. */
  async workspaceTasks(workspaceId: string, token?: string): Promise<Resource[]> {
    const all: Resource[] = [];
    for (let path: string | null = `/workspaces/${workspaceId}/tasks`; path;) {
      const r = await this.call("GET", path, undefined, { token });
      if (r.status !== 200) throw new Error(`list ${workspaceId}: ${r.status} ${JSON.stringify(r.body)}`);
      all.push(...r.body.data);
      path = r.body.links.next ? r.body.links.next.slice(`${this.origin}/api/v2`.length) : null;
    }
    return all;
  }

  /** Id of a seeded workspace by name (in the first organization unless named). */
  ws(name: string, organization?: string): string {
    return this.emulator.runTask.workspace(name, organization).id;
  }
}

export interface Resource {
  id: string;
  type: string;
  attributes: Record<string, any>;
  relationships: Record<string, { data: any }>;
  links: { self: string };
}

export const taskBody = (attributes: Record<string, unknown>) => ({
  data: { type: "tasks", attributes: { category: "task", url: "https://hooks.example.com/task", ...attributes } },
});

export const associateBody = (taskId: string, attributes: Record<string, unknown> = { "enforcement-level": "advisory" }) => ({
  data: { type: "workspace-tasks", attributes, relationships: { task: { data: { id: taskId, type: "tasks" } } } },
});

export const NOT_FOUND = { errors: [{ status: "404", title: "not found" }] };
export const UNAUTHORIZED = { errors: [{ status: "401", title: "unauthorized" }] };
