// Runs one Automation API operation on a stack whose program is inline (described as data, specProgram.js, or a
// program module, as a user's TypeScript compiles to), as a user's Node.js program drives the engine: `node runInline.js <request.json>`, from a consumer project (its @pulumi/pulumi and the
// installed package are the ones loaded). The CLI's output streams to stdout; the last line is `@@result ` and JSON:
// { ok, changes, outputs, steps: [{ urn, op }], diagnostics: [...], error? }.
"use strict";
const { readFileSync } = require("node:fs");
const { createRequire } = require("node:module");
const path = require("node:path");
const specProgram = require("./specProgram");

async function main() {
  const request = JSON.parse(readFileSync(process.argv[2], "utf8"));
  const requireFromProject = createRequire(path.join(process.cwd(), "package.json"));
  const { LocalWorkspace } = requireFromProject("@pulumi/pulumi/automation");
  const program = request.programFile ? moduleProgram(request.programFile) : specProgram(request.spec ?? { resources: [] }, requireFromProject);
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName: request.stack, projectName: request.project, program },
    { workDir: process.cwd() },
  );
  if (request.removeConfig?.length) await stack.removeAllConfig(request.removeConfig);
  if (request.config && Object.keys(request.config).length > 0) await stack.setAllConfig(request.config);
  const steps = [];
  const diagnostics = [];
  const onEvent = (event) => {
    const pre = event.resourcePreEvent;
    if (pre) steps.push({ urn: pre.metadata.urn, op: pre.metadata.op, diffs: pre.metadata.diffs ?? [] });
    // A refresh's changes are known once it ends.
    const done = event.resOutputsEvent;
    const begun = done && steps.filter((s) => s.urn === done.metadata.urn).pop();
    if (begun && begun.diffs.length === 0) begun.diffs = done.metadata.diffs ?? [];
    if (event.diagnosticEvent)
      diagnostics.push({ severity: event.diagnosticEvent.severity, urn: event.diagnosticEvent.urn, message: event.diagnosticEvent.message });
  };
  const options = { ...request.options, onOutput: (text) => process.stdout.write(text), onEvent };
  const result = { ok: true, steps, diagnostics };
  try {
    if (request.op === "up") {
      const r = await stack.up(options);
      Object.assign(result, { changes: r.summary.resourceChanges ?? {}, outputs: r.outputs });
    } else if (request.op === "preview") {
      Object.assign(result, { changes: (await stack.preview(options)).changeSummary });
    } else if (request.op === "refresh") {
      Object.assign(result, { changes: (await stack.refresh(options)).summary.resourceChanges ?? {} });
    } else if (request.op === "destroy") {
      Object.assign(result, { changes: (await stack.destroy(options)).summary.resourceChanges ?? {} });
    } else if (request.op === "import") {
      const r = await stack.import(options);
      Object.assign(result, { changes: r.summary.resourceChanges ?? {}, generatedCode: r.generatedCode });
    } else throw new Error(`unknown operation ${request.op}`);
  } catch (err) {
    Object.assign(result, { ok: false, error: err instanceof Error ? err.message : String(err) });
  }
  process.stdout.write(`\n@@result ${JSON.stringify(result)}\n`);
}

/**
 * A program module run as the Node.js language host runs one: its exports are the stack's outputs, or, where it
 * exports a function (as `module.exports` or `default`), what that function returns.
 */
function moduleProgram(file) {
  return async () => {
    const exported = require(path.resolve(file));
    const main = typeof exported === "function" ? exported : typeof exported.default === "function" ? exported.default : undefined;
    return main ? await main() : exported;
  };
}

main().catch((err) => {
  process.stdout.write(
    `\n@@result ${JSON.stringify({ ok: false, error: String(err && err.stack ? err.stack : err), steps: [], diagnostics: [] })}\n`,
  );
  process.exit(1);
});
