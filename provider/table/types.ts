import type { FieldTable, ResourceTable, ValueType } from "./field";

/**
 * TypeScript types derived from a table, so that the SDK's interfaces and the providers' states are checked
 * against it at compile time: a field in one and not the other fails the type check.
 */
export type TypeOf<V> = V extends { type: "string"; enum: infer E extends readonly string[] }
  ? E[number]
  : V extends { type: "string" }
    ? string
    : V extends { type: "integer" }
      ? number
      : V extends { type: "boolean" }
        ? boolean
        : V extends { type: "array"; items: infer I }
          ? TypeOf<I>[]
          : V extends { type: "object"; fields: infer F extends FieldTable }
            ? { -readonly [K in keyof F]?: ValueOf<F[K]> }
            : V extends { type: "oneOf"; of: readonly (infer O)[] }
              ? TypeOf<O>
              : never;

/** The type of a field's value in state. */
export type ValueOf<F> = F extends { value: infer V extends ValueType } ? TypeOf<V> : never;

/** The type a field's argument accepts. */
export type InputOf<F> = F extends { input: infer I extends ValueType } ? TypeOf<I> : ValueOf<F>;

/** Argument names of a table (outputs excluded). */
export type ArgName<F extends FieldTable> = { [K in keyof F]: F[K] extends { output: true } ? never : K }[keyof F] & string;

/** The arguments of a parameter group (a storage type), and those of them it requires. */
export type GroupArgName<F extends FieldTable, G extends string> = { [K in keyof F]: F[K] extends { group: G } ? K : never }[keyof F] & string;
export type RequiredGroupArgName<F extends FieldTable, G extends string> = {
  [K in keyof F]: F[K] extends { group: G; required: true } ? K : never;
}[keyof F] &
  string;

/** The arguments a resource takes, as plain values. */
export type ArgsOf<T extends ResourceTable> = { -readonly [K in ArgName<T["fields"]>]?: InputOf<T["fields"][K]> };

/** A resource's state: every field, as plain values. */
export type StateOf<T extends ResourceTable> = { -readonly [K in keyof T["fields"]]?: ValueOf<T["fields"][K]> };

/**
 * Whether every record read back holds the field: an output the service sets, a required argument or one with a
 * default, but no parameter of a group (a storage type's), which only the selected group's records have.
 */
type AlwaysPresent<F> = F extends { output: true }
  ? true
  : F extends { group: string }
    ? false
    : F extends { required: true }
      ? true
      : F extends { default: { value: unknown } }
        ? true
        : false;

type PresentKey<F extends FieldTable> = { [K in keyof F]: AlwaysPresent<F[K]> extends true ? K : never }[keyof F];

/** The type of a field's value as records read back hold it: nested objects as records too. */
type ReadOf<V> = V extends { type: "object"; fields: infer F extends FieldTable }
  ? RecordOf<F>
  : V extends { type: "array"; items: infer I }
    ? ReadOf<I>[]
    : TypeOf<V>;

/**
 * A record as the service's answers are read back (a resource's outputs, a function's result): the fields every
 * record holds required, the others optional. The read side's types are checked against it.
 */
export type RecordOf<F extends FieldTable> = {
  -readonly [K in PresentKey<F>]: F[K] extends { value: infer V } ? ReadOf<V> : never;
} & {
  -readonly [K in Exclude<keyof F, PresentKey<F>>]?: F[K] extends { value: infer V } ? ReadOf<V> : never;
};

/** True when A and B are the same type (each assignable to the other). */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** True when A and B have the same keys, optional ones included, each of the same type. */
export type SameRecord<A, B> = Same<keyof A, keyof B> extends true ? Same<A, B> : false;

/** Compiles only when given `true`: `assertType<Same<A, B>>(true)`. */
export function assertType<T extends true>(_proof: T): void {}
