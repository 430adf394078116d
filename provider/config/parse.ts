import ms from "ms";
import { SnapshotRunTaskError } from "../common/errors";

/** `true`/`false`/`1`/`0`/`yes`/`no`, as users write them in config and environment. */
export function parseBooleanSetting(name: string, value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  const v = value.trim().toLowerCase();
  if (["1", "true", "yes", "on"].includes(v)) return true;
  if (["0", "false", "no", "off"].includes(v)) return false;
  throw new SnapshotRunTaskError("invalid_setting", `${name}: expected true or false, got "${value}"`);
}

/** A duration in milliseconds: plain seconds (`60`) or a duration string (`60s`, `2m`). */
export function parseDurationSetting(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  const millis = /^\d+(\.\d+)?$/.test(v) ? Number(v) * 1000 : ms(v as ms.StringValue);
  if (typeof millis !== "number" || !Number.isFinite(millis) || millis <= 0) {
    throw new SnapshotRunTaskError("invalid_setting", `${name}: expected seconds or a duration such as "30s", got "${value}"`);
  }
  return millis;
}

export function parseCountSetting(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (!/^\d+$/.test(v)) throw new SnapshotRunTaskError("invalid_setting", `${name}: expected a whole number, got "${value}"`);
  return Number(v);
}
