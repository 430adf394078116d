import type * as pulumi from "@pulumi/pulumi";
import type { ResourceTable } from "../provider/table/field";
import type { ArgName, ArgsOf, RecordOf, Same, SameRecord } from "../provider/table/types";

/**
 * `true` when an SDK `Args` interface has exactly the table's arguments, each taking the table's type once its
 * inputs are resolved. Used as `assertType<ArgsMatchTable<Args, typeof table>>(true)`: a field in one and not
 * the other, or of another type, fails the type check.
 */
export type ArgsMatchTable<A, T extends ResourceTable> =
  Same<keyof A, ArgName<T["fields"]>> extends true ? Same<{ [K in keyof A]-?: pulumi.Unwrap<NonNullable<A[K]>> }, Required<ArgsOf<T>>> : false;

/** The outputs a resource class declares (`declare readonly x: pulumi.Output<T>`), as plain values. */
type DeclaredOutputs<C> = { [K in Exclude<keyof C, keyof pulumi.CustomResource>]: C[K] extends pulumi.Output<infer V> ? V : never };

/** Each key of a record, required, its type with `undefined` where the key is optional (as an Output carries it). */
type Settled<R> = { [K in KeysOf<R>]: R[K] };
/** `keyof R`, hidden from the mapped type above so that it is not homomorphic: an optional key's `undefined` stays. */
type KeysOf<R> = keyof R extends infer K extends keyof R ? K : never;

/**
 * `true` when a resource class declares exactly the table's outputs (every field: the arguments as applied and
 * what the service sets), each of the type records read back hold. Used as
 * `assertType<OutputsMatchTable<RunTask, typeof runTaskTable>>(true)`.
 */
export type OutputsMatchTable<C, T extends ResourceTable> = SameRecord<DeclaredOutputs<C>, Settled<RecordOf<T["fields"]>>>;
