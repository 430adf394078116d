import { connect } from "node:net";

/** How often the process looks whether its engine still listens. */
const ENGINE_WATCH_MS = 1_000;
/** Refused connections in a row that prove the engine gone (one could be a listener's hiccup). */
const REFUSALS_TO_END = 2;

/**
 * Ends the process once the engine that started it is gone: the dynamic provider plugin's, which serves this
 * package's provider code. The engine ends its plugins itself (SIGINT to each plugin's process group) before it
 * closes its own gRPC server, but an engine killed outright (SIGKILL, a CI runner's timeout) ends nothing, and the
 * plugin process, whose parent is the `pulumi-resource-pulumi-nodejs` shell script and not the engine, would live on.
 * The engine gives every plugin its address as the one argument: while the engine lives, its port accepts
 * connections (it is closed only after every plugin was ended, so no call the engine waits for is cut short); once
 * a connection is refused there twice in a row, nobody is left to answer, and the process exits. A probe that
 * neither connects nor is refused (a timeout) proves nothing. The provider plugins watch their parent instead
 * (plugin/server/serve.ts), which is the engine itself.
 */
export function endWithEngine(address: string, onGone: () => void = () => process.exit(0)): () => void {
  const target = hostAndPort(address);
  if (!target) return () => undefined;
  let refusals = 0;
  let probing = false;
  const timer = setInterval(() => {
    if (probing) return;
    probing = true;
    probe(target.host, target.port).then((outcome) => {
      probing = false;
      refusals = outcome === "refused" ? refusals + 1 : 0;
      if (refusals >= REFUSALS_TO_END) {
        clearInterval(timer);
        onGone();
      }
    });
  }, ENGINE_WATCH_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** `host:port` or `[v6]:port`; undefined for anything else. */
function hostAndPort(address: string): { host: string; port: number } | undefined {
  const match = /^\[?([^\]]+?)\]?:(\d+)$/.exec(address);
  return match ? { host: match[1], port: Number(match[2]) } : undefined;
}

/** One connection to the engine's port, closed at once (the gRPC server takes a close before any byte quietly). */
function probe(host: string, port: number): Promise<"listening" | "refused" | "unknown"> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.setTimeout(ENGINE_WATCH_MS);
    socket.unref();
    const done = (outcome: "listening" | "refused" | "unknown") => {
      socket.destroy();
      resolve(outcome);
    };
    socket.once("connect", () => done("listening"));
    socket.once("timeout", () => done("unknown"));
    socket.once("error", (err: NodeJS.ErrnoException) => done(err.code === "ECONNREFUSED" ? "refused" : "unknown"));
  });
}
