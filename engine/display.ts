import { parsePropertyPath, type Element } from "./propertyPath";

type Props = Record<string, unknown>;

/**
 * One property of a step as the CLI prints it (`~ url: "https://a" => "https://b"`); absent values are undefined,
 * and a secret's values are `[secret]`, as the CLI shows them without `--show-secrets`.
 */
export interface PropertyChange {
  path: string;
  old: unknown;
  new: unknown;
}

/** A resource's properties before and after a step. */
export interface Sides {
  inputs: Props;
  outputs: Props;
}

/**
 * The changes the CLI shows for a step with a detailed diff (pulumi/pulumi `pkg/engine/detailedDiff.go`,
 * `TranslateDetailedDiff`): each entry's old value from the old outputs, or the old inputs where the entry says
 * `inputDiff`; its new value from the new inputs, or, for a refresh and an entry that is not an input diff, from
 * the new outputs.
 */
export function detailedChanges(
  paths: string[],
  inputDiff: readonly string[],
  old: Sides,
  next: Sides,
  refresh: boolean,
  secrets: readonly string[],
): PropertyChange[] {
  return [...paths].sort().map((path) => {
    const byInputs = inputDiff.includes(path);
    const elements = parsePropertyPath(path) ?? [path];
    const change = {
      path,
      old: valueAt(byInputs ? old.inputs : old.outputs, elements),
      new: valueAt(refresh && !byInputs ? next.outputs : next.inputs, elements),
    };
    return masked(change, secrets);
  });
}

/**
 * The changes the CLI shows for a step without a detailed diff (the dynamic provider plugin sends none;
 * `pkg/backend/display/object_diff.go`, `getResourcePropertiesDetails`): outputs against outputs where the new side
 * has outputs (a refresh), else inputs against inputs; every top-level property that differs.
 */
export function plainChanges(old: Sides, next: Sides, refresh: boolean, secrets: readonly string[]): PropertyChange[] {
  const [before, after] = refresh ? [old.outputs, next.outputs] : [old.inputs, next.inputs];
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((k) => k !== "__provider").sort();
  return keys
    .filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]))
    .map((path) => masked({ path, old: before[path], new: after[path] }, secrets));
}

/** `url: "https://a" => "https://b"`. */
export function shown(change: PropertyChange): string {
  const value = (v: unknown) => (v === undefined ? "(none)" : JSON.stringify(v));
  return `${change.path}: ${value(change.old)} => ${value(change.new)}`;
}

function masked(change: PropertyChange, secrets: readonly string[]): PropertyChange {
  if (!secrets.includes(change.path.split(/[.[]/)[0])) return change;
  const mask = (v: unknown) => (v === undefined ? undefined : "[secret]");
  return { path: change.path, old: mask(change.old), new: mask(change.new) };
}

function valueAt(props: Props, path: Element[]): unknown {
  return path.reduce<unknown>((v, k) => (v !== null && typeof v === "object" ? (v as Record<Element, unknown>)[k] : undefined), props);
}
