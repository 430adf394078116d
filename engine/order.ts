/** At most `size` tasks at once (`pulumi up --parallel`). */
export class Semaphore {
  private waiting: (() => void)[] = [];
  private active = 0;
  constructor(private readonly size: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await task();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}

interface Node {
  urn: string;
  dependencies?: string[];
}

/** Runs `op` for every item once the items it depends on are done, `parallelism` at a time. */
export async function inDependencyOrder<T extends Node>(items: T[], parallelism: number, op: (item: T) => Promise<void>): Promise<void> {
  const done = new Map<string, Promise<void>>();
  const slots = new Semaphore(parallelism);
  for (const item of items) {
    const deps = (item.dependencies ?? []).map((urn) => done.get(urn)).filter((p): p is Promise<void> => p !== undefined);
    done.set(
      item.urn,
      Promise.all(deps).then(() => slots.run(() => op(item))),
    );
  }
  await Promise.all(done.values());
}

/**
 * Runs `op` for every item once every item that depends on it is done, `parallelism` at a time. Two items may share
 * a URN (an old object waiting for its delete beside its replacement).
 */
export async function inReverseDependencyOrder<T extends Node>(items: T[], parallelism: number, op: (item: T) => Promise<void>): Promise<void> {
  const done = new Map<T, Promise<void>>();
  const slots = new Semaphore(parallelism);
  for (const item of [...items].reverse()) {
    const dependents = items
      .filter((other) => other.dependencies?.includes(item.urn))
      .map((d) => done.get(d))
      .filter((p): p is Promise<void> => p !== undefined);
    done.set(
      item,
      Promise.all(dependents).then(() => slots.run(() => op(item))),
    );
  }
  await Promise.all(done.values());
}
