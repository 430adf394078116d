import { AsyncLocalStorage } from "node:async_hooks";
import { emptyLookup, type ConfigLookup } from "./config/lookup";
import { newClientStats, type ClientTuning } from "./services/tuning";

/**
 * What the providers run with: the stack config the engine handed over (through `configure` in the dynamic
 * plugin, `Configure` in the provider plugins), and the clients' tuning. One per plugin process: the engine
 * configures a provider before it calls it, and again on every new command.
 */
export interface ProviderContext {
  config: ConfigLookup;
  tuning: ClientTuning;
  /**
   * How the caller's user forgets an object that the service cannot prove gone, where that is not a stack's
   * `pulumi state delete` (a migration from Terraform, whose objects no stack holds yet).
   */
  forgetAdvice?: string;
}

let current: ProviderContext = { config: emptyLookup, tuning: { stats: newClientStats() } };

export function setProviderContext(context: ProviderContext): void {
  current = context;
}

export function providerContext(): ProviderContext {
  return current;
}

/** A bound the engine sets on one call (a resource's `customTimeouts`), which overrides the provider's own. */
export interface CallBound {
  ms: number;
  /** How messages name it, e.g. `customTimeouts.create`. */
  name: string;
}

const callBounds = new AsyncLocalStorage<CallBound>();

/** Runs `call` with `bound` as its operation's bound (where the engine gave one). */
export function withCallBound<T>(bound: CallBound | undefined, call: () => Promise<T>): Promise<T> {
  return bound ? callBounds.run(bound, call) : call();
}

/** The bound of the call in progress, if the engine gave one. */
export function callBound(): CallBound | undefined {
  return callBounds.getStore();
}

const callResources = new AsyncLocalStorage<string>();

/** Runs `call` as a call for the resource `urn` (the provider plugins know it; the dynamic plugin's calls do not). */
export function withCallResource<T>(urn: string, call: () => T): T {
  return callResources.run(urn, call);
}

/** The URN of the resource the call in progress is for, where the engine said. */
export function resourceOfCall(): string | undefined {
  return callResources.getStore();
}

const createdResources = new AsyncLocalStorage<string>();

/**
 * Runs a create of the dynamic provider plugin, which names no resource, as a create of `urn`, which the resource
 * classes sent to its Check (provider/dynamicResources.ts). Only what a create says and the recovery of an up that
 * was stopped go by it (`resourceOfCreate`); the holds of a deployment stay unnamed there, as the engine's other
 * calls to that plugin are.
 */
export function withCreatedResource<T>(urn: string | undefined, call: () => Promise<T>): Promise<T> {
  return urn ? createdResources.run(urn, call) : call();
}

/** The URN of the resource a create in progress is for: the engine's (provider plugins), else the resource class's. */
export function resourceOfCreate(): string | undefined {
  return callResources.getStore() ?? createdResources.getStore();
}

const callSecrets = new AsyncLocalStorage<{ values: readonly string[]; keys?: ReadonlySet<string> }>();

/**
 * Runs `call` with the values the engine sent marked secret in it (any property, whether or not the schema makes it
 * secret), so that nothing the call says shows them: its notices, its errors, the errors of its requests. `keys`,
 * where the caller knows them, are the properties that held one (every one, however few: none is an answer too).
 */
export function withCallSecrets<T>(values: readonly string[], call: () => Promise<T>, keys?: Iterable<string>): Promise<T> {
  return values.length > 0 || keys ? callSecrets.run({ values, keys: keys && new Set(keys) }, call) : call();
}

/** The values the engine sent marked secret in the call in progress. */
export function secretsOfCall(): readonly string[] {
  return callSecrets.getStore()?.values ?? [];
}

/**
 * The properties the engine sent marked secret in the call in progress; undefined where nobody said which, as for
 * the dynamic provider, which the engine hands secrets as plain values (its plugin takes no secrets).
 */
export function secretKeysOfCall(): ReadonlySet<string> | undefined {
  return callSecrets.getStore()?.keys;
}

const cancellation = new AbortController();

/**
 * The engine's Cancel: every request in flight is aborted and every retry wait cut short, and calls after it fail
 * at once; the engine ends the plugin next.
 */
export function cancelCalls(): void {
  cancellation.abort();
}

export function cancelSignal(): AbortSignal {
  return cancellation.signal;
}
