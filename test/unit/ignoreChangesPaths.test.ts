import { parsePath, withIgnoredFromState } from "../../plugin/server/ignoreChanges";

/**
 * `ignoreChanges` paths in every form the engine accepts (pulumi/pulumi `sdk/go/common/resource/properties_path.go`),
 * as the provider plugins read them: the state's value at each path of the news. Each form of one path must keep
 * the same values. (What the engine does with them before it calls Diff is tested through the CLI: engine/.)
 */
const state = {
  url: "https://a",
  enabled: false,
  global: { enabled: true, stages: ["pre_plan"], enforcementLevel: "mandatory" },
  stages: ["pre_plan", "post_plan"],
};
const program = { url: "https://b", enabled: true, global: { enabled: false, stages: ["post_plan"] }, stages: ["post_plan", "pre_apply"] };

describe("the provider plugins", () => {
  const ignoring = (paths: string[]) => withIgnoredFromState(program, state, paths);

  test.each([["global.enabled"], ['global["enabled"]'], ['["global"].enabled']])("one nested key: %s", (path) => {
    expect(ignoring([path])).toEqual({ ...program, global: { ...program.global, enabled: true } });
  });

  test.each([["global.*"], ["global[*]"], ['global["*"]'], ["global"]])("a whole object: %s keeps every key the state has, and no other", (path) => {
    expect(ignoring([path])).toEqual({ ...program, global: state.global });
  });

  test.each([["stages[*]"], ["stages.*"]])("every element of a list of the same length: %s", (path) => {
    expect(ignoring([path])).toEqual({ ...program, stages: state.stages });
  });

  test("one element of a list, and top-level keys", () => {
    expect(ignoring(["stages[1]", "url", "enabled"])).toEqual({ ...program, url: "https://a", enabled: false, stages: ["post_plan", "post_plan"] });
  });

  test("a key the state does not have is removed from the news; a path the parser refuses changes nothing", () => {
    expect(ignoring(["description"])).toEqual(program);
    expect(ignoring([".url", "stages[x]", 'global["enabled'])).toEqual(program);
  });
});

test("paths parse as the engine parses them", () => {
  expect(parsePath('a.b[0]["c.d"][*].*')).toEqual(["a", "b", 0, "c.d", "*", "*"]);
  expect(parsePath('["key with \\"quotes\\""]')).toEqual(['key with "quotes"']);
  expect(parsePath(".a")).toBeUndefined();
});
