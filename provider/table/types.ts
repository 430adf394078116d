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

/** The arguments a resource takes, as plain values. */
export type ArgsOf<T extends ResourceTable> = { -readonly [K in ArgName<T["fields"]>]?: InputOf<T["fields"][K]> };

/** A resource's state: every field, as plain values. */
export type StateOf<T extends ResourceTable> = { -readonly [K in keyof T["fields"]]?: ValueOf<T["fields"][K]> };

/** True when A and B are the same type (each assignable to the other). */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** Compiles only when given `true`: `assertType<Same<A, B>>(true)`. */
export function assertType<T extends true>(_proof: T): void {}
