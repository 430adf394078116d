import { meanValueAnalysis } from "../../bench/queueing";

describe("mean value analysis", () => {
  test("one operation in flight: no queueing, a whole cycle each", () => {
    expect(meanValueAnalysis([2, 3], 15, 1)).toBeCloseTo(1000 / 20);
  });

  test("many in flight: the busiest station's CPU is the ceiling, approached from below", () => {
    const x = meanValueAnalysis([2, 1], 20, 200);
    expect(x).toBeLessThanOrEqual(500);
    expect(x).toBeGreaterThan(495);
  });

  test("few in flight: bounded by parallelism over the cycle, queueing makes it less", () => {
    const x = meanValueAnalysis([1, 1], 20, 4);
    expect(x).toBeLessThan((4 / 22) * 1000);
    expect(x).toBeGreaterThan((4 / 30) * 1000);
  });
});
