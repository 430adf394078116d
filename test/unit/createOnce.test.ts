import { createOnce, type CreateOnceOptions } from "../../provider/services/createOnce";
import { hasCode } from "../../provider/common/errors";
import { ServiceError } from "../../provider/http/serviceError";

interface Obj {
  id: string;
  url: string;
}

const lost = () => new ServiceError({ service: "s", method: "POST", path: "/tasks", detail: "UND_ERR_SOCKET: other side closed", ambiguous: true });
const taken = () => new ServiceError({ service: "s", method: "POST", path: "/tasks", status: 422, messages: ["Name has already been taken"] });
const options: CreateOnceOptions<Obj> = {
  matches: (o) => o.url === "https://mine.example",
  foreign: (o) => Promise.reject(new Error(`exists already: ${o.id}`)),
  isConflict: (e) => e instanceof ServiceError && e.status === 422,
};
const mine: Obj = { id: "task-1", url: "https://mine.example" };

/** A create that fails as listed, then succeeds; a find that answers as listed. */
function script(failures: Error[], finds: (Obj | undefined | Error)[]) {
  const calls = { create: 0, find: 0 };
  return {
    calls,
    create: async () => {
      const failure = failures[calls.create++];
      if (failure) throw failure;
      return { id: `task-${calls.create}`, url: "https://mine.example" };
    },
    find: async () => {
      const answer = finds[calls.find++];
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
}

describe("createOnce", () => {
  test("an answer that comes: no lookup", async () => {
    const s = script([], []);
    expect(await createOnce(s.create, s.find, options)).toEqual({ id: "task-1", url: "https://mine.example" });
    expect(s.calls).toEqual({ create: 1, find: 0 });
  });

  test("a lost answer, and what it made is there: taken, not created again", async () => {
    const s = script([lost()], [mine]);
    expect(await createOnce(s.create, s.find, options)).toBe(mine);
    expect(s.calls).toEqual({ create: 1, find: 1 });
  });

  test("a lost answer, and nothing there: sent again", async () => {
    const s = script([lost()], [undefined]);
    expect(await createOnce(s.create, s.find, options)).toEqual({ id: "task-2", url: "https://mine.example" });
    expect(s.calls).toEqual({ create: 2, find: 1 });
  });

  test("a lost answer, and someone else's object of that name: not taken over", async () => {
    const s = script([lost()], [{ id: "task-9", url: "https://theirs.example" }]);
    await expect(createOnce(s.create, s.find, options)).rejects.toThrow("exists already: task-9");
  });

  test("sent again after a lost answer, and the service says it exists: the first one got through", async () => {
    const s = script([lost(), taken()], [undefined, mine]);
    expect(await createOnce(s.create, s.find, options)).toBe(mine);
    expect(s.calls).toEqual({ create: 2, find: 2 });
  });

  test("a conflict on the first try is the caller's to report", async () => {
    const s = script([taken()], []);
    await expect(createOnce(s.create, s.find, options)).rejects.toThrow("422");
    expect(s.calls.find).toBe(0);
  });

  test("an error that says the request was not acted on is thrown as it is", async () => {
    const s = script([new ServiceError({ service: "s", method: "POST", path: "/tasks", status: 400, messages: ["bad"] })], []);
    await expect(createOnce(s.create, s.find, options)).rejects.toThrow("HTTP 400");
    expect(s.calls.find).toBe(0);
  });

  test("after the last attempt it still looks, so that nothing made is left unclaimed", async () => {
    const s = script([lost(), lost()], [undefined, mine]);
    expect(await createOnce(s.create, s.find, { ...options, maxAttempts: 2 })).toBe(mine);
    const t = script([lost(), lost()], [undefined, undefined]);
    await expect(createOnce(t.create, t.find, { ...options, maxAttempts: 2 })).rejects.toMatchObject({ ambiguous: true });
    expect(t.calls).toEqual({ create: 2, find: 2 });
  });

  test("when looking fails too, the error says both", async () => {
    const s = script([lost()], [new Error("list failed (HTTP 503)")]);
    await expect(createOnce(s.create, s.find, options)).rejects.toThrow(
      "s: POST /tasks failed (UND_ERR_SOCKET: other side closed); whether it created anything is unknown, and looking for it failed too: list failed (HTTP 503)",
    );
  });

  test("when looking fails too, the error keeps the create's code, and the lookup's failure as its cause", async () => {
    const lookupFailure = new ServiceError({ service: "s", method: "GET", path: "/tasks", status: 503 });
    const s = script([lost()], [lookupFailure]);
    const err = await createOnce(s.create, s.find, options).catch((e: unknown) => e);
    expect(hasCode(err, "network")).toBe(true);
    expect((err as Error).cause).toBe(lookupFailure);
  });
});
