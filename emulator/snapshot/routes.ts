import type { EmulatorRequest, EmulatorResponse } from "../core/router";
import { badRequest, noEntry as noEntryOf, unsupportedOperation, type NotFoundBody } from "./errors";
import type { Names } from "./names";
import { COMMON_WIRE_FIELDS, SERVICE_STORAGE_FIELDS } from "./schema";
import { emptyStatus, type HeldConfig, type Snapshotter, type StoredConfig } from "./snapshotter";
import { validateConfig } from "./validation";

/** What a read carries in place of a credential under `echoCredentials: "masked"`. */
export const MASK = "****";

/** Where the endpoints live under `/v1`. */
export const SNAPSHOT_AUTO = "/sys/storage/raft/snapshot-auto";

/** What the handlers share: the configurations held, the snapshotter, how reads answer, and what bodies take. */
export interface SnapshotRouteContext {
  configs: Map<string, HeldConfig>;
  snapshotter: Snapshotter;
  /** Whether reads carry credentials: as they are, not at all, as a placeholder, or the identifiers alone. */
  echoCredentials: boolean | "masked" | "identifiers";
  /** Take PUT as a synonym of POST. */
  acceptPut: boolean;
  /** Take `GET /config?list=true` as a synonym of LIST. */
  acceptGetList: boolean;
  /** Take integers and booleans written as strings in create/update bodies. */
  acceptStringScalars: boolean;
  /** What a 404 for a name the service does not hold carries. */
  notFoundBody: NotFoundBody;
  /** POST keeps the stored keys its body leaves out (those of another storage type included). */
  postMerges: boolean;
}

/**
 * One endpoint; `handle` runs once the namespace, token, capability and license have been checked, and reads and
 * answers in the names the request speaks.
 */
export interface SnapshotRoute {
  method: string;
  /** Path under `/v1`, with `:param` segments; it also names the route in request counts. */
  template: string;
  /** Whether the token needs the sudo capability (the config endpoints; not the status endpoint). */
  sudo: boolean;
  handle(req: EmulatorRequest, names: Names): EmulatorResponse;
}

/**
 * The spec's five endpoints: create/update (POST), list (LIST), read, delete, and status; with the synonyms the
 * spec does not list (PUT, `GET ?list=true`) unless turned off. Without them those requests are 405.
 */
export function snapshotRoutes(ctx: SnapshotRouteContext): SnapshotRoute[] {
  const { configs, snapshotter } = ctx;
  const noEntry = () => noEntryOf(ctx.notFoundBody);

  /**
   * POST creates the configuration or replaces it; the status of earlier snapshots is kept. Under `postMerges` an
   * update keeps every stored key the body leaves out: the body's own fields and the stored ones of the selected
   * storage type are checked together, and keys of another storage type stay as they were, unchecked, as a
   * service that merges updates into what it holds does.
   */
  function write(req: EmulatorRequest, names: Names): EmulatorResponse {
    const prior = configs.get(req.params.name);
    const merge = ctx.postMerges && prior !== undefined && isObject(req.body);
    const body = merge ? { ...names.fromStored(prior.config), ...(req.body as Record<string, unknown>) } : req.body;
    const { kept, checked } = merge ? splitByGroup(body as Record<string, unknown>, names) : { kept: {}, checked: body };
    const result = validateConfig(checked, ctx.acceptStringScalars, names);
    if ("errors" in result) return badRequest(result.errors);
    if (prior) snapshotter.unschedule(prior);
    const held: HeldConfig = { config: names.toStored({ ...kept, ...result.config }), status: prior?.status ?? emptyStatus() };
    configs.set(req.params.name, held);
    snapshotter.schedule(held);
    return { status: 204 };
  }

  function read(req: EmulatorRequest, names: Names): EmulatorResponse {
    const held = configs.get(req.params.name);
    if (!held) return noEntry();
    const data: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(held.config)) {
      const credential = Object.values(SERVICE_STORAGE_FIELDS).find((group) => group[k]?.credential)?.[k]?.credential;
      if (credential && (ctx.echoCredentials === false || (ctx.echoCredentials === "identifiers" && credential === "secret"))) continue;
      data[k] = credential && ctx.echoCredentials === "masked" && v !== "" ? MASK : v;
    }
    return { status: 200, body: { data: names.fromStored(data as StoredConfig) } };
  }

  function list(): EmulatorResponse {
    const keys = [...configs.keys()].sort();
    return keys.length === 0 ? noEntry() : { status: 200, body: { data: { keys } } };
  }

  function remove(req: EmulatorRequest): EmulatorResponse {
    const held = configs.get(req.params.name);
    if (!held) return noEntry();
    snapshotter.unschedule(held);
    configs.delete(req.params.name);
    return { status: 204 };
  }

  function status(req: EmulatorRequest): EmulatorResponse {
    const held = configs.get(req.params.name);
    return held ? { status: 200, body: { data: { ...held.status } } } : noEntry();
  }

  /** The keys of a merged body that the selected storage type does not take, and the rest. */
  function splitByGroup(body: Record<string, unknown>, names: Names): { kept: Record<string, unknown>; checked: Record<string, unknown> } {
    const group = names.storageFields[String(body.storage_type)] ?? {};
    const kept: Record<string, unknown> = {};
    const checked: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(body)) {
      if (COMMON_WIRE_FIELDS.includes(k) || Object.hasOwn(group, k)) checked[k] = v;
      else kept[k] = v;
    }
    return { kept, checked };
  }

  const routes: SnapshotRoute[] = [
    { method: "POST", template: `${SNAPSHOT_AUTO}/config/:name`, sudo: true, handle: write },
    { method: "GET", template: `${SNAPSHOT_AUTO}/config/:name`, sudo: true, handle: read },
    { method: "DELETE", template: `${SNAPSHOT_AUTO}/config/:name`, sudo: true, handle: remove },
    { method: "LIST", template: `${SNAPSHOT_AUTO}/config`, sudo: true, handle: list },
    { method: "GET", template: `${SNAPSHOT_AUTO}/status/:name`, sudo: false, handle: status },
  ];
  if (ctx.acceptPut) routes.push({ method: "PUT", template: `${SNAPSHOT_AUTO}/config/:name`, sudo: true, handle: write });
  if (ctx.acceptGetList) {
    routes.push({
      method: "GET",
      template: `${SNAPSHOT_AUTO}/config`,
      sudo: true,
      handle: (req) => (req.query.get("list") === "true" ? list() : unsupportedOperation()),
    });
  }
  return routes;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
