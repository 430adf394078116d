import type * as pulumi from "@pulumi/pulumi";

/**
 * The arguments of a function's Output form, as Pulumi's generated SDKs take them (`getXOutput(args: GetXOutputArgs)`):
 * each may be a plain value, a promise or an Output. The function runs once they are known, in a preview too; while
 * one is unknown (a resource not made yet, in a preview), so is the result. A secret argument makes the result secret.
 */
export type OutputArgs<T> = T extends unknown ? { [K in keyof T]: pulumi.Input<T[K]> } : never;
