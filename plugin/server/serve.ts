import type { PackageDefinition } from "./definition";
import { listen } from "./server";

/** How long a shutdown waits for calls in flight before it cuts them off: well within the engine's 5 s. */
const SHUTDOWN_GRACE_MS = 2_000;
/** How often the plugin looks whether the engine that started it is still there. */
const ENGINE_WATCH_MS = 2_000;

/**
 * Runs a provider plugin as the engine starts it (`pulumi-resource-<name> [flags] <engine-address>`; neither is
 * needed; the address is where its notices go, provider/engineLog.ts): serves on a free loopback port and prints the port, alone, on the first line of stdout, which the
 * engine reads. Nothing else may go to stdout, so console output goes to stderr. The engine ends a plugin with
 * SIGINT (then kills it after 5 s): calls in flight finish, and the process exits 0. An engine killed outright
 * (SIGKILL) ends nothing: the plugin, started by it directly, sees its parent change, and stops the same way.
 */
export async function serve(pkg: PackageDefinition): Promise<void> {
  console.log = console.error;
  console.info = console.error;
  process.on("unhandledRejection", (err) => console.error(`${pkg.name}: ${err instanceof Error ? err.message : String(err)}`));
  const { port, server } = await listen(pkg);
  process.stdout.write(`${port}\n`);
  const stop = () => {
    const force = setTimeout(() => {
      server.forceShutdown();
      process.exit(0);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    server.tryShutdown(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  const engine = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === engine) return;
    clearInterval(watch);
    stop();
  }, ENGINE_WATCH_MS);
  watch.unref();
}
