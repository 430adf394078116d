import { runTaskTable } from "../provider/runTask/fields";
import { snapshotAutoConfigTable } from "../provider/snapshotAutoConfig/fields";
import { secretArgs } from "../provider/table/derived";
import type { ProvisioningStackOptions } from "./options";

export const REDACTED = "[secret]";

/** Names of environment variables whose values are taken for secrets (`PULUMI_ACCESS_TOKEN`, `AWS_SECRET_ACCESS_KEY`...). */
const SECRET_NAME = /TOKEN|SECRET|PASSWORD|PASSPHRASE|PRIVATE|CREDENTIAL|ACCESS_KEY|API_KEY/i;

/** Shorter values are left alone: replacing them would garble the text and hide nothing worth hiding. */
const SHORTEST_SECRET = 4;

/**
 * Every secret value the options hold: the tokens, the passphrase, secret config entries, environment
 * variables named as secrets, and the description's secret arguments (HMAC keys, cloud credentials).
 */
export function secretsOf(options: Partial<ProvisioningStackOptions>): string[] {
  const found: unknown[] = [options.credentials?.snapshot?.token, options.credentials?.runTask?.token, options.passphrase];
  for (const entry of Object.values(options.config ?? {})) if (entry.secret) found.push(entry.value);
  for (const [name, value] of Object.entries(options.envVars ?? {})) if (SECRET_NAME.test(name)) found.push(value);
  const description = options.description ?? {};
  const snapshotSecrets = secretArgs(snapshotAutoConfigTable.fields);
  for (const args of Object.values(description.snapshots ?? {}))
    for (const key of snapshotSecrets) found.push((args as unknown as Record<string, unknown>)[key]);
  const runTaskSecrets = secretArgs(runTaskTable.fields);
  for (const args of Object.values(description.runTasks ?? {}))
    for (const key of runTaskSecrets) found.push((args as unknown as Record<string, unknown>)[key]);
  const secrets = found.filter((v): v is string => typeof v === "string" && v.length >= SHORTEST_SECRET);
  // Longest first, so that a secret containing another is replaced whole.
  return [...new Set(secrets)].sort((a, b) => b.length - a.length);
}

/** `text` with every occurrence of each secret replaced by `[secret]`. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}

/**
 * Redacts, in place, every string an error carries: its message and stack, and the strings of the objects it
 * holds (the Automation API's `commandResult`, the process error inside it with the command line and output,
 * a `cause`). A second guard: the helper puts no secret on a command line, but the CLI's output is its own.
 */
export function redactError(err: unknown, secrets: readonly string[]): void {
  if (secrets.length === 0) return;
  const seen = new Set<object>();
  const visit = (value: unknown, depth: number) => {
    if (value === null || typeof value !== "object" || seen.has(value) || depth > 4) return;
    seen.add(value);
    const record = value as Record<string, unknown>;
    for (const key of new Set([...Object.getOwnPropertyNames(value), "message", "stack"])) {
      let field: unknown;
      try {
        field = record[key];
      } catch {
        continue;
      }
      let clean = field;
      if (typeof field === "string") clean = redact(field, secrets);
      else if (Array.isArray(field)) clean = field.map((item) => (typeof item === "string" ? redact(item, secrets) : (visit(item, depth + 1), item)));
      else visit(field, depth + 1);
      if (clean === field || (Array.isArray(field) && (clean as unknown[]).every((item, i) => item === field[i]))) continue;
      try {
        record[key] = clean;
      } catch {
        // a read-only property: left as it is
      }
    }
  };
  visit(err, 0);
}

/**
 * The event, or a copy with every secret replaced when one appears in it (a provider's message can quote what it
 * was given). Events are small; most hold no secret and pass as they are.
 */
export function redactEvent<T extends object>(event: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return event;
  const text = JSON.stringify(event);
  // A secret appears in the JSON text as JSON writes it (quotes and backslashes escaped).
  const written = secrets.map((s) => JSON.stringify(s).slice(1, -1));
  if (!written.some((s) => text.includes(s))) return event;
  return JSON.parse(redact(text, written)) as T;
}
