import type { EmulatorRequest, EmulatorResponse } from "../core/router";
import { badRequest, noEntry, unsupportedOperation } from "./errors";
import { SERVICE_STORAGE_FIELDS } from "./schema";
import { emptyStatus, type HeldConfig, type Snapshotter } from "./snapshotter";
import { validateConfig } from "./validation";

/** Where the endpoints live under `/v1`. */
export const SNAPSHOT_AUTO = "/sys/storage/raft/snapshot-auto";

/** What the handlers share: the configurations held, the snapshotter, how reads answer, and what bodies take. */
export interface SnapshotRouteContext {
  configs: Map<string, HeldConfig>;
  snapshotter: Snapshotter;
  echoCredentials: boolean;
  /** Take PUT as a synonym of POST. */
  acceptPut: boolean;
  /** Take `GET /config?list=true` as a synonym of LIST. */
  acceptGetList: boolean;
  /** Take integers and booleans written as strings in create/update bodies. */
  acceptStringScalars: boolean;
}

/** One endpoint; `handle` runs once the namespace, token, capability and license have been checked. */
export interface SnapshotRoute {
  method: string;
  /** Path under `/v1`, with `:param` segments; it also names the route in request counts. */
  template: string;
  /** Whether the token needs the sudo capability (the config endpoints; not the status endpoint). */
  sudo: boolean;
  handle(req: EmulatorRequest): EmulatorResponse;
}

/**
 * The spec's five endpoints: create/update (POST), list (LIST), read, delete, and status; with the synonyms the
 * spec does not list (PUT, `GET ?list=true`) only when asked for. Without them those requests are 405.
 */
export function snapshotRoutes(ctx: SnapshotRouteContext): SnapshotRoute[] {
  const { configs, snapshotter } = ctx;

  /** POST creates the configuration or replaces it; the status of earlier snapshots is kept. */
  function write(req: EmulatorRequest): EmulatorResponse {
    const result = validateConfig(req.body, ctx.acceptStringScalars);
    if ("errors" in result) return badRequest(result.errors);
    const prior = configs.get(req.params.name);
    if (prior) snapshotter.unschedule(prior);
    const held: HeldConfig = { config: result.config, status: prior?.status ?? emptyStatus() };
    configs.set(req.params.name, held);
    snapshotter.schedule(held);
    return { status: 204 };
  }

  function read(req: EmulatorRequest): EmulatorResponse {
    const held = configs.get(req.params.name);
    if (!held) return noEntry();
    const group = SERVICE_STORAGE_FIELDS[held.config.storage_type];
    const data: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(held.config)) {
      if (group[k]?.credential && !ctx.echoCredentials) continue;
      data[k] = v;
    }
    return { status: 200, body: { data } };
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
