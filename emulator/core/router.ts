import type { IncomingMessage, ServerResponse } from "node:http";

/** What a route handler gets: the parsed request. */
export interface EmulatorRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
  /** Parsed JSON body; `undefined` when empty; the raw text when it is not JSON. */
  body: unknown;
  rawBody: string;
  params: Record<string, string>;
}

/** What a route handler answers. `body` undefined means no body. */
export interface EmulatorResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  contentType?: string;
}

export type Handler = (req: EmulatorRequest) => EmulatorResponse | Promise<EmulatorResponse>;

interface Route {
  method: string;
  template: string;
  pattern: RegExp;
  names: string[];
  handler: Handler;
}

/** A small method + path-template router (`/tasks/:id`); the template names the route in request counts. */
export class Router {
  private readonly routes: Route[] = [];

  add(method: string, template: string, handler: Handler): void {
    const names: string[] = [];
    const source = template
      .split("/")
      .map((seg) => {
        if (!seg.startsWith(":")) return seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        names.push(seg.slice(1));
        return "([^/]+)";
      })
      .join("/");
    this.routes.push({ method, template, pattern: new RegExp(`^${source}$`), names, handler });
  }

  /** The route for a request: `match` when found; `methodNotAllowed` when the path exists under another method. */
  find(method: string, path: string): { route: Route; params: Record<string, string> } | "methodNotAllowed" | undefined {
    let pathMatched = false;
    for (const route of this.routes) {
      const m = route.pattern.exec(path);
      if (!m) continue;
      pathMatched = true;
      if (route.method !== method) continue;
      const params: Record<string, string> = {};
      route.names.forEach((n, i) => (params[n] = decodeURIComponent(m[i + 1])));
      return { route, params };
    }
    return pathMatched ? "methodNotAllowed" : undefined;
  }
}

export type { IncomingMessage, ServerResponse };
