import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathWithoutPulumi, REPO } from "../support/demoCommand";
import { testEngine } from "../support/engine/engineStack";

/**
 * Every example's README has the one line that runs it against the emulator (`npm run demo -- --program
 * examples/<name> ...`, under "Try it against the emulator"), and that line runs here, through the Pulumi engine
 * (the project's build), from the repository's root: preview, up, destroy, exit 0. The line runs as written but for
 * `npm run demo --`, which stands for `node dist/demo/main.js` (the launcher builds first, which the suite did, and
 * test/demo/demoCommand.test.ts runs through npm). An example the demo cannot run says why in its README.
 */

jest.setTimeout(300_000);
const EXAMPLES = readdirSync(join(REPO, "examples")).sort();
/** Examples in a language the demo does not run, with the README's words that say so. */
const NOT_RUN: Record<string, RegExp> = {
  python: /does not run this example: it runs Node\.js and YAML programs, while a Python\s+program needs Pulumi's Python language host/,
  go: /does not run this example: it runs Node\.js and YAML programs, while a Go\s+program is compiled and run by Go/,
};

/** The line of the README's "Try it against the emulator" section. */
function demoLine(example: string): string | undefined {
  const readme = readFileSync(join(REPO, "examples", example, "README.md"), "utf8");
  const section = readme.split(/^## /m).find((s) => s.startsWith("Try it against the emulator\n"));
  const block = section && /^```sh\n([\s\S]*?)^```$/m.exec(section)?.[1];
  return block?.trim();
}

/** Runs a shell line in the repository's root: what it printed, and how it ended. */
function shell(line: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn("bash", ["-c", line], { cwd: REPO, env: { ...process.env, PATH: pathWithoutPulumi }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("close", (code) => resolve({ code, output }));
  });
}

const timings: string[] = [];
beforeAll(() => testEngine());
afterAll(() => console.log(timings.join("\n")));

test("every example's README has one line to run it against the emulator, or says why the demo cannot run it", () => {
  for (const example of EXAMPLES) {
    const readme = readFileSync(join(REPO, "examples", example, "README.md"), "utf8");
    if (NOT_RUN[example]) {
      expect([example, demoLine(example)]).toEqual([example, undefined]);
      expect(readme).toMatch(NOT_RUN[example]);
    } else {
      expect([example, demoLine(example)]).toEqual([
        example,
        expect.stringMatching(new RegExp(`^([A-Z_]+=\\S+ )*npm run demo -- --program examples/${example}( |$)`)),
      ]);
      expect([example, demoLine(example)!.includes("\n")]).toEqual([example, false]);
    }
  }
});

test.each(EXAMPLES.filter((e) => !NOT_RUN[e]))("examples/%s: its README's line runs through the engine against the emulator", async (example) => {
  const line = demoLine(example)!;
  const started = Date.now();
  const { code, output } = await shell(line.replace("npm run demo --", `"${process.execPath}" dist/demo/main.js`));
  timings.push(`${example}: ${((Date.now() - started) / 1000).toFixed(1)}s`);
  if (code !== 0) console.error(output);
  expect(code).toBe(0);
  expect(output).toMatch(/^ {2}preview: \d+ to create/m);
  expect(output).toMatch(/^ {2}up: \d+ created/m);
  expect(output).toMatch(/^ {2}destroy: \d+ deleted/m);
  expect(output).toContain("The demo ran to the end.");
});
