import type { EmulatorRequest, EmulatorResponse } from "../core/router";
import type { TokenGrant } from "./access";
import type { RenderOptions } from "./documents";
import type { ListViews } from "./listViews";
import type { PageLimits } from "./pagination";
import type { RunTaskStore } from "./store";
import type { HmacKeyAttribute } from "./validation";

/** What the route handlers share: the data, how to render it, and how the associate call answers. */
export interface RouteContext {
  store: RunTaskStore;
  render: RenderOptions;
  associateResponse: "201" | "204";
  /** Whether show (`GET /tasks/:id`) carries `global-configuration`; the other answers always do. */
  showGlobalConfiguration: boolean;
  /** How lists bound `page[size]`. */
  paging: PageLimits;
  /** Whether a task's answers leave out the associations on workspaces the token may not manage. */
  includeVisibleOnly?: boolean;
  /** Whether two tasks of one name (in an organization), or two associations of one task (in a workspace), may exist. */
  acceptDuplicates: boolean;
  /** What lists show, and when (a lag behind writes, changes between pages). */
  lists: ListViews;
  /** The attribute a task's HMAC key is read from. */
  hmacKeyAttribute: HmacKeyAttribute;
}

/** One endpoint; `handle` runs once the token is known and the content type accepted. */
export interface ApiRoute {
  method: string;
  /** Path under `/api/v2`, with `:param` segments; it also names the route in request counts. */
  template: string;
  handle(req: EmulatorRequest, grant: TokenGrant): EmulatorResponse;
}

/** `http://host:port` as the client addressed the emulator, for absolute links; empty without a Host header. */
export function requestOrigin(req: EmulatorRequest): string {
  const host = req.headers.host;
  return host ? `http://${host}` : "";
}
