import { readFileSync } from "node:fs";
import { join } from "node:path";
import type * as tsTypes from "typescript";

/**
 * The doc comments of the sources the SDK's users read (interfaces, classes, functions), so that the provider
 * plugins' schema describes every property in the same words. Read with the TypeScript compiler at build time.
 */
export class DocComments {
  private readonly files = new Map<string, tsTypes.SourceFile>();
  private readonly ts: typeof tsTypes = require("typescript");

  /** `root`: the package's folder, which the source files' paths are relative to. */
  constructor(readonly root: string) {}

  /** The doc comment of a member of an interface, or of a property declared on a class. */
  member(file: string, container: string, member: string): string | undefined {
    const decl = this.declaration(file, container);
    if (!decl || !("members" in decl)) return undefined;
    const found = (decl.members as tsTypes.NodeArray<tsTypes.Node & { name?: tsTypes.PropertyName }>).find(
      (m) => m.name !== undefined && this.ts.isIdentifier(m.name) && m.name.text === member,
    );
    return found && this.docOf(found);
  }

  /** The doc comment of an interface, class or function. */
  of(file: string, name: string): string | undefined {
    const decl = this.declaration(file, name);
    return decl && this.docOf(decl);
  }

  private declaration(file: string, name: string): tsTypes.Node | undefined {
    const source = this.source(file);
    const ts = this.ts;
    return source.statements.find(
      (s) => (ts.isInterfaceDeclaration(s) || ts.isClassDeclaration(s) || ts.isFunctionDeclaration(s)) && s.name?.text === name,
    );
  }

  private source(file: string): tsTypes.SourceFile {
    let source = this.files.get(file);
    if (!source) {
      source = this.ts.createSourceFile(file, readFileSync(join(this.root, file), "utf8"), this.ts.ScriptTarget.Latest, true);
      this.files.set(file, source);
    }
    return source;
  }

  /** The comment's text, tags other than `@deprecated` left out; markdown as written. */
  private docOf(node: tsTypes.Node): string | undefined {
    const docs = this.ts.getJSDocCommentsAndTags(node).filter((d): d is tsTypes.JSDoc => this.ts.isJSDoc(d));
    const text = docs
      .map((d) => this.ts.getTextOfJSDocComment(d.comment) ?? "")
      .join("\n")
      .trim();
    return text || undefined;
  }

  /** The text of a `@deprecated` tag, when the declaration has one. */
  deprecation(file: string, container: string, member: string): string | undefined {
    const decl = this.declaration(file, container);
    if (!decl || !("members" in decl)) return undefined;
    const ts = this.ts;
    const found = (decl.members as tsTypes.NodeArray<tsTypes.Node & { name?: tsTypes.PropertyName }>).find(
      (m) => m.name !== undefined && ts.isIdentifier(m.name) && m.name.text === member,
    );
    const tag = found && ts.getJSDocDeprecatedTag(found);
    return tag ? (ts.getTextOfJSDocComment(tag.comment) ?? "Deprecated.") : undefined;
  }
}
