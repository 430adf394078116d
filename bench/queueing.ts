/**
 * Exact mean value analysis of a closed queueing network (Reiser and Lavenberg): `n` operations in flight, each
 * spending `thinkMs` waiting on the service (its requests' latency) and `demandsMs[k]` of CPU at single-server
 * station k (a process's one thread), queueing there behind the others. Returns operations per second. It
 * explains a measured rate from measured CPU demands, and predicts the rate for other demands.
 */
export function meanValueAnalysis(demandsMs: number[], thinkMs: number, n: number): number {
  let queues = demandsMs.map(() => 0);
  let throughput = 0;
  for (let k = 1; k <= n; k++) {
    const residence = demandsMs.map((d, i) => d * (1 + queues[i]));
    throughput = k / (thinkMs + residence.reduce((a, b) => a + b, 0));
    queues = residence.map((r) => throughput * r);
  }
  return throughput * 1000;
}
