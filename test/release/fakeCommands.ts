import { chmodSync, mkdtempSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";

/**
 * Commands of the release's tools (`gh`, `npm`, `codesign`, `pulumi`) stood in for by small Node programs on PATH,
 * for the release scripts' tests: each records its arguments, one JSON array a line, and answers as its `script`
 * says (JavaScript run with `args`, `log` and `state`, a JSON object kept between calls in the folder).
 */
export class FakeCommands {
  readonly dir = mkdtempSync(join(tmpdir(), "fake-commands-"));

  /** Adds a command: `script` is the body of a function of `args` (its arguments) and `state` (shared, persisted). */
  add(name: string, script: string): this {
    const file = join(this.dir, name);
    writeFileSync(
      file,
      `#!${process.execPath}
const fs = require("node:fs"), path = require("node:path");
const args = process.argv.slice(2);
const stateFile = path.join(${JSON.stringify(this.dir)}, "state.json");
const state = fs.existsSync(stateFile) ? JSON.parse(fs.readFileSync(stateFile, "utf8")) : {};
fs.appendFileSync(path.join(${JSON.stringify(this.dir)}, ${JSON.stringify(`${name}.log`)}), JSON.stringify(args) + "\\n");
const save = () => fs.writeFileSync(stateFile, JSON.stringify(state));
${script}
save();
`,
    );
    chmodSync(file, 0o755);
    return this;
  }

  /** Sets the commands' shared state. */
  state(value: Record<string, unknown>): this {
    writeFileSync(join(this.dir, "state.json"), JSON.stringify(value));
    return this;
  }

  /** Every call of a command so far: its arguments. */
  calls(name: string): string[][] {
    const file = join(this.dir, `${name}.log`);
    return existsSync(file)
      ? readFileSync(file, "utf8")
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l))
      : [];
  }

  /** An environment with these commands first on PATH. */
  env(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
    return { ...process.env, ...extra, PATH: `${this.dir}${delimiter}${process.env.PATH ?? ""}` };
  }
}
