import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as ts from "typescript";
import { MINIMUM_PULUMI_VERSION } from "../../automation";
import { REPO } from "../support/demoCommand";

/** docs/automation.md says what the helper takes and throws: every option and error kind, and no other. */

const DOC = readFileSync(join(REPO, "docs/automation.md"), "utf8");

function source(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(join(REPO, file), "utf8"), ts.ScriptTarget.Latest);
}

function interfaceMembers(file: string, name: string): string[] {
  const decl = source(file).statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === name);
  if (!decl) throw new Error(`${name} not found in ${file}`);
  return decl.members.map((m) => (m.name as ts.Identifier).text);
}

/** The first column of the table that follows `heading`'s line. */
function firstColumn(after: string): string[] {
  const rest = DOC.slice(DOC.indexOf(after) + after.length);
  const lines = rest.slice(rest.indexOf("\n|")).split("\n").slice(1);
  const rows = lines.slice(
    2,
    lines.findIndex((l, i) => i >= 2 && !l.startsWith("|")),
  );
  return rows.map((row) => row.split("|")[1].trim().replace(/`/g, ""));
}

test("the options tables list every option of ProvisioningStackOptions and RunOptions", () => {
  expect(firstColumn("`ProvisioningStackOptions`, taken by every call:").sort()).toEqual(
    interfaceMembers("automation/options.ts", "ProvisioningStackOptions").sort(),
  );
  expect(firstColumn("`RunOptions`, taken by").sort()).toEqual(
    [...interfaceMembers("automation/options.ts", "RunOptions"), ...interfaceMembers("automation/options.ts", "ProgressOptions")].sort(),
  );
});

test("the errors table lists every ProvisioningErrorKind", () => {
  const alias = source("automation/errors.ts").statements.find(
    (s): s is ts.TypeAliasDeclaration => ts.isTypeAliasDeclaration(s) && s.name.text === "ProvisioningErrorKind",
  )!;
  const kinds = (alias.type as ts.UnionTypeNode).types.map((t) => ((t as ts.LiteralTypeNode).literal as ts.StringLiteral).text);
  expect(firstColumn("`cause` the CLI's error with its whole output").sort()).toEqual(kinds.sort());
});

test("the CLI version the docs and the README ask for is the one the helper checks", () => {
  const [major, minor] = MINIMUM_PULUMI_VERSION.split(".");
  for (const text of [DOC, readFileSync(join(REPO, "README.md"), "utf8"), readFileSync(join(REPO, "examples/automation-api/README.md"), "utf8")]) {
    expect(text).toContain(`${major}.${minor} or later`);
  }
});
