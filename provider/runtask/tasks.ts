import type { RunTaskHttp } from "./client";
import { readBoolean, readString, readStringList, relatedId, resourceOf, type ResourceObject } from "./jsonApi";

/** A run task as the service reports it (the HMAC key is never returned). */
export interface RunTaskRecord {
  id: string;
  organization: string;
  name: string;
  url: string;
  description?: string;
  category: string;
  enabled: boolean;
  /** Absent when the organization lacks the global run tasks feature. */
  global?: { enabled: boolean; stages: string[]; enforcementLevel?: string };
  /** Ids of the workspace associations, when the service lists them. */
  workspaceTaskIds: string[];
}

/** Attributes to write; on update, omitted attributes keep their value. */
export interface RunTaskAttributes {
  name?: string;
  url?: string;
  description?: string;
  category?: string;
  /** Sent only when set: omitting it never resets the key. */
  hmacKey?: string;
  enabled?: boolean;
  global?: { enabled?: boolean; stages?: string[]; enforcementLevel?: string };
}

export function readRunTask(resource: ResourceObject): RunTaskRecord {
  const a = resource.attributes;
  const g = a["global-configuration"] as Record<string, unknown> | null | undefined;
  const wsTasks = resource.relationships["workspace-tasks"]?.data;
  return {
    id: resource.id,
    organization: relatedId(resource, "organization") ?? "",
    name: readString(a.name) ?? "",
    url: readString(a.url) ?? "",
    description: readString(a.description) || undefined,
    category: readString(a.category) ?? "task",
    enabled: readBoolean(a.enabled) ?? true,
    global:
      g && typeof g === "object"
        ? { enabled: readBoolean(g.enabled) ?? false, stages: readStringList(g.stages) ?? [], enforcementLevel: readString(g["enforcement-level"]) }
        : undefined,
    workspaceTaskIds: Array.isArray(wsTasks) ? wsTasks.map((d) => (d as { id?: string }).id).filter((id): id is string => !!id) : [],
  };
}

function body(attrs: RunTaskAttributes): object {
  const attributes: Record<string, unknown> = {};
  if (attrs.name !== undefined) attributes.name = attrs.name;
  if (attrs.url !== undefined) attributes.url = attrs.url;
  if (attrs.description !== undefined) attributes.description = attrs.description;
  if (attrs.category !== undefined) attributes.category = attrs.category;
  if (attrs.hmacKey !== undefined) attributes["hmac-key"] = attrs.hmacKey;
  if (attrs.enabled !== undefined) attributes.enabled = attrs.enabled;
  if (attrs.global !== undefined) {
    const g: Record<string, unknown> = {};
    if (attrs.global.enabled !== undefined) g.enabled = attrs.global.enabled;
    if (attrs.global.stages !== undefined) g.stages = attrs.global.stages;
    if (attrs.global.enforcementLevel !== undefined) g["enforcement-level"] = attrs.global.enforcementLevel;
    attributes["global-configuration"] = g;
  }
  return { data: { type: "tasks", attributes } };
}

const segment = encodeURIComponent;

/** The run task endpoints: `/organizations/:organization_name/tasks` and `/tasks/:id`. */
export class RunTasks {
  constructor(private readonly http: RunTaskHttp) {}

  async create(organization: string, attrs: RunTaskAttributes): Promise<RunTaskRecord> {
    const res = await this.http.request("POST", `/organizations/${segment(organization)}/tasks`, { json: body(attrs), secrets: secretsOf(attrs) });
    return expectTask(res.body, "create");
  }

  async list(organization: string, include?: string): Promise<RunTaskRecord[]> {
    return (await this.http.listAll(`/organizations/${segment(organization)}/tasks`, { include })).map(readRunTask);
  }

  /** The task, or undefined when the service answers 404. */
  async show(id: string, include?: string): Promise<RunTaskRecord | undefined> {
    const res = await this.http.request("GET", `/tasks/${segment(id)}`, { query: { include }, allowStatus: [404] });
    return res.status === 404 ? undefined : expectTask(res.body, "show");
  }

  async update(id: string, attrs: RunTaskAttributes): Promise<RunTaskRecord> {
    const res = await this.http.request("PATCH", `/tasks/${segment(id)}`, { json: body(attrs), secrets: secretsOf(attrs) });
    return expectTask(res.body, "update");
  }

  /** Deletes the task; false when it did not exist (or is not visible to the token). */
  async delete(id: string): Promise<boolean> {
    const res = await this.http.request("DELETE", `/tasks/${segment(id)}`, { allowStatus: [404] });
    return res.status !== 404;
  }

  /** The task of that name in the organization, looking through every page. */
  async findByName(organization: string, name: string): Promise<RunTaskRecord | undefined> {
    return (await this.list(organization)).find((t) => t.name === name);
  }
}

function secretsOf(attrs: RunTaskAttributes): string[] {
  return attrs.hmacKey ? [attrs.hmacKey] : [];
}

function expectTask(body: unknown, what: string): RunTaskRecord {
  const resource = resourceOf(body);
  if (!resource) throw new Error(`run task service: the ${what} answer holds no task document`);
  return readRunTask(resource);
}

