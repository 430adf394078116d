import { createServer, type AddressInfo } from "node:net";
import { startEmulator, type Emulator, DEFAULT_RUNTASK_TOKEN } from "../../emulator";
import { DEFAULT_SNAPSHOT_TOKEN } from "../../emulator/snapshot/service";
import * as runTaskFunctions from "../../provider/functions/runTask";
import * as snapshotFunctions from "../../provider/functions/snapshot";
import { closeSharedDispatchers } from "../../provider/http/dispatcher";
import { snapshotAutoConfigProvider } from "../../provider/snapshotAutoConfig/provider";
import { getSnapshotStatus } from "../../sdk";
import { failure } from "../support/failure";
import { configureProvider } from "../support/providerConfig";

/**
 * What a failed call says about the address and the answer: a connection refused names the address setting as the
 * address came (stack config key or environment variable), a 501 names the address, and an answer that is not the
 * service's is quoted by a line or its title, never pasted whole; a function's message speaks of no state.
 */
let emulator: Emulator;
let answer: { status: number; body: unknown } | undefined;
const saved = { ...process.env };

beforeAll(async () => {
  emulator = await startEmulator({ snapshot: { takeSnapshots: false }, interceptors: [() => answer] });
  Object.assign(process.env, {
    RUNTASK_ADDR: emulator.url,
    RUNTASK_TOKEN: DEFAULT_RUNTASK_TOKEN,
    RUNTASK_ORGANIZATION: "emulator-org",
    SERVICE_ADDR: emulator.url,
    SERVICE_TOKEN: DEFAULT_SNAPSHOT_TOKEN,
  });
});
afterEach(() => (answer = undefined));
afterAll(async () => {
  process.env = saved;
  await emulator.close();
  await closeSharedDispatchers();
});

/** A loopback port where nothing listens. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

describe("a refused connection names the address setting as the address came", () => {
  test.each([
    ["the environment", {}, "RUNTASK_ADDR"],
    ["the stack config", { "runtask:address": "ADDRESS" }, "runtask:address"],
  ])("from %s", async (_, config: Record<string, string>, named) => {
    const address = `http://127.0.0.1:${await closedPort()}`;
    const env = process.env.RUNTASK_ADDR;
    process.env.RUNTASK_ADDR = address;
    try {
      const lookup = (key: string) => ({ ...config, "runtask:maxRetries": "0" })[key]?.replace("ADDRESS", address);
      const err = await failure(runTaskFunctions.getRunTask({ id: "task-1" }, lookup));
      expect(err.code).toBe("network");
      expect(err.message).toContain(`nothing accepts connections at ${address}: check ${named}, and that the service runs there`);
      expect(err.message).not.toContain(named === "RUNTASK_ADDR" ? "runtask:address" : "RUNTASK_ADDR");
    } finally {
      process.env.RUNTASK_ADDR = env;
    }
  });
});

describe("answers of something other than the service", () => {
  const page = `<!DOCTYPE html><html><head><title>Sign in - Corporate Proxy</title></head><body>${"<p>Please sign in.</p>".repeat(300)}</body></html>`;

  test("a 501 on LIST names the address and where it came from", async () => {
    answer = { status: 501, body: "" };
    const err = await failure(snapshotFunctions.listSnapshotAutoConfigs(() => undefined));
    expect(err.code).toBe("server_error");
    expect(err.message).toContain(`the server at ${emulator.url} does not implement LIST, which the snapshot service does: check SERVICE_ADDR`);
  });

  test("an HTML page is named by its title, never pasted, and a function's message speaks of no state", async () => {
    answer = { status: 404, body: page };
    const err = await failure(getSnapshotStatus({ name: "daily" }));
    expect(err.code).toBe("not_found");
    expect(err.message).toContain(`an HTML page titled "Sign in - Corporate Proxy" (${page.length} characters)`);
    expect(err.message).not.toContain("Please sign in");
    expect(err.message).not.toContain("state");
    expect(err.message.length).toBeLessThan(600);
  });

  test("a resource's refresh of the same answer says that the configuration stays in the state", async () => {
    configureProvider({ "snapshot:address": emulator.url, "snapshot:token": DEFAULT_SNAPSHOT_TOKEN });
    answer = { status: 404, body: page };
    const err = await failure(snapshotAutoConfigProvider.read("daily", { name: "daily" }));
    expect(err.message).toContain("the configuration is kept in the state");
    expect(err.message).not.toContain("Please sign in");
  });

  test("a long page of text is cut to its beginning", async () => {
    const text = `upstream connect error or disconnect/reset before headers. ${"x".repeat(5000)}`;
    answer = { status: 502, body: text };
    const err = await failure(runTaskFunctions.getRunTask({ id: "task-1" }, (key) => ({ "runtask:maxRetries": "0" })[key]));
    expect(err.code).toBe("server_error");
    expect(err.message).toContain("upstream connect error or disconnect/reset before headers. xxx");
    expect(err.message).toContain(`… (${text.length} characters)`);
    expect(err.message.length).toBeLessThan(400);
  });
});
