import { Router } from "../core/router";
import type { Mount } from "../core/server";

/** Seeds and behaviour of the run task half. */
export interface RunTaskEmulatorOptions {
  organizations?: { name: string; workspaces?: { id?: string; name: string }[] }[];
}

/** The run task API, mounted under `/api/v2`. */
export class RunTaskService {
  private readonly router = new Router();

  constructor(readonly options: RunTaskEmulatorOptions = {}) {}

  mount(): Mount {
    return {
      prefix: "/api/v2",
      router: this.router,
      notFound: () => ({ status: 404, body: { errors: [{ status: "404", title: "not found" }] } }),
      methodNotAllowed: () => ({ status: 405, body: { errors: [{ status: "405", title: "method not allowed" }] } }),
    };
  }

  async close(): Promise<void> {}
}
