import type { RunTaskStore } from "./store";

/**
 * What a list shows, and when, where a service's lists are not a plain view of what it holds: lists served from a
 * replica that lags behind writes (`lagMs`), and lists that change while a client pages through them, as when
 * another client creates or deletes objects between two page requests (`churn`). Show, update and delete see
 * every object at once either way.
 */
export interface ListBehaviour {
  /** Milliseconds after its create before an object shows in its list. */
  lagMs: number;
  /** Before each page after the first: the list's first object deleted, or a new one made ahead of it. */
  churn?: "remove" | "insert";
}

export class ListViews {
  private copies = 0;

  constructor(
    private readonly store: RunTaskStore,
    private readonly behaviour: ListBehaviour,
  ) {}

  /** The objects of a list a request sees now: those made at least `lagMs` ago. */
  visible<T extends { id: string }>(items: T[]): T[] {
    if (this.behaviour.lagMs <= 0) return items;
    const now = Date.now();
    return items.filter((item) => (this.store.madeAt.get(item.id) ?? 0) + this.behaviour.lagMs <= now);
  }

  /** Before a page of an organization's task list: what another client changes there (page 2 onwards). */
  beforeTaskPage(organization: string, query: URLSearchParams): void {
    const first = this.churning(query) && this.visible(this.store.tasksOf(organization))[0];
    if (!first) return;
    if (this.behaviour.churn === "remove") this.store.deleteTask(first.id);
    else this.store.addTaskFirst({ ...structuredClone(first), name: `${first.name}-${++this.copies}` });
  }

  /** Before a page of a workspace's run task list: what another client changes there (page 2 onwards). */
  beforeWorkspaceTaskPage(workspaceId: string, query: URLSearchParams): void {
    const first = this.churning(query) && this.visible(this.store.workspaceTasksOf(workspaceId))[0];
    if (!first) return;
    if (this.behaviour.churn === "remove") this.store.workspaceTasks.delete(first.id);
    else this.store.addWorkspaceTaskFirst(structuredClone(first));
  }

  private churning(query: URLSearchParams): boolean {
    return this.behaviour.churn !== undefined && Number(query.get("page[number]") ?? "1") > 1;
  }
}
