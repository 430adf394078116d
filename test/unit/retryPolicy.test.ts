import type { AttemptOutcome } from "../../provider/http/client";
import { retryPolicy, serverDelayMs } from "../../provider/http/retry";
import { ServiceError } from "../../provider/http/serviceError";

const response = (status: number, headers: Record<string, string> = {}): AttemptOutcome => ({
  kind: "response",
  response: { status, headers, body: undefined },
});
const transport = (sent: boolean): AttemptOutcome => ({
  kind: "error",
  error: new ServiceError({ service: "s", method: "GET", path: "/x", detail: "ECONNRESET" }),
  sent,
});
const GET = { method: "GET" as const, idempotent: true };
const POST = { method: "POST" as const, idempotent: false };

describe("retryPolicy", () => {
  const policy = () => retryPolicy({ maxRetries: 3, baseDelayMs: 100, maxDelayMs: 1000, budgetMs: 60_000 }, () => 0.5);

  test.each([412, 429, 500, 502, 503, 504])("retries %d for idempotent requests", (status) => {
    expect(policy().delayBefore(1, response(status), GET)).toBeDefined();
  });

  test.each([400, 401, 403, 404, 409, 422, 501])("never retries %d", (status) => {
    expect(policy().delayBefore(1, response(status), GET)).toBeUndefined();
    expect(policy().delayBefore(1, response(status), POST)).toBeUndefined();
  });

  test("a POST is retried only on statuses that say it was not carried out", () => {
    expect(policy().delayBefore(1, response(429), POST)).toBeDefined();
    expect(policy().delayBefore(1, response(412), POST)).toBeDefined();
    for (const status of [500, 502, 503, 504]) expect(policy().delayBefore(1, response(status), POST)).toBeUndefined();
  });

  test("transport failures: idempotent always; a POST only if it was never sent", () => {
    expect(policy().delayBefore(1, transport(true), GET)).toBeDefined();
    expect(policy().delayBefore(1, transport(false), POST)).toBeDefined();
    expect(policy().delayBefore(1, transport(true), POST)).toBeUndefined();
  });

  test("exponential backoff with jitter, capped, and a retry count", () => {
    const p = policy();
    expect([1, 2, 3].map((a) => p.delayBefore(a, response(503), GET))).toEqual([50, 100, 200]);
    expect(p.delayBefore(4, response(503), GET)).toBeUndefined();
    const capped = retryPolicy({ maxRetries: 20, baseDelayMs: 100, maxDelayMs: 1000 }, () => 0.999);
    expect(capped.delayBefore(10, response(503), GET)).toBe(999);
  });

  test("the server's wait wins: Retry-After and X-RateLimit-Reset", () => {
    expect(policy().delayBefore(1, response(429, { "retry-after": "2" }), GET)).toBe(2050);
    expect(policy().delayBefore(1, response(429, { "x-ratelimit-reset": "0.25" }), GET)).toBe(300);
  });

  test("the policy carries the operation's bound for the client to cut attempts short", () => {
    const p = retryPolicy(
      { budgetMs: 90_000 },
      () => 0.5,
      () => 1_000,
    );
    expect(p.bound).toEqual({ deadline: 91_000, ms: 90_000 });
  });

  test("no retry once the operation's budget would be exceeded", () => {
    let now = 0;
    const p = retryPolicy(
      { maxRetries: 10, baseDelayMs: 100, budgetMs: 1000 },
      () => 0.5,
      () => now,
    );
    expect(p.delayBefore(1, response(429, { "retry-after": "0.5" }), GET)).toBe(550);
    now = 600;
    expect(p.delayBefore(2, response(429, { "retry-after": "0.5" }), GET)).toBeUndefined();
  });
});

describe("serverDelayMs", () => {
  test("seconds, fractional seconds, an HTTP date, or nothing", () => {
    const now = () => Date.parse("2026-01-01T00:00:00Z");
    expect(serverDelayMs({ "retry-after": "3" }, now)).toBe(3000);
    expect(serverDelayMs({ "retry-after": "Thu, 01 Jan 2026 00:00:05 GMT" }, now)).toBe(5000);
    expect(serverDelayMs({ "x-ratelimit-reset": "0.125" }, now)).toBe(125);
    // A moment rather than a duration (epoch seconds), as some services send it.
    expect(serverDelayMs({ "x-ratelimit-reset": String(Date.parse("2026-01-01T00:00:02.5Z") / 1000) }, now)).toBe(2500);
    expect(serverDelayMs({ "retry-after": "3", "x-ratelimit-reset": "9" }, now)).toBe(3000);
    expect(serverDelayMs({}, now)).toBeUndefined();
    expect(serverDelayMs({ "retry-after": "soon" }, now)).toBeUndefined();
  });
});
