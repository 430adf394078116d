import { startEmulator } from "../emulator";
import { DEFAULT_RUNTASK_TOKEN } from "../emulator/runtask/access";
import { closeSharedDispatchers } from "../provider/http/dispatcher";
import { runTaskEndpoints } from "../provider/services/runtask/endpoints";
import { LATENCY_MS, type Measured } from "./setting";

export interface ListingFigures {
  /** Where the section was measured on its own (with the provider's own work), when and on what code. */
  measured?: Measured;
  tasks: number;
  requests: number;
  ms: number;
  latencyMs: number;
}

/** `listRunTasks` over 10,000 tasks, through the same client the function uses. */
export async function listing(tasks = 10_000): Promise<ListingFigures> {
  const emulator = await startEmulator({ faults: { latencyMs: LATENCY_MS } });
  try {
    for (let i = 0; i < tasks; i++) {
      emulator.runTask.store.addTask({
        organization: "emulator-org",
        name: `t-${i}`,
        url: "https://h.example",
        category: "task",
        description: null,
        hmacKey: null,
        enabled: true,
        global: { enabled: false, stages: [], enforcementLevel: null },
      });
    }
    const settings: Record<string, string> = { "runtask:address": emulator.url, "runtask:token": DEFAULT_RUNTASK_TOKEN };
    const api = runTaskEndpoints((key) => settings[key]);
    emulator.requests.reset();
    const started = process.hrtime.bigint();
    const listed = (await api.listTasks("emulator-org")).items;
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (listed.length !== tasks) throw new Error(`listed ${listed.length} of ${tasks} tasks`);
    return { tasks, requests: emulator.requests.total(), ms: Math.round(ms), latencyMs: LATENCY_MS };
  } finally {
    await emulator.close();
    await closeSharedDispatchers();
  }
}
