import { localConfig, NO_ENTRY, SnapshotApi } from "../support/snapshotApi";

let api: SnapshotApi;
afterEach(() => api.close());

const UNSUPPORTED = "1 error occurred:\n\t* unsupported path";

describe("snapshot emulator: token, sudo, namespace and license", () => {
  beforeEach(async () => {
    api = await SnapshotApi.start({ tokens: { root: { sudo: true }, reader: { sudo: false }, plain: {} } });
  });

  const CONFIG_CALLS: [string, string, unknown?][] = [
    ["POST", "/config/a", localConfig()],
    ["GET", "/config/a"],
    ["DELETE", "/config/a"],
    ["LIST", "/config"],
  ];

  test.each([
    ["no token", null],
    ["an unknown token", "not-a-token"],
    ["a token named like an object property", "constructor"],
  ])("%s is 403 on every endpoint, status included", async (_, token) => {
    for (const [method, path, body] of [...CONFIG_CALLS, ["GET", "/status/a"] as [string, string]]) {
      expect({ method, ...(await api.call(method, path, body, { token })) }).toEqual({
        method,
        status: 403,
        body: { errors: ["permission denied"] },
      });
    }
  });

  test("a token without sudo is 403 on the config endpoints and may read the status", async () => {
    await api.call("POST", "/config/a", localConfig(), { token: "root" });
    for (const token of ["reader", "plain"]) {
      for (const [method, path, body] of CONFIG_CALLS) {
        const r = await api.call(method, path, body, { token });
        expect({ method, ...r }).toEqual({ method, status: 403, body: { errors: ["permission denied: this path requires the sudo capability"] } });
      }
      expect((await api.call("GET", "/status/a", undefined, { token })).status).toBe(200);
    }
    expect(api.emulator.snapshot.configs.has("a")).toBe(true);
  });

  test.each(["", "/", "root", "root/"])("the namespace header %j names the root namespace", async (namespace) => {
    expect((await api.call("POST", "/config/a", localConfig(), { token: "root", namespace })).status).toBe(204);
  });

  test.each(["ns1", "ns1/", "ns1/ns2", "admin"])(
    "any other namespace (%s) is 404 unsupported path, before the token is looked at",
    async (namespace) => {
      for (const token of ["root", "not-a-token"]) {
        const r = await api.call("LIST", "/config", undefined, { token, namespace });
        expect(r.status).toBe(404);
        expect(r.body.errors).toHaveLength(1);
        expect(r.body.errors[0]).toContain(UNSUPPORTED);
        expect(r.body.errors[0]).toContain(`namespace "${namespace}"`);
      }
    },
  );

  test("outside the root namespace even a method a path does not take is 404 unsupported path, not 405", async () => {
    for (const [method, path] of [
      ["GET", "/config"],
      ["PUT", "/config/a"],
      ["PATCH", "/status/a"],
    ]) {
      const r = await api.call(method, path, undefined, { token: "root", namespace: "team-a" });
      expect({ method, status: r.status }).toEqual({ method, status: 404 });
      expect(r.body.errors[0]).toMatch(/restricted to the root namespace/);
    }
    expect((await api.call("GET", "/config", undefined, { token: "root" })).status).toBe(405);
  });

  test("without a license: 404 unsupported path once the token is accepted; a bad token is still 403", async () => {
    await api.close();
    api = await SnapshotApi.start({ licensed: false, tokens: { root: { sudo: true } } });
    const r = await api.call("POST", "/config/a", localConfig(), { token: "root" });
    expect(r.status).toBe(404);
    expect(r.body.errors[0]).toContain(UNSUPPORTED);
    expect(r.body.errors[0]).toContain("enterprise license");
    expect((await api.call("GET", "/status/a", undefined, { token: "root" })).status).toBe(404);
    expect((await api.call("POST", "/config/a", localConfig(), { token: "bad" })).status).toBe(403);
    expect(api.emulator.snapshot.configs.size).toBe(0);
  });

  test("the checks come before validation: a bad body with a bad token is 403", async () => {
    expect((await api.call("POST", "/config/a", { storage_type: "tape" }, { token: "reader" })).status).toBe(403);
    expect((await api.call("POST", "/config/a", { storage_type: "tape" }, { token: "root" })).status).toBe(400);
  });

  test("the default token has sudo", async () => {
    await api.close();
    api = await SnapshotApi.start();
    expect(await api.call("LIST", "/config")).toEqual({ status: 404, body: NO_ENTRY });
  });
});

describe("snapshot emulator: unknown routes", () => {
  beforeEach(async () => {
    api = await SnapshotApi.start();
  });

  test("an unknown path under /v1 is 404 unsupported path", async () => {
    const r = await api.call("GET", "/widgets");
    expect(r).toEqual({ status: 404, body: { errors: ["1 error occurred:\n\t* unsupported path\n\n"] } });
  });

  test("a known path with a method it does not take is 405 unsupported operation", async () => {
    for (const [method, path] of [
      ["PATCH", "/config/a"],
      ["POST", "/config"],
      ["DELETE", "/status/a"],
    ]) {
      expect({ method, ...(await api.call(method, path, {})) }).toEqual({
        method,
        status: 405,
        body: { errors: ["1 error occurred:\n\t* unsupported operation\n\n"] },
      });
    }
  });
});
