import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type Emulator, type EmulatorData, DEFAULT_RUNTASK_TOKEN, DEFAULT_SNAPSHOT_TOKEN } from "../../emulator";
import { request } from "undici";
import { seededRandom, type RetryAfterStyle } from "../../emulator/core/faults";

describe("emulator faults", () => {
  test("the per-token rate limit answers 429 with the limit and a fractional reset", async () => {
    const emulator = await startEmulator({ faults: { rateLimitPerSecond: 30 } });
    try {
      const call = (token: string) =>
        fetch(`${emulator.url}/api/v2/organizations/emulator-org/tasks`, { headers: { authorization: `Bearer ${token}` } });
      const answers = await Promise.all(Array.from({ length: 40 }, () => call(DEFAULT_RUNTASK_TOKEN)));
      const limited = answers.filter((a) => a.status === 429);
      expect(answers.filter((a) => a.status === 200)).toHaveLength(30);
      expect(limited).toHaveLength(10);
      expect(limited[0].headers.get("x-ratelimit-limit")).toBe("30");
      expect(Number(limited[0].headers.get("x-ratelimit-reset"))).toBeGreaterThan(0);
      expect(Number(limited[0].headers.get("x-ratelimit-reset"))).toBeLessThanOrEqual(1);
      expect(await limited[0].json()).toEqual({
        errors: [{ status: "429", title: "Too many requests", detail: "You have exceeded the API's rate limit of 30 requests per second." }],
      });
      // Another token has its own allowance (an unknown one: 401, not 429); the snapshot API is not limited.
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

describe("emulator faults: routes, headers, drops, tokens", () => {
  const CONFIG = "/v1/sys/storage/raft/snapshot-auto/config";
  const snapshotHeaders = { "x-service-token": DEFAULT_SNAPSHOT_TOKEN, "content-type": "application/json" };
  const body = JSON.stringify({ interval: 60, path_prefix: "p/", storage_type: "cloudC-gcs", cloudC_gcs_bucket: "b" });
  let emulator: Emulator | undefined;
  afterEach(async () => {
    await emulator?.close();
    emulator = undefined;
  });

  test("rules give each route its own rates; the first that matches wins", async () => {
    emulator = await startEmulator({
      faults: {
        rates: { rateLimited: 1 },
        rules: [
          { route: `POST ${CONFIG}/:name`, rates: { serverError: 1 } },
          { route: /^DELETE /, rates: {} },
        ],
      },
    });
    const post = await fetch(`${emulator.url}${CONFIG}/a`, { method: "POST", headers: snapshotHeaders, body });
    const del = await fetch(`${emulator.url}${CONFIG}/a`, { method: "DELETE", headers: snapshotHeaders });
    const get = await fetch(`${emulator.url}${CONFIG}/a`, { headers: snapshotHeaders });
    expect([500, 502, 503]).toContain(post.status);
    expect(del.status).toBe(404);
    expect(get.status).toBe(429);
    expect(emulator.faults!.counts).toMatchObject({ serverError: 1, rateLimited: 1 });
    expect(emulator.faults!.variants[`serverError ${post.status}`]).toBe(1);
  });

  test.each<[RetryAfterStyle, (h: Headers) => void]>([
    ["reset", (h) => expect([h.get("x-ratelimit-reset"), h.get("retry-after")]).toEqual([expect.stringMatching(/^0\.\d{3}$/), null])],
    ["seconds", (h) => expect([h.get("x-ratelimit-reset"), h.get("retry-after")]).toEqual([null, "1"])],
    ["both", (h) => expect([h.get("x-ratelimit-reset"), h.get("retry-after")]).toEqual([expect.stringMatching(/^0\.\d{3}$/), "1"])],
    [
      "date",
      (h) => {
        const wait = Date.parse(h.get("retry-after")!) - Date.now();
        expect(wait).toBeGreaterThan(-1000);
        expect(wait).toBeLessThanOrEqual(1250);
        expect(h.get("x-ratelimit-reset")).toBeNull();
      },
    ],
  ])("an injected 429 says when to come back: %s", async (style, check) => {
    emulator = await startEmulator({ faults: { rates: { rateLimited: 1 }, retryAfter: style } });
    const res = await fetch(`${emulator.url}${CONFIG}/a`, { headers: snapshotHeaders });
    expect(res.status).toBe(429);
    check(res.headers);
    // The snapshot API has no advertised limit; its errors are strings.
    expect(res.headers.get("x-ratelimit-limit")).toBeNull();
    expect(await res.json()).toEqual({ errors: ["You have exceeded the API's rate limit."] });
    expect(emulator.faults!.variants).toEqual({ [`rateLimited ${style}`]: 1 });
  });

  test("mixed 429s use every style", async () => {
    emulator = await startEmulator({ faults: { seed: 5, rates: { rateLimited: 1 } } });
    for (let i = 0; i < 40; i++) await fetch(`${emulator.url}${CONFIG}/a`, { headers: snapshotHeaders });
    expect(Object.keys(emulator.faults!.variants).sort()).toEqual([
      "rateLimited both",
      "rateLimited date",
      "rateLimited reset",
      "rateLimited seconds",
    ]);
  });

  test("a drop before the commit changes nothing; a drop after it has made the change, without an answer", async () => {
    emulator = await startEmulator({
      snapshot: { takeSnapshots: false },
      faults: { rules: [{ route: `POST ${CONFIG}/:name`, rates: { dropBeforeCommit: 1 } }] },
    });
    await expect(fetch(`${emulator.url}${CONFIG}/before`, { method: "POST", headers: snapshotHeaders, body })).rejects.toThrow();
    expect(emulator.snapshot.configs.has("before")).toBe(false);
    await emulator.close();
    emulator = await startEmulator({
      snapshot: { takeSnapshots: false },
      faults: { rules: [{ route: `POST ${CONFIG}/:name`, rates: { dropAfterCommit: 1 } }] },
    });
    await expect(fetch(`${emulator.url}${CONFIG}/after`, { method: "POST", headers: snapshotHeaders, body })).rejects.toThrow();
    expect(emulator.snapshot.configs.has("after")).toBe(true);
    expect(emulator.faults!.counts.dropAfterCommit).toBe(1);
  });

  test("a reset after the commit has made the change, then resets the connection: the client sees ECONNRESET", async () => {
    emulator = await startEmulator({
      snapshot: { takeSnapshots: false },
      faults: { rules: [{ route: `POST ${CONFIG}/:name`, rates: { resetAfterCommit: 1 } }] },
    });
    const err = (await request(`${emulator.url}${CONFIG}/after`, { method: "POST", headers: snapshotHeaders, body }).catch(
      (e) => e,
    )) as NodeJS.ErrnoException;
    expect(err.code).toBe("ECONNRESET");
    expect(emulator.snapshot.configs.has("after")).toBe(true);
    expect(emulator.faults!.counts.resetAfterCommit).toBe(1);
    expect(emulator.requests.entries.map((e) => e.status)).toEqual([0]);
  });

  test("a rule with times applies to that many requests of its route, the first ones", async () => {
    emulator = await startEmulator({
      snapshot: { takeSnapshots: false },
      faults: { rates: { serverError: 1 }, rules: [{ route: `POST ${CONFIG}/:name`, rates: { serverError: 1 }, times: 2 }] },
    });
    const post = () => fetch(`${emulator!.url}${CONFIG}/a`, { method: "POST", headers: snapshotHeaders, body }).then((r) => r.status);
    const statuses = [await post(), await post(), await post(), await post()];
    expect(statuses.slice(0, 2).every((s) => s >= 500)).toBe(true);
    // Spent, the rule lets its route's requests pass: the route's own rule, not `rates`, decides for it.
    expect(statuses.slice(2)).toEqual([204, 204]);
    expect(emulator.faults!.counts.serverError).toBe(2);
  });

  test("the per-token limit counts the token of either header, each token on its own", async () => {
    emulator = await startEmulator({
      snapshot: { tokens: { a: { sudo: true }, b: { sudo: true } } },
      faults: { rateLimitPerSecond: 2, rateLimitRoutes: /./ },
    });
    const get = (headers: Record<string, string>) => fetch(`${emulator!.url}${CONFIG}/x`, { headers }).then((r) => r.status);
    const asA = [await get({ "x-service-token": "a" }), await get({ "x-service-token": "a" }), await get({ "x-service-token": "a" })];
    const asB = await get({ "x-service-token": "b" });
    // The same token as a bearer token shares the window.
    const bearerA = await get({ authorization: "Bearer a" });
    expect([...asA, asB, bearerA]).toEqual([404, 404, 429, 404, 429]);
    expect(emulator.faults!.counts.rateLimit).toBe(2);
  });

  test("added latency is counted", async () => {
    emulator = await startEmulator({ faults: { latencyMs: { min: 1, max: 3 } } });
    await fetch(`${emulator.url}${CONFIG}/x`, { headers: snapshotHeaders });
    expect(emulator.faults!.counts.delayed).toBe(1);
  });

  test("answer latency: the request is carried out and the data file written before the answer, which waits", async () => {
    const dir = mkdtempSync(join(tmpdir(), "answer-latency-"));
    try {
      emulator = await startEmulator({ dataFile: join(dir, "data.json"), faults: { answerLatencyMs: 1_000 } });
      const started = Date.now();
      // A client that gives up first, as one killed would: the configuration is made, and the file holds it.
      const post = fetch(`${emulator.url}${CONFIG}/held`, { method: "POST", headers: snapshotHeaders, body, signal: AbortSignal.timeout(200) });
      await expect(post).rejects.toThrow();
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(emulator.snapshot.configs.has("held")).toBe(true);
      expect((JSON.parse(readFileSync(join(dir, "data.json"), "utf8")) as EmulatorData).snapshot.configs.map((c) => c.name)).toEqual(["held"]);
      const read = await fetch(`${emulator.url}${CONFIG}/held`, { headers: snapshotHeaders });
      expect([read.status, Date.now() - started >= 1_000]).toEqual([200, true]);
      expect(emulator.faults!.counts.delayed).toBe(2);
    } finally {
      await emulator?.close();
      emulator = undefined;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("the same seed and the same requests give the same faults", async () => {
    const run = async () => {
      const e = await startEmulator({ faults: { seed: 99, rates: { rateLimited: 0.1, serverError: 0.1, dropBeforeCommit: 0.1 } } });
      const outcomes: (number | string)[] = [];
      for (let i = 0; i < 40; i++)
        outcomes.push(
          await fetch(`${e.url}${CONFIG}/x`, { headers: snapshotHeaders }).then(
            (r) => r.status,
            () => "dropped",
          ),
        );
      await e.close();
      return outcomes;
    };
    const first = await run();
    expect(new Set(first).size).toBeGreaterThan(3);
    expect(await run()).toEqual(first);
  });

  test("rates that add up to more than 1 are refused", async () => {
    await expect(startEmulator({ faults: { rates: { serverError: 0.7, rateLimited: 0.4 } } })).rejects.toThrow(
      "fault rates add up to 1.1, more than 1",
    );
  });
});
