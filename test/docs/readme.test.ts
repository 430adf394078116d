import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import * as ts from "typescript";
import { ERROR_CODES } from "../../provider/common/errors";
import { diffRunTask, runTaskTable } from "../../provider/runTask/fields";
import { RUNTASK_SETTING_KEYS } from "../../provider/services/runtask/settings";
import { checkWorkspaceRunTask, diffWorkspaceRunTask, workspaceRunTaskTable } from "../../provider/workspaceRunTask/fields";
import { diffSnapshotAutoConfig, snapshotAutoConfigTable } from "../../provider/snapshotAutoConfig/fields";
import type { FieldTable } from "../../provider/table/field";
import { secretArgs } from "../../provider/table/derived";
import { SNAPSHOT_SETTING_KEYS } from "../../provider/services/snapshot/settings";
import { typeCheck, type Block } from "../support/typeCheck";

/**
 * The documentation is checked against the code: the TypeScript blocks of the READMEs and of docs/ compile
 * against the package's types; the README lists every setting and stays a short guide whose links all lead
 * somewhere; the reference's tables list every argument and function, and what they say about defaults,
 * replacement and secrets is what the provider does.
 */

const REPO = resolve(__dirname, "../..");
const README = readFileSync(join(REPO, "README.md"), "utf8");
const REFERENCE = readFileSync(join(REPO, "docs/reference.md"), "utf8");

/** Every markdown page users read: the README, docs/ (not the API references it keeps) and the examples' READMEs. */
function markdownPages(): string[] {
  const examples = readdirSync(join(REPO, "examples")).map((e) => join(REPO, "examples", e, "README.md"));
  const docs = readdirSync(join(REPO, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => join(REPO, "docs", f));
  return [join(REPO, "README.md"), ...docs, ...examples];
}

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens. */
function anchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** The anchors of a markdown page's headings (outside code blocks), numbered as GitHub numbers repeats. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const [, heading] of markdown.replace(/^```[\s\S]*?^```/gm, "").matchAll(/^#{1,6} (.+)$/gm)) {
    const base = anchor(heading);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    result.add(n === 0 ? base : `${base}-${n}`);
  }
  return result;
}

/** Fenced ```ts / ```typescript blocks of a markdown file. */
function tsBlocks(file: string): Block[] {
  const text = readFileSync(file, "utf8");
  const blocks: Block[] = [];
  const fence = /^```(ts|typescript)\s*\n([\s\S]*?)^```\s*$/gm;
  for (let m = fence.exec(text); m; m = fence.exec(text)) {
    blocks.push({ source: file.slice(REPO.length + 1), line: text.slice(0, m.index).split("\n").length, code: m[2] });
  }
  return blocks;
}

const compile = typeCheck;

describe("TypeScript blocks of the READMEs and docs", () => {
  const blocks = markdownPages().flatMap(tsBlocks);

  test("every block type-checks against the package", () => {
    expect(blocks.filter((b) => b.source === "README.md").length).toBeGreaterThanOrEqual(4);
    expect(blocks.filter((b) => b.source.startsWith("docs/")).length).toBeGreaterThanOrEqual(2);
    expect(compile(blocks)).toEqual([]);
  }, 120_000);

  test("the check catches a wrong argument (so that it checks something)", () => {
    const wrong = {
      source: "README.md",
      line: 0,
      code: 'import { SnapshotAutoConfig } from "pulumi-snapshot-runtask";\nnew SnapshotAutoConfig("x", { interval: true, pathPrefix: "/p", storageType: "local", localMaxSpace: 1 });',
    };
    expect(compile([wrong])).toEqual(["README.md:2: Type 'boolean' is not assignable to type 'Input<string | number>'."]);
  }, 120_000);
});

describe("the README is a short guide", () => {
  test("under 400 lines", () => {
    expect(README.split("\n").length).toBeLessThan(400);
  });

  test("its contents list every section, in order", () => {
    const sections = [...README.replace(/^```[\s\S]*?^```/gm, "").matchAll(/^## (.+)$/gm)].map((m) => m[1]).filter((h) => h !== "Contents");
    const contents = README.slice(README.indexOf("## Contents"));
    const listed = [...contents.slice(0, contents.indexOf("\n## ", 1)).matchAll(/^- \[(.+)\]\(#([^)]+)\)$/gm)].map((m) => m[1]);
    expect(listed).toEqual(sections);
  });

  test("every relative link of the README, docs/ and the examples' READMEs leads to a file, and to a heading of it", () => {
    const broken: string[] = [];
    for (const page of markdownPages()) {
      const text = readFileSync(page, "utf8").replace(/^```[\s\S]*?^```/gm, "");
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target)) continue;
        const [file, hash] = target.split("#");
        const path = file ? resolve(dirname(page), file) : page;
        const where = `${page.slice(REPO.length + 1)}: ${target}`;
        if (!existsSync(path)) broken.push(`${where} (no such file)`);
        else if (hash !== undefined && !anchors(readFileSync(path, "utf8")).has(hash)) broken.push(`${where} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  test("the link check catches a missing heading (so that it checks something)", () => {
    expect(anchors("# A\n## `RunTask` and `WorkspaceRunTask`\n```sh\n# not a heading\n```\n## A")).toEqual(
      new Set(["a", "runtask-and-workspaceruntask", "a-1"]),
    );
  });
});

describe("the README and the reference match the code", () => {
  test("every error code is in the code table (README or docs/)", () => {
    const pages = [
      README,
      ...readdirSync(join(REPO, "docs"))
        .filter((f) => f.endsWith(".md"))
        .map((f) => readFileSync(join(REPO, "docs", f), "utf8")),
    ];
    const listed = (code: string) => pages.some((page) => new RegExp(`^\\| \`${code}\` \\|`, "m").test(page));
    expect(ERROR_CODES.filter((code) => !listed(code))).toEqual([]);
  });

  test("the two commands", () => {
    expect(README).toContain("| set up and run the main job (provision against the bundled emulator) | `npm ci && npm run demo` |");
    expect(README).toContain("| run the tests | `npm ci && npm test` |");
  });

  test("Install clones the project's repository, the one package.json names, with no placeholder", () => {
    const pkg = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8"));
    expect(pkg.repository).toEqual({ type: "git", url: "git+https://github.com/pulumi-snapshot-runtask/pulumi-snapshot-runtask.git" });
    const install = README.slice(README.indexOf("## Install"), README.indexOf("## Configuration"));
    expect(install).toContain(`git clone ${pkg.repository.url.replace(/^git\+/, "")}\n`);
    expect(install).not.toMatch(/<[^>]*(URL|url)[^>]*>/);
  });

  test("every stack config key and environment variable is in the configuration table", () => {
    for (const [key, envVar] of [...Object.values(SNAPSHOT_SETTING_KEYS), ...Object.values(RUNTASK_SETTING_KEYS)]) {
      expect(README).toMatch(new RegExp(`^\\|[^\\n]*\`${key}\`[^\\n]*\\|[^\\n]*\`${envVar}\``, "m"));
    }
  });

  /** Rows of the reference's arguments table that follows `heading`: the argument names of each row, and its cells. */
  function argumentRows(heading: string): { args: string[]; cells: string[] }[] {
    expect(REFERENCE).toContain(`${heading}\n`);
    const section = REFERENCE.slice(REFERENCE.indexOf(`${heading}\n`));
    const lines = section.slice(section.indexOf("| argument |")).split("\n");
    const rows = lines.slice(
      2,
      lines.findIndex((l) => !l.startsWith("|")),
    );
    return rows.map((row) => {
      const cells = row
        .split(/(?<!\\)\|/)
        .slice(1, -1)
        .map((c) => c.trim());
      return { args: [...cells[0].matchAll(/`([A-Za-z0-9]+)`/g)].map((m) => m[1]), cells };
    });
  }

  /** Members of an interface in the package's sources. */
  function interfaceMembers(file: string, name: string): string[] {
    const source = ts.createSourceFile(file, readFileSync(join(REPO, file), "utf8"), ts.ScriptTarget.Latest);
    const decl = source.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === name);
    if (!decl) throw new Error(`${name} not found in ${file}`);
    return decl.members.map((m) => (m.name as ts.Identifier).text);
  }

  const resources = [
    {
      heading: "## `SnapshotAutoConfig`",
      fields: snapshotAutoConfigTable.fields as FieldTable,
      args: [
        "SnapshotAutoConfigCommonArgs",
        "LocalStorageParameters",
        "CloudAS3StorageParameters",
        "CloudBBlobStorageParameters",
        "CloudCGcsStorageParameters",
      ].flatMap((name) => interfaceMembers("sdk/snapshotAutoConfig.ts", name)),
      diff: (arg: string) => {
        const base = { name: "n", interval: 60, retain: 1, filePrefix: "service-snapshot" };
        return diffSnapshotAutoConfig({ ...base, [arg]: arg === "interval" ? 60 : 1 }, { ...base, [arg]: arg === "interval" ? 120 : 2 });
      },
      secrets: secretArgs(snapshotAutoConfigTable.fields),
    },
    {
      heading: "## `RunTask`",
      fields: runTaskTable.fields as FieldTable,
      args: interfaceMembers("sdk/runTask.ts", "RunTaskArgs"),
      diff: (arg: string) => {
        const base = { category: "task", enabled: true };
        return diffRunTask({ ...base, [arg]: 1 }, { ...base, [arg]: 2 });
      },
      secrets: ["hmacKey"],
    },
    {
      heading: "## `WorkspaceRunTask`",
      fields: workspaceRunTaskTable.fields as FieldTable,
      args: interfaceMembers("sdk/workspaceRunTask.ts", "WorkspaceRunTaskArgs"),
      // Through check, as the engine calls it: the deprecated `stage` changes the association through `stages`.
      diff: (arg: string) => {
        const values: Record<string, [unknown, unknown]> = {
          workspaceId: ["ws-a", "ws-b"],
          taskId: ["task-a", "task-b"],
          enforcementLevel: ["advisory", "mandatory"],
          stages: [["post_plan"], ["pre_plan"]],
          stage: ["post_plan", "pre_plan"],
          adopt: [false, true],
        };
        const base = { workspaceId: "ws-a", taskId: "task-a", enforcementLevel: "advisory" };
        const olds = checkWorkspaceRunTask({}, { ...base, [arg]: values[arg][0] }).inputs;
        return diffWorkspaceRunTask(olds, checkWorkspaceRunTask(olds, { ...base, [arg]: values[arg][1] }).inputs);
      },
      secrets: [],
    },
  ];

  describe.each(resources)("$heading", ({ heading, fields, args, diff, secrets }) => {
    const rows = argumentRows(heading);
    const documented = rows.flatMap((r) => r.args);

    test("the table lists every argument, and nothing else", () => {
      expect([...documented].sort()).toEqual([...args].sort());
    });

    test("what it says replaces, updates, or changes nothing is what diff answers", () => {
      for (const { args: names, cells } of rows) {
        const onChange = cells[3];
        for (const arg of names) {
          const outcome = diff(arg);
          if (/^replace/.test(onChange)) expect([arg, outcome.replaces]).toEqual([arg, [arg]]);
          else if (/^update/.test(onChange)) expect([arg, outcome.changes, outcome.replaces]).toEqual([arg, true, []]);
          else if (/no effect/.test(onChange)) expect([arg, outcome.changes]).toEqual([arg, false]);
          else throw new Error(`${heading} ${arg}: unknown "on change" cell "${onChange}"`);
        }
      }
    });

    test("the default column says what the field table defaults to, and which arguments are required", () => {
      for (const { args: names, cells } of rows) {
        for (const arg of names) {
          const field = fields[arg];
          const cell = cells[2];
          if (field.default && "value" in field.default) {
            const value = field.default.value;
            expect([arg, cell.includes(typeof value === "string" ? value : JSON.stringify(value))]).toEqual([arg, true]);
          } else if (field.required && !(field.default && "from" in field.default)) {
            expect([arg, cell]).toEqual([arg, expect.stringMatching(field.group ? `required for \`${field.group}\`` : "^required")]);
          } else {
            expect([arg, /^required/.test(cell)]).toEqual([arg, false]);
          }
        }
      }
    });

    test("the secret column marks exactly the arguments the resource keeps secret", () => {
      const marked = rows.filter((r) => r.cells[4] === "yes").flatMap((r) => r.args);
      expect(marked.sort()).toEqual([...secrets].sort());
    });
  });

  test("every function of the package is in the reference's functions table", () => {
    const index = readFileSync(join(REPO, "sdk/index.ts"), "utf8");
    const functions = [...index.matchAll(/\b(get|list)[A-Z]\w+/g)].map((m) => m[0]);
    expect(functions.length).toBeGreaterThanOrEqual(6);
    const table = REFERENCE.slice(REFERENCE.indexOf("## Functions"), REFERENCE.indexOf("## Import ids"));
    for (const f of new Set(functions)) expect(table).toMatch(new RegExp(`^\\| \`${f}\\(`, "m"));
  });
});
