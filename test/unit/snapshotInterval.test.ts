import { parseInterval } from "../../provider/snapshotAutoConfig/interval";

describe("parseInterval", () => {
  test.each([
    [86400, 86400],
    ["86400", 86400],
    [" 60 ", 60],
    ["24h", 86400],
    ["90m", 5400],
    ["1h30m", 5400],
    ["1h30m15s", 5415],
    ["1.5h", 5400],
    ["2000ms", 2],
    ["45s", 45],
    // Go's smaller units, which the service takes: nanoseconds and microseconds (us, and the micro sign µ or mu μ).
    ["1000000000ns", 1],
    ["2000000us", 2],
    ["3000000µs", 3],
    ["3000000μs", 3],
    ["1m500000000ns500ms", 61],
    ["0.1h", 360],
    // Go also takes a part without digits before its point, or after it, and a sign before the whole.
    [".5h", 1800],
    ["1.h", 3600],
    ["+24h", 86400],
    ["+3600", 3600],
    ["9223372036s", 9223372036],
  ])("%j is %d seconds", (input, seconds) => {
    expect(parseInterval(input)).toEqual({ ok: true, seconds });
  });

  test.each([
    [0, "must be positive, got 0"],
    [-5, "must be positive, got -5"],
    [1.5, "must be a whole number of seconds, got 1.5"],
    ["0", 'must be positive, got "0"'],
    ["0s", 'must be positive, got "0s"'],
    ["-24h", 'must be positive, got "-24h"'],
    ["+", '"+" is not a duration: use whole seconds (86400) or a duration such as "24h", "90m" or "1h30m"'],
    [".h", '".h" is not a duration: use whole seconds (86400) or a duration such as "24h", "90m" or "1h30m"'],
    ["1.5s", '"1.5s" is not a whole number of seconds (1.5s)'],
    ["1500ms", '"1500ms" is not a whole number of seconds (1.5s)'],
    ["1500000000ns", '"1500000000ns" is not a whole number of seconds (1.5s)'],
    ["1 fortnight", '"1 fortnight" is not a duration: use whole seconds (86400) or a duration such as "24h", "90m" or "1h30m"'],
    ["1d", '"1d" is not a duration: use whole seconds (86400) or a duration such as "24h", "90m" or "1h30m"'],
    ["h", '"h" is not a duration: use whole seconds (86400) or a duration such as "24h", "90m" or "1h30m"'],
    ["", '"" is not a duration: use whole seconds (86400) or a duration such as "24h", "90m" or "1h30m"'],
    [true, 'must be a number of seconds or a duration string such as "24h", got boolean true'],
    [null, 'must be a number of seconds or a duration string such as "24h", got null'],
  ])("%j is rejected", (input, reason) => {
    expect(parseInterval(input)).toEqual({ ok: false, reason });
  });
});
