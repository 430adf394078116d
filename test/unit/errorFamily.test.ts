import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { hasCode, SnapshotRunTaskError } from "../../provider/common/errors";
import { ServiceError } from "../../provider/http/serviceError";
import * as packageRoot from "../../sdk";

const REPO = join(__dirname, "../..");

/** The error modules as a second copy of the package holds them (the provider's bundle, a program's own install). */
function secondCopy(): { Base: typeof SnapshotRunTaskError; Service: typeof ServiceError; has: typeof hasCode } {
  let copy!: ReturnType<typeof secondCopy>;
  jest.isolateModules(() => {
    copy = {
      Base: require("../../provider/common/errors").SnapshotRunTaskError,
      Service: require("../../provider/http/serviceError").ServiceError,
      has: require("../../provider/common/errors").hasCode,
    };
  });
  return copy;
}

describe("one error family", () => {
  const call = { service: "run task service", method: "GET", path: "/tasks/task-1" };

  test("a failed call is one of the package's errors, with its code and cause", () => {
    const cause = new Error("socket hang up");
    const err = new ServiceError({ ...call, status: 404, cause });
    expect(err).toBeInstanceOf(SnapshotRunTaskError);
    expect(err).toBeInstanceOf(Error);
    expect([err.code, err.cause, err.name]).toEqual(["not_found", cause, "ServiceError"]);
    expect(hasCode(err, "not_found")).toBe(true);
    expect(hasCode(err, "conflict", "invalid")).toBe(false);
  });

  test("hasCode serves the provider's own conclusions too, not only failed calls", () => {
    const err = new SnapshotRunTaskError("conflict", 'a run task named "scanner" already exists');
    expect(hasCode(err, "conflict")).toBe(true);
    expect(err).not.toBeInstanceOf(ServiceError);
    expect(err.name).toBe("SnapshotRunTaskError");
  });

  test("a plain Error with a code of the same spelling is not one of them", () => {
    const stray = Object.assign(new Error("connect ECONNREFUSED"), { code: "network" });
    expect(stray).not.toBeInstanceOf(SnapshotRunTaskError);
    expect(hasCode(stray, "network")).toBe(false);
    expect(hasCode(undefined, "network")).toBe(false);
    expect(hasCode("not_found", "not_found")).toBe(false);
  });

  test("instanceof and hasCode hold across copies of the package, each class for its own kind", () => {
    const other = secondCopy();
    expect(other.Base).not.toBe(SnapshotRunTaskError);
    const failed = new other.Service({ ...call, status: 422 });
    const concluded = new other.Base("not_found", "gone");
    expect(failed).toBeInstanceOf(ServiceError);
    expect(failed).toBeInstanceOf(SnapshotRunTaskError);
    expect(concluded).toBeInstanceOf(SnapshotRunTaskError);
    expect(concluded).not.toBeInstanceOf(ServiceError);
    expect(hasCode(failed, "invalid")).toBe(true);
    expect(other.has(new ServiceError({ ...call, status: 409 }), "conflict")).toBe(true);
  });

  test("an error of the built provider bundle, a copy of its own, is one of the family here (npm run build first)", async () => {
    const bundled = require(join(REPO, "dist/provider/index.js")) as typeof import("../../provider");
    // A wrong setting fails the calls of its service's resources, before any request.
    bundled.configure({ get: (key) => (key === "runtask:address" ? "runs.example.com" : undefined) });
    const err = await bundled.providers.runTask.check({}, {}).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(SnapshotRunTaskError);
    expect(hasCode(err, "invalid_setting")).toBe(true);
  });

  test("the package root exports the family: the base, ServiceError, hasCode", () => {
    expect(packageRoot.SnapshotRunTaskError).toBe(SnapshotRunTaskError);
    expect(packageRoot.ServiceError).toBe(ServiceError);
    expect(packageRoot.hasCode).toBe(hasCode);
  });
});

/** Every `.ts` file under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith(".ts") ? [path] : [];
  });
}

test("every plain Error the provider makes is an internal invariant, commented as such above it", () => {
  const unmarked: string[] = [];
  for (const file of sources(join(REPO, "provider"))) {
    const lines = readFileSync(file, "utf8").split("\n");
    lines.forEach((line, i) => {
      if (!line.includes("new Error(")) return;
      // The comment block above the statement or its function: up to the nearest blank line.
      let start = i;
      while (start > 0 && lines[start - 1].trim() !== "") start--;
      if (!/invariant/i.test(lines.slice(start, i).join("\n"))) unmarked.push(`${relative(REPO, file)}:${i + 1}`);
    });
  }
  expect(unmarked).toEqual([]);
});
