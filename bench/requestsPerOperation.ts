import type { ConsumerProject, ProgramSpec } from "../engine";
import { world, type World } from "./harness";

/** Requests one resource's operations make, counted at the emulator, by resource type. */
export interface RequestCounts {
  create: number;
  noOpUp: number;
  update: number;
  refresh: number;
  adopt: number;
  delete: number;
}

const WS = "ws-bench";

function programs(kind: string): { base: ProgramSpec; changed: ProgramSpec; adopted: ProgramSpec; routes: RegExp } {
  switch (kind) {
    case "SnapshotAutoConfig": {
      const args = { interval: "24h", pathPrefix: "p/", storageType: "cloudC-gcs", cloudCGcsBucket: "b" };
      return {
        base: { snapshots: [{ resource: "cfg", args }] },
        changed: { snapshots: [{ resource: "cfg", args: { ...args, retain: 3 } }] },
        adopted: { snapshots: [{ resource: "cfg", args: { ...args, adopt: true } }] },
        routes: /^\w+ \/v1\//,
      };
    }
    case "RunTask": {
      const args = { url: "https://hooks.example.com/x", hmacKey: "k" };
      return {
        base: { runTasks: [{ resource: "task", args }] },
        changed: { runTasks: [{ resource: "task", args: { ...args, enabled: false } }] },
        adopted: { runTasks: [{ resource: "task", args: { ...args, adopt: true } }] },
        routes: /^\w+ \/api\/v2\/(organizations\/:org\/tasks|tasks)/,
      };
    }
    default: {
      const task = { resource: "task", args: { url: "https://hooks.example.com/x" } };
      const args = { workspaceId: WS, enforcementLevel: "advisory" };
      return {
        base: { runTasks: [task], attachments: [{ resource: "attach", task: "task", args }] },
        changed: { runTasks: [task], attachments: [{ resource: "attach", task: "task", args: { ...args, enforcementLevel: "mandatory" } }] },
        adopted: { runTasks: [task], attachments: [{ resource: "attach", task: "task", args: { ...args, adopt: true } }] },
        routes: /^\w+ \/api\/v2\/workspaces\//,
      };
    }
  }
}

async function count(w: World, routes: RegExp, run: () => Promise<unknown>): Promise<number> {
  w.emulator.requests.reset();
  await run();
  return Object.entries(w.emulator.requests.byRoute())
    .filter(([route]) => routes.test(route))
    .reduce((n, [, c]) => n + c, 0);
}

export async function requestsPerOperation(fixture: ConsumerProject): Promise<Record<string, RequestCounts>> {
  const out: Record<string, RequestCounts> = {};
  for (const kind of ["SnapshotAutoConfig", "RunTask", "WorkspaceRunTask"]) {
    const w = await world(fixture, { runTask: { organizations: [{ name: "emulator-org", workspaces: [{ id: WS, name: "bench" }] }] } });
    try {
      const p = programs(kind);
      const base = fixture.capture(p.base);
      const create = await count(w, p.routes, () => w.engine.up(base));
      const noOpUp = await count(w, p.routes, () => w.engine.up(base));
      const update = await count(w, p.routes, () => w.engine.up(fixture.capture(p.changed)));
      const refresh = await count(w, p.routes, () => w.engine.refresh());
      // Adoption: forget the state (the object stays), then create with adopt: true.
      const state = w.engine.state();
      const kept = kind === "WorkspaceRunTask" ? state.resources.filter((r) => r.name === "task") : [];
      state.resources = kept;
      state.save();
      const adopt = await count(w, p.routes, () => w.engine.up(fixture.capture(p.adopted)));
      const del = await count(w, p.routes, () => w.engine.destroy());
      out[kind] = { create, noOpUp, update, refresh, adopt, delete: del };
    } finally {
      await w.close();
    }
  }
  return out;
}
