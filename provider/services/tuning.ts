import { newRetryStats, type RetrySettings, type RetryStats } from "../http/retry";

/** Counts of creates whose answer was lost: outcomes found unknown, objects then found and taken, POSTs sent again. */
export interface CreateStats {
  ambiguous: number;
  adopted: number;
  resent: number;
}

/** Counters the clients keep, for tests and benchmarks. */
export interface ClientStats {
  retries: RetryStats;
  creates: CreateStats;
}

export function newClientStats(): ClientStats {
  return { retries: newRetryStats(), creates: { ambiguous: 0, adopted: 0, resent: 0 } };
}

/**
 * What the clients take beyond the users' settings: retry waits (tests use short ones) and where to count.
 * Part of the provider's context, never a module global.
 */
export interface ClientTuning {
  retry?: Partial<RetrySettings>;
  stats?: ClientStats;
}
