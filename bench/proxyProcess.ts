import { fork, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { repositoryRoot } from "../toolchain/repository";

/**
 * An HTTP proxy in a process of its own (the npm `proxy` package, `proxyProcessMain.mjs`), as users' proxies are:
 * for the tests, a proxy with Basic authentication that alone resolves the services' names; for the benchmarks, the
 * cost of going through one. It can be stopped abruptly (SIGKILL, every tunnel cut) and started again on its port.
 */
export interface ProxyProcessOptions {
  /** The port to listen on; default a free one. */
  port?: number;
  /** The credentials the proxy requires; default none. */
  auth?: { user: string; password: string };
  /** PEM key and certificate: the proxy speaks TLS (an `https://` proxy). */
  tls?: { key: string; cert: string };
  /** Names only the proxy resolves, to addresses. */
  hosts?: Record<string, string>;
  /** CONNECT targets (`host:port`) answered with this status instead of a tunnel (the proxy's policy). */
  refuse?: Record<string, number>;
}

/** What the proxy served: tunnels by target (`host:port`), forwarded requests by `METHOD url`, and what it refused. */
export interface ProxyCounts {
  connect: Record<string, number>;
  forward: Record<string, number>;
  refusedCredentials: number;
  refusedTargets: number;
}

export interface ProxyProcess {
  port: number;
  /** `http://user:password@127.0.0.1:port` (or `https://`), the credentials percent-encoded. */
  url: string;
  /** The same without credentials. */
  origin: string;
  counts(): Promise<ProxyCounts>;
  /** Counts from zero again (the answer holds the counts just after: zero). */
  reset(): Promise<ProxyCounts>;
  /** CPU milliseconds the proxy process has used so far (user and system): what forwarding cost it. */
  cpuMs(): Promise<number>;
  /** Ends the process at once (SIGKILL): every connection through it is cut, as when a proxy crashes. */
  kill(): Promise<void>;
  /** Starts it again on the same port with the same options (after `kill`). */
  restart(): Promise<void>;
  close(): Promise<void>;
}

type Answer = { id: number; port?: number; counts?: ProxyCounts; cpuMs?: number };

export async function startProxyProcess(options: ProxyProcessOptions = {}): Promise<ProxyProcess> {
  const main = join(repositoryRoot(__dirname), "bench/proxyProcessMain.mjs");
  let child: ChildProcess;
  let nextId = 1;
  const pending = new Map<number, (answer: Answer) => void>();
  const launch = async (port: number | undefined): Promise<number> => {
    child = fork(main, [JSON.stringify({ ...options, port })], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
    child.on("message", (answer: Answer) => {
      pending.get(answer.id)?.(answer);
      pending.delete(answer.id);
    });
    const ready = await new Promise<Answer>((resolve, reject) => {
      pending.set(0, resolve);
      child.once("exit", (code) => reject(new Error(`the proxy process exited (${code}) before it was ready`)));
    });
    return ready.port!;
  };
  const port = await launch(options.port);
  const ask = (kind: "counts" | "reset") =>
    new Promise<Answer>((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      child.send({ id, kind });
    });
  const scheme = options.tls ? "https" : "http";
  const credentials = options.auth ? `${encodeURIComponent(options.auth.user)}:${encodeURIComponent(options.auth.password)}@` : "";
  return {
    port,
    url: `${scheme}://${credentials}127.0.0.1:${port}`,
    origin: `${scheme}://127.0.0.1:${port}`,
    counts: async () => (await ask("counts")).counts!,
    reset: async () => (await ask("reset")).counts!,
    cpuMs: async () => (await ask("counts")).cpuMs!,
    kill: () => stop(child, "SIGKILL"),
    restart: async () => {
      await stop(child, "SIGKILL");
      await launch(port);
    },
    close: () => stop(child, "SIGTERM"),
  };
}

function stop(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill(signal);
  return exited;
}
