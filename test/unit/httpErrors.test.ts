import { serverMessages } from "../../provider/http/serverMessages";
import { ServiceError } from "../../provider/http/serviceError";
import { redact } from "../../provider/common/redact";

describe("serverMessages", () => {
  test.each<[unknown, string[]]>([
    [{ errors: ["permission denied"] }, ["permission denied"]],
    [{ errors: [] }, []],
    [{ errors: ["1 error occurred:\n\t* unsupported path\n\n"] }, ["1 error occurred:\n\t* unsupported path"]],
    [
      {
        errors: [{ status: "422", title: "invalid attribute", detail: "Name has already been taken", source: { pointer: "/data/attributes/name" } }],
      },
      ["invalid attribute: Name has already been taken (at /data/attributes/name)"],
    ],
    [{ errors: [{ status: 404, title: "not found" }] }, ["not found"]],
    [{ errors: [{ status: 429, detail: "You have exceeded the API's rate limit." }] }, ["You have exceeded the API's rate limit."]],
    [{ errors: [{ code: "x" }] }, ['{"code":"x"}']],
    ["upstream timed out", ["upstream timed out"]],
    [undefined, []],
    [{ data: {} }, []],
  ])("%j", (body, messages) => {
    expect(serverMessages(body)).toEqual(messages);
  });
});

describe("a text answer is quoted by a line, never pasted whole", () => {
  test("short text as it is, whitespace collapsed", () => {
    expect(serverMessages("<html><body>404 Not Found</body></html>\n")).toEqual(["<html><body>404 Not Found</body></html>"]);
  });

  test("an HTML page by its title, and its length", () => {
    const page = `<!DOCTYPE html>\n<html><head><title> 502 Bad Gateway </title></head><body>${"<p>x</p>".repeat(100)}</body></html>`;
    expect(serverMessages(page)).toEqual([`an HTML page titled "502 Bad Gateway" (${page.length} characters)`]);
    expect(serverMessages(`<html><body>${"<p>x</p>".repeat(100)}</body></html>`)).toEqual(["an HTML page (826 characters)"]);
  });

  test("other long text by its beginning", () => {
    const text = `no healthy upstream\n${"y".repeat(300)}`;
    expect(serverMessages(text)).toEqual([`no healthy upstream ${"y".repeat(140)}… (${text.length} characters)`]);
  });
});

describe("ServiceError", () => {
  test("names the call, the status and the server's messages", () => {
    const e = new ServiceError({ service: "run task service", method: "PATCH", path: "/tasks/task-1", status: 422, messages: ["a: b", "c"] });
    expect(e.message).toBe("run task service: PATCH /tasks/task-1 failed (HTTP 422): a: b; c");
    expect([e.method, e.path, e.status]).toEqual(["PATCH", "/tasks/task-1", 422]);
  });

  test("describes a failure without a response", () => {
    expect(new ServiceError({ service: "snapshot service", method: "GET", path: "/x", detail: "ECONNREFUSED: connect failed" }).message).toBe(
      "snapshot service: GET /x failed (ECONNREFUSED: connect failed)",
    );
  });
});

describe("redact", () => {
  test("replaces secrets, JSON-escaped forms included, longest first", () => {
    const key = 'line1\n"quoted"';
    const text = `token s.abcdef and s.abcdef-long and ${JSON.stringify({ key })}`;
    expect(redact(text, ["s.abcdef", "s.abcdef-long", key, undefined, "ab"])).toBe('token [redacted] and [redacted] and {"key":"[redacted]"}');
  });

  test("a secret quoted without its surrounding whitespace (a PEM key loses its last newline in a trimmed message)", () => {
    const pem = "-----BEGIN PRIVATE KEY-----\nbody\n-----END PRIVATE KEY-----\n";
    expect(redact(`invalid key: ${pem.trim()}`, [pem])).toBe("invalid key: [redacted]");
  });
});
