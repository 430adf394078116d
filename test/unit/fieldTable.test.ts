import { codeOfStatus } from "../../provider/http/errorCode";
import { ServiceError } from "../../provider/http/serviceError";
import { serviceAddress } from "../../provider/config/serviceAddress";
import { checkRunTask, runTaskTable } from "../../provider/runTask/fields";
import { checkByTable } from "../../provider/table/check";
import { argsWhoseChange, outputKeys, secretArgs } from "../../provider/table/derived";
import { diffByTable } from "../../provider/table/diff";
import { defineTable, t } from "../../provider/table/field";
import { fromWire, toWire } from "../../provider/table/wire";

describe("a field added to a copy of a table reaches every derived rule", () => {
  const table = defineTable("RunTask", {
    ...runTaskTable.fields,
    // The one line a new optional field takes.
    timeoutSeconds: { value: t.integer, wire: "timeout-seconds", onChange: "update" },
    webhookToken: { value: t.string, wire: "webhook-token", secret: true, onChange: "replace" },
  });
  const base = { organization: "o", name: "n", url: "https://u.example" };

  test("check validates it, by its type, naming it", () => {
    expect(checkByTable(table, { ...base, timeoutSeconds: 30 }, {}, {}).failures).toEqual([]);
    expect(checkByTable(table, { ...base, timeoutSeconds: "soon" }, {}, {}).failures).toEqual([
      { property: "timeoutSeconds", reason: "must be a whole number" },
    ]);
    expect(checkByTable(runTaskTable, { ...base, timeoutSeconds: 30 }, {}, {}).failures).toEqual([
      { property: "timeoutSeconds", reason: "is not an argument of RunTask" },
    ]);
  });

  test("diff sees it change, and replaces on the field that says so", () => {
    const olds = checkByTable(table, { ...base, timeoutSeconds: 30, webhookToken: "a" }, {}, {}).inputs;
    expect(diffByTable(table, olds, { ...olds, timeoutSeconds: 60 })).toMatchObject({ changes: true, replaces: [], changed: ["timeoutSeconds"] });
    expect(diffByTable(table, olds, { ...olds, webhookToken: "b" })).toMatchObject({ changes: true, replaces: ["webhookToken"] });
  });

  test("the wire mapping, the outputs and the secrets include it", () => {
    expect(toWire(table.fields, { timeoutSeconds: 30 })).toEqual({ "timeout-seconds": 30 });
    expect(fromWire(table.fields, { "timeout-seconds": "30" }, {})).toEqual({ timeoutSeconds: 30 });
    expect(outputKeys(table.fields)).toEqual(expect.arrayContaining(["timeoutSeconds", "webhookToken"]));
    expect(secretArgs(table.fields)).toEqual(["hmacKey", "webhookToken"]);
    expect(argsWhoseChange(table.fields, "replace")).toEqual(["organization", "webhookToken"]);
  });
});

describe("errors carry a stable code, set from the status in one place", () => {
  test.each<[number, string]>([
    [400, "bad_request"],
    [401, "unauthorized"],
    [403, "forbidden"],
    [404, "not_found"],
    [409, "conflict"],
    [422, "invalid"],
    [408, "timeout"],
    [429, "rate_limited"],
    [418, "client_error"],
    [500, "server_error"],
    [503, "server_error"],
  ])("%i is %s", (status, code) => {
    expect(codeOfStatus(status)).toBe(code);
    expect(new ServiceError({ service: "s", method: "GET", path: "/x", status }).code).toBe(code);
  });

  test("a failure without an answer is a network failure unless told it timed out", () => {
    expect(new ServiceError({ service: "s", method: "GET", path: "/x", detail: "ECONNREFUSED" }).code).toBe("network");
    expect(new ServiceError({ service: "s", method: "GET", path: "/x", detail: "no response", code: "timeout" }).code).toBe("timeout");
  });
});

describe("service addresses", () => {
  test.each([
    ["https://runs.example.com", "https://runs.example.com"],
    ["https://runs.example.com/", "https://runs.example.com"],
    ["https://runs.example.com/api/v2", "https://runs.example.com"],
    ["https://runs.example.com/api/v2/", "https://runs.example.com"],
    ["https://proxy.example.com/tfe/api/v2", "https://proxy.example.com/tfe"],
  ])("%s is the base address %s", (given, base) => {
    expect(serviceAddress("runtask:address", given, "/api/v2", "https://runs.example.com")).toBe(base);
  });

  test.each([
    ["runs.example.com", 'runtask:address: "runs.example.com" has no http:// or https:// scheme; write it as e.g. https://runs.example.com'],
    ["localhost:8080", 'runtask:address: "localhost:8080" has no http:// or https:// scheme; write it as e.g. https://localhost:8080'],
    [
      "runs.example.com:443/api/v2",
      'runtask:address: "runs.example.com:443/api/v2" has no http:// or https:// scheme; write it as e.g. https://runs.example.com:443/api/v2',
    ],
    [
      "ftp://runs.example.com",
      'runtask:address: "ftp://runs.example.com" is not an http:// or https:// address; expected e.g. https://runs.example.com',
    ],
    ["https://", 'runtask:address: "https://" is not a URL; expected e.g. https://runs.example.com'],
    ["https://runs.example.com/?x=1", 'runtask:address: expected a base address without query or fragment, got "https://runs.example.com/?x=1"'],
  ])("%s is refused", (given, message) => {
    expect(() => serviceAddress("runtask:address", given, "/api/v2", "https://runs.example.com")).toThrow(message);
  });
});

test("a description's length is counted in characters, not UTF-16 units", () => {
  const base = { organization: "o", name: "n", url: "https://u.example" };
  expect(checkRunTask({ ...base, description: "🛡️".repeat(150) }, undefined).failures).toEqual([]);
  expect(checkRunTask({ ...base, description: "😀".repeat(300) }, undefined).failures).toEqual([]);
  expect(checkRunTask({ ...base, description: "😀".repeat(301) }, undefined).failures).toEqual([
    { property: "description", reason: "must be at most 300 characters (got 301)" },
  ]);
});
