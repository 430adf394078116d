import { startEmulator, DEFAULT_RUNTASK_TOKEN } from "../../emulator";
import { seededRandom } from "../../emulator/core/faults";

describe("emulator faults", () => {
  test("the per-token rate limit answers 429 with the limit and a fractional reset", async () => {
    const emulator = await startEmulator({ faults: { rateLimitPerSecond: 30 } });
    try {
      const call = (token: string) => fetch(`${emulator.url}/api/v2/organizations/emulator-org/tasks`, { headers: { authorization: `Bearer ${token}` } });
      const answers = await Promise.all(Array.from({ length: 40 }, () => call(DEFAULT_RUNTASK_TOKEN)));
      const limited = answers.filter((a) => a.status === 429);
      expect(answers.filter((a) => a.status === 200)).toHaveLength(30);
      expect(limited).toHaveLength(10);
      expect(limited[0].headers.get("x-ratelimit-limit")).toBe("30");
      expect(Number(limited[0].headers.get("x-ratelimit-reset"))).toBeGreaterThan(0);
      expect(Number(limited[0].headers.get("x-ratelimit-reset"))).toBeLessThanOrEqual(1);
      expect(await limited[0].json()).toEqual({ errors: [{ status: "429", title: "Too many requests", detail: "You have exceeded the API's rate limit of 30 requests per second." }] });
      // Another token has its own allowance; the snapshot API is not limited.
      expect((await call("other-token")).status).toBe(401);
      expect(emulator.faults?.counts.rateLimit).toBe(10);
    } finally {
      await emulator.close();
    }
  });

  test("faults are reproducible from the seed", () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const c = seededRandom(43);
    const run = (r: () => number) => Array.from({ length: 5 }, r);
    expect(run(a)).toEqual(run(b));
    expect(run(seededRandom(42))).not.toEqual(run(c));
  });

  test("injected faults follow the rates: all of one kind at rate 1", async () => {
    const emulator = await startEmulator({ faults: { rates: { serverError: 1 } } });
    try {
      const res = await fetch(`${emulator.url}/api/v2/tasks/task-x`, { headers: { authorization: `Bearer ${DEFAULT_RUNTASK_TOKEN}` } });
      expect([500, 502, 503]).toContain(res.status);
      expect(emulator.faults?.counts.serverError).toBe(1);
    } finally {
      await emulator.close();
    }
  });
});
