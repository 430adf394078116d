/** One request served: its route (`GET /api/v2/tasks/:id`), path, and the status answered (0: the connection dropped). */
export interface RequestEntry {
  method: string;
  route: string;
  path: string;
  status: number;
}

/** Counts of requests by route (`GET /api/v2/tasks/:id`) and status, for tests and benchmarks. */
export class RequestLog {
  private readonly counts = new Map<string, number>();
  readonly entries: RequestEntry[] = [];
  /** Bounded so a long benchmark does not grow memory without limit. */
  private static readonly MAX_ENTRIES = 100_000;
  /** Told of every request as it is answered (the emulator command's `--verbose`). */
  onRecord?: (entry: RequestEntry) => void;

  record(method: string, route: string, path: string, status: number): void {
    const key = `${method} ${route}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    const entry = { method, route, path, status };
    if (this.entries.length < RequestLog.MAX_ENTRIES) this.entries.push(entry);
    this.onRecord?.(entry);
  }

  /** Requests per `METHOD route`. */
  byRoute(): Record<string, number> {
    return Object.fromEntries([...this.counts.entries()].sort());
  }

  total(): number {
    let n = 0;
    for (const c of this.counts.values()) n += c;
    return n;
  }

  /** Requests that may change something (everything but GET and LIST). */
  writes(): number {
    return this.entries.filter((e) => e.method !== "GET" && e.method !== "LIST").length;
  }

  reset(): void {
    this.counts.clear();
    this.entries.length = 0;
  }
}
