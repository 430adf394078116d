import { readFileSync } from "node:fs";
import { join } from "node:path";
import { repositoryRoot } from "../../toolchain/repository";

/** A fenced code block of a markdown page: the language and the rest of its info string (```python examples/x.py). */
export interface FencedBlock {
  language: string;
  /** The info string after the language: the file the block shows, or a tag (`generated-sdk`). */
  meta: string;
  code: string;
  /** The line of its opening fence, from 1. */
  line: number;
}

/** Every fenced block of `markdown`. */
export function fencedBlocks(markdown: string): FencedBlock[] {
  const blocks: FencedBlock[] = [];
  for (const m of markdown.matchAll(/^```(\w*)[ \t]*([^\n]*)\n([\s\S]*?)^```[ \t]*$/gm)) {
    blocks.push({ language: m[1], meta: m[2].trim(), code: m[3], line: markdown.slice(0, m.index).split("\n").length });
  }
  return blocks;
}

/** The text of the section under the heading `heading` (a whole line, `## Python`), up to the next heading of its level or above. */
export function section(markdown: string, heading: string): string {
  const level = /^#+/.exec(heading)![0].length;
  const lines = markdown.split("\n");
  const start = lines.indexOf(heading);
  if (start < 0) throw new Error(`no heading "${heading}"`);
  let fenced = false;
  let end = start + 1;
  for (; end < lines.length; end++) {
    if (lines[end].startsWith("```")) fenced = !fenced;
    const m = /^(#+) /.exec(lines[end]);
    if (!fenced && m && m[1].length <= level) break;
  }
  return lines.slice(start, end).join("\n");
}

/** The commands of the `sh` blocks of `markdown` (comments and blank lines dropped), in order. */
export function shellLines(markdown: string): string[] {
  return fencedBlocks(markdown)
    .filter((b) => b.language === "sh")
    .flatMap((b) => b.code.split("\n"))
    .map((l) => l.replace(/(^|\s+)#.*$/, "").trim())
    .filter(Boolean);
}

/** docs/other-languages.md, which the SDK tests follow. */
export function otherLanguagesDoc(): string {
  return readFileSync(join(repositoryRoot(), "docs/other-languages.md"), "utf8");
}
