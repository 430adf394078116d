import { checkRunTask, diffRunTask } from "../../provider/runTask/fields";
import { UNKNOWN } from "../../provider/common/unknown";

const base = { name: "scanner", url: "https://hooks.example.com/scan" };

describe("checkRunTask", () => {
  test("fills defaults and the organization from config", () => {
    expect(checkRunTask({ ...base, __provider: "p" }, "acme")).toEqual({
      inputs: { ...base, organization: "acme", category: "task", enabled: true },
      failures: [],
    });
  });

  test("global.enabled defaults to false; order of stages is kept", () => {
    const r = checkRunTask({ ...base, organization: "o", global: { stages: ["post_plan", "pre_plan"], enforcementLevel: "mandatory" } }, undefined);
    expect(r.inputs.global).toEqual({ enabled: false, stages: ["post_plan", "pre_plan"], enforcementLevel: "mandatory" });
  });

  test("an empty hmacKey means no key", () => {
    expect(checkRunTask({ ...base, organization: "o", hmacKey: "" }, undefined).inputs).not.toHaveProperty("hmacKey");
  });

  test("an empty description means none", () => {
    expect(checkRunTask({ ...base, organization: "o", description: "" }, undefined).inputs).not.toHaveProperty("description");
  });

  test.each<[string, Record<string, unknown>, { property: string; reason: string }[]]>([
    [
      "no organization anywhere",
      base,
      [
        {
          property: "organization",
          reason: "is required: set it, or stack config runtask:organization, or the environment variable RUNTASK_ORGANIZATION",
        },
      ],
    ],
    [
      "organization .., a dot segment",
      { ...base, organization: ".." },
      [{ property: "organization", reason: 'must not be "." or "..": as a path segment they mean "here" and "the parent", not a name' }],
    ],
    [
      "name characters",
      { ...base, organization: "o", name: "my task!" },
      [{ property: "name", reason: `may contain only letters, digits, '-' and '_': "my task!" has " ", "!"` }],
    ],
    [
      "description of 301 characters",
      { ...base, organization: "o", description: "x".repeat(301) },
      [{ property: "description", reason: "must be at most 300 characters (got 301)" }],
    ],
    [
      "url scheme",
      { ...base, organization: "o", url: "ftp://x.example" },
      [{ property: "url", reason: 'must be an http or https URL, got "ftp://x.example"' }],
    ],
    ["url text", { ...base, organization: "o", url: "not a url" }, [{ property: "url", reason: 'must be an http or https URL, got "not a url"' }]],
    ["category", { ...base, organization: "o", category: "hook" }, [{ property: "category", reason: 'must be "task"' }]],
    [
      "hyphenated global stage",
      { ...base, organization: "o", global: { stages: ["pre-apply"] } },
      [{ property: "global.stages[0]", reason: '"pre-apply" is not a stage: did you mean "pre_apply"? (stages use underscores)' }],
    ],
    [
      "unknown global key",
      { ...base, organization: "o", global: { enforcement_level: "advisory" } },
      [{ property: "global", reason: 'has no setting "enforcement_level": the settings are enabled, stages and enforcementLevel' }],
    ],
    [
      "global enforcement level",
      { ...base, organization: "o", global: { enforcementLevel: "strict" } },
      [{ property: "global.enforcementLevel", reason: 'must be one of "advisory", "mandatory", got "strict"' }],
    ],
    [
      "a nested stage: the message carries the value, which the engine does not print for a nested property",
      { ...base, organization: "o", global: { stages: ["pre_plan", "preplan"] } },
      [{ property: "global.stages[1]", reason: 'must be one of "pre_plan", "post_plan", "pre_apply", "post_apply", got "preplan"' }],
    ],
    ["missing url", { name: "x", organization: "o" }, [{ property: "url", reason: "is required" }]],
  ])("%s", (_l, input, failures) => {
    const r = checkRunTask(input, undefined);
    expect(r.failures).toEqual(failures);
  });

  test("unknown values pass, inside global too", () => {
    const r = checkRunTask({ name: UNKNOWN, url: UNKNOWN, organization: "o", global: { enabled: true, stages: UNKNOWN } }, undefined);
    expect(r.failures).toEqual([]);
    expect(r.inputs).toMatchObject({ name: UNKNOWN, url: UNKNOWN, global: { enabled: true, stages: UNKNOWN } });
  });
});

describe("diffRunTask", () => {
  const stored = {
    __provider: "x",
    organization: "o",
    name: "scanner",
    url: "https://a.example",
    category: "task",
    enabled: true,
    hmacKey: "k1",
    taskId: "task-1",
  };
  const news = (over: Record<string, unknown> = {}) =>
    checkRunTask({ organization: "o", name: "scanner", url: "https://a.example", hmacKey: "k1", ...over }, undefined).inputs;

  test("no change against the same program (taskId output and adopt ignored)", () => {
    expect(diffRunTask(stored, news({ adopt: true }))).toEqual({ changes: false, replaces: [], deleteBeforeReplace: true });
  });

  test('description: "" is none, whether the state holds "" (an older version\'s) or nothing (a service that reads it back as null)', () => {
    const none = { changes: false, replaces: [], deleteBeforeReplace: true };
    expect(diffRunTask(stored, news({ description: "" }))).toEqual(none);
    expect(diffRunTask({ ...stored, description: "" }, news({ description: "" }))).toEqual(none);
    expect(diffRunTask({ ...stored, description: "" }, news())).toEqual(none);
    expect(diffRunTask({ ...stored, description: "" }, news({ description: "Security scan" })).changes).toBe(true);
    expect(diffRunTask({ ...stored, description: "Security scan" }, news({ description: "" })).changes).toBe(true);
  });

  // Delete before replace wherever a replacement (replaceOnChanges) would make a task of the same organization and name.
  test.each<[Record<string, unknown>, string[], boolean]>([
    [{ hmacKey: "k2" }, [], true],
    [{ enabled: false }, [], true],
    [{ description: "new" }, [], true],
    [{ url: "https://b.example" }, [], true],
    [{ name: "renamed" }, [], false],
    [{ global: { enabled: true } }, [], true],
    [{ organization: "other" }, ["organization"], false],
    [{ organization: UNKNOWN }, ["organization"], false],
  ])("%j", (over, replaces, deleteBeforeReplace) => {
    expect(diffRunTask(stored, news(over))).toEqual({ changes: true, replaces, deleteBeforeReplace });
  });
});
