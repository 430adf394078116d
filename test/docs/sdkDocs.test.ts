import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import * as ts from "typescript";

/** Every argument users write has a doc comment: it is their documentation, and the provider plugins' schema's. */
const REPO = resolve(__dirname, "../..");

const interfaces: [string, string][] = [
  ["sdk/snapshotAutoConfig.ts", "SnapshotAutoConfigCommonArgs"],
  ["sdk/snapshotAutoConfig.ts", "LocalStorageParameters"],
  ["sdk/snapshotAutoConfig.ts", "CloudAS3StorageParameters"],
  ["sdk/snapshotAutoConfig.ts", "CloudBBlobStorageParameters"],
  ["sdk/snapshotAutoConfig.ts", "CloudCGcsStorageParameters"],
  ["sdk/runTask.ts", "RunTaskArgs"],
  ["sdk/runTask.ts", "RunTaskGlobalArgs"],
  ["sdk/workspaceRunTask.ts", "WorkspaceRunTaskArgs"],
];

test.each(interfaces)("%s: every member of %s has a doc comment", (file, name) => {
  const source = ts.createSourceFile(file, readFileSync(join(REPO, file), "utf8"), ts.ScriptTarget.Latest, true);
  const decl = source.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === name);
  expect(decl).toBeDefined();
  const undocumented = decl!.members.filter((m) => ts.getJSDocCommentsAndTags(m).length === 0).map((m) => (m.name as ts.Identifier).text);
  expect(undocumented).toEqual([]);
});
