import { fork, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import type { EmulatorOptions } from "../emulator";

/**
 * The emulator in a process of its own, as the real services are remote: its work neither waits behind the
 * engine driver's on one event loop nor hides in that process's CPU time, so each process's cost per operation
 * can be told apart. Options cross the process boundary as JSON.
 */
export interface EmulatorProcess {
  url: string;
  /** Starts counting requests afresh; returns the stats just after. */
  resetRequests(): Promise<EmulatorProcessStats>;
  /** Requests served since the last reset, and CPU milliseconds the emulator process has used so far. */
  stats(): Promise<EmulatorProcessStats>;
  close(): Promise<void>;
}

export interface EmulatorProcessStats {
  requests: number;
  cpuMs: number;
}

/** Messages between this process and the emulator's: a request names its kind; the answer repeats its id. */
export type EmulatorProcessRequest = { id: number; kind: "reset" | "stats" };
export type EmulatorProcessAnswer = { id: number; url?: string; stats?: EmulatorProcessStats; error?: string };

export async function startEmulatorProcess(options: EmulatorOptions): Promise<EmulatorProcess> {
  const child = fork(join(__dirname, "emulatorProcessMain.js"), [JSON.stringify(options)], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  let nextId = 1;
  const pending = new Map<number, (answer: EmulatorProcessAnswer) => void>();
  child.on("message", (answer: EmulatorProcessAnswer) => {
    pending.get(answer.id)?.(answer);
    pending.delete(answer.id);
  });
  const ready = await new Promise<EmulatorProcessAnswer>((resolve, reject) => {
    pending.set(0, resolve);
    child.once("exit", (code) => reject(new Error(`the emulator process exited (${code}) before it was ready`)));
  });
  if (ready.error || !ready.url) throw new Error(`the emulator process failed to start: ${ready.error}`);
  const ask = (kind: EmulatorProcessRequest["kind"]) =>
    new Promise<EmulatorProcessAnswer>((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      child.send({ id, kind } satisfies EmulatorProcessRequest);
    });
  return {
    url: ready.url,
    resetRequests: async () => (await ask("reset")).stats!,
    stats: async () => (await ask("stats")).stats!,
    close: () => stop(child),
  };
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill();
  return exited;
}
