import { containsUnknown } from "../common/unknown";
import { secretKeysOfCall } from "../context";
import { tellUser } from "../engineLog";
import type { ResourceTable, ValueType } from "../table/field";
import { diffByTable } from "../table/diff";

type Props = Record<string, unknown>;

/** What an adopt found: the object's id and how to name it, and its state as the provider reads it. */
export interface Adoptable {
  /** E.g. `task-abc in organization "acme"`. */
  found: string;
  state: Props;
  /**
   * Secret arguments the read did not show in full (a write-only key, credentials a service hides or masks), named
   * so, their values never shown: those the adopt writes (the program gives them), and those it leaves as the object
   * holds them (the program does not give them, and nobody could have read them to copy them into it).
   */
  unreadable?: { written: string[]; left: string[]; how: string };
}

/**
 * During a preview, `adopt: true` would otherwise show only as a create. When the arguments are known, the check
 * reads the object the adopt will take over (reads only: a preview changes nothing) and says what the create will
 * change on it, field by field. No secret is shown, old or new: not the table's secrets, not a property the program
 * marks secret (the provider plugins say which), and, where nobody says which (the dynamic provider), no free text;
 * any value the engine sent marked secret is redacted besides. Said through the engine's
 * Log service (engineLog.ts), which the CLI shows with the preview.
 */
export async function noticeAdoption(
  table: ResourceTable,
  olds: Props,
  inputs: Props,
  adoption: {
    /** The kind of object, e.g. "run task". */
    what: string;
    /** The resource as the message names it, e.g. `RunTask "scanner"`. */
    label: (inputs: Props) => string;
    lookUp: (inputs: Props) => Promise<Adoptable | undefined>;
  },
  say: (message: string) => void | Promise<void> = (message) => tellUser("info", message),
): Promise<void> {
  const creating = Object.keys(olds).every((k) => k === "__provider");
  if (inputs.adopt !== true || !creating || containsUnknown(inputs)) return;
  const { what, label, lookUp } = adoption;
  const head = `${label(inputs)}: adopt`;
  let existing: Adoptable | undefined;
  try {
    existing = await lookUp(inputs);
  } catch (err) {
    return say(`${head}: could not read the ${what} to show what will change: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!existing) return say(`${head}: there is no such ${what}; it will be created`);
  const written = new Set(existing.unreadable?.written ?? []);
  const kept = new Set(existing.unreadable?.left ?? []);
  const { changed } = diffByTable(table, existing.state, inputs);
  const keys = [...new Set([...changed, ...written])].filter((key) => !kept.has(key)).sort();
  const secretKeys = secretKeysOfCall();
  const changes = keys.map((key) => {
    if (written.has(key)) return `${key} (set, secret)`;
    const field = table.fields[key];
    if (field?.secret || secretKeys?.has(key)) return inputs[key] === undefined ? `${key} (cleared, secret)` : `${key} (secret)`;
    // Nobody said which values the program holds secret (the dynamic provider): free text may be one, so only a
    // value from a closed set (a switch, a number, an enumeration) is shown.
    if (!secretKeys && !(field && closedSet(field.value))) return `${key} (changed)`;
    return `${key} (${shown(existing.state[key])} → ${shown(inputs[key])})`;
  });
  const left = kept.size > 0 ? `; it does not write ${[...kept].sort().join(", ")}, which no read shows: ${existing.unreadable?.how}` : "";
  await say(
    `${head} takes over ${existing.found}; ${changes.length ? `the create changes ${changes.join(", ")}` : "the create changes nothing"}${left}`,
  );
}

/** Whether every value of a type comes from a closed set: no free text, where a secret could be. */
function closedSet(type: ValueType): boolean {
  switch (type.type) {
    case "string":
      return type.enum !== undefined;
    case "integer":
    case "boolean":
      return true;
    case "array":
      return closedSet(type.items);
    case "object":
      return Object.values(type.fields).every((field) => closedSet(field.value));
    case "oneOf":
      return type.of.every(closedSet);
  }
}

function shown(value: unknown): string {
  if (value === undefined) return "unset";
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}
