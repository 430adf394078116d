import { jsonEqual } from "../common/jsonEqual";
import { containsUnknown } from "../common/unknown";
import { withDefaults } from "./check";
import type { FieldTable, ResourceTable } from "./field";
import { argsWhoseChange, identityArgs, keysOutsideDiff } from "./derived";

type Props = Record<string, unknown>;

/** The engine's answer to a diff, as the dynamic provider returns it. */
export interface DiffOutcome {
  changes: boolean;
  replaces: string[];
  deleteBeforeReplace: boolean;
}

/** The diff with the arguments that changed, for the plugins' detailed diff. */
export interface DiffDetail extends DiffOutcome {
  changed: string[];
}

/**
 * `olds` are the outputs in state, `news` the checked inputs. The old state is brought to the checked form first
 * (defaults of a later version, normalised values), so that an old state does not show a spurious change. An
 * unknown new value counts as a change: during preview the engine must show an update (or replace), not nothing.
 * Outputs, arguments that change nothing, deprecated aliases and internal keys (`__provider`, what a provider keeps of
 * a service's ways, such as `__hiddenCredentials`; the engine does not show them either) are not compared.
 */
export function diffByTable(table: ResourceTable, olds: Props, news: Props): DiffDetail {
  const { fields } = table;
  const old = normaliseState(fields, olds);
  const { outside, replaceOn } = diffKeys(fields);
  const changed: string[] = [];
  for (const key of new Set([...Object.keys(old), ...Object.keys(news)])) {
    if (key.startsWith("__") || outside.has(key)) continue;
    const same = fields[key]?.same ?? jsonEqual;
    if (containsUnknown(news[key]) || !same(old[key], news[key])) changed.push(key);
  }
  changed.sort();
  const deleteBeforeReplace = identityKept(diffKeys(fields).identity, old, news);
  return { changes: changed.length > 0, replaces: changed.filter((k) => replaceOn.has(k)), deleteBeforeReplace, changed };
}

/**
 * Whether a replacement would make an object with the old one's identity (`Field.identity`): every identity field
 * known and the same. The answer holds whatever decides the replacement (this diff, the resource's
 * `replaceOnChanges`, which the engine applies to this answer), except `pulumi up --replace`, which the engine
 * decides without a diff. Created first, such a replacement would be refused as a duplicate, or (adopted) take the
 * old object over just before the old resource's delete removes it.
 */
function identityKept(identity: readonly string[], old: Props, news: Props): boolean {
  return identity.every((key) => !containsUnknown(news[key]) && jsonEqual(old[key], news[key]));
}

interface DiffKeys {
  outside: Set<string>;
  replaceOn: Set<string>;
  identity: string[];
}

const keysByTable = new WeakMap<FieldTable, DiffKeys>();

/** The keys the diff leaves out, those that replace and those that name the object, derived once per table. */
function diffKeys(fields: FieldTable): DiffKeys {
  let keys = keysByTable.get(fields);
  if (!keys) {
    keys = { outside: keysOutsideDiff(fields), replaceOn: new Set(argsWhoseChange(fields, "replace")), identity: identityArgs(fields) };
    keysByTable.set(fields, keys);
  }
  return keys;
}

/** The engine's diff answer alone (what the dynamic provider returns). */
export function outcomeOf({ changes, replaces, deleteBeforeReplace }: DiffDetail): DiffOutcome {
  return { changes, replaces, deleteBeforeReplace };
}

/** A state in the form `check` gives its inputs: defaults filled, values normalised. */
export function normaliseState(fields: FieldTable, state: Props): Props {
  const out = withDefaults(fields, state);
  for (const [key, field] of Object.entries(fields)) {
    if (field.normalise && out[key] !== undefined) out[key] = field.normalise(out[key]);
  }
  return out;
}
