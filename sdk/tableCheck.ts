import type * as pulumi from "@pulumi/pulumi";
import type { ResourceTable } from "../provider/table/field";
import type { ArgName, ArgsOf, Same } from "../provider/table/types";

/**
 * `true` when an SDK `Args` interface has exactly the table's arguments, each taking the table's type once its
 * inputs are resolved. Used as `assertType<ArgsMatchTable<Args, typeof table>>(true)`: a field in one and not
 * the other, or of another type, fails the type check.
 */
export type ArgsMatchTable<A, T extends ResourceTable> =
  Same<keyof A, ArgName<T["fields"]>> extends true ? Same<{ [K in keyof A]-?: pulumi.Unwrap<NonNullable<A[K]>> }, Required<ArgsOf<T>>> : false;
