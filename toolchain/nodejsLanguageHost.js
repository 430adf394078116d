// `pulumi-language-nodejs` for the tests and benchmarks, where the CLI built here has none (the Go module proxy does not serve the
// Node.js language host): the same LanguageRuntime service the Automation API serves an inline program with
// (@pulumi/pulumi's `LanguageServer`), started by the CLI as it starts the real host, for a `runtime: nodejs` project.
// Run compiles the project's TypeScript as the real host does before running it (type-checked, demo/typescriptProgram's
// compileProgram, as built in dist/, under the project's tsconfig.json) and runs its `main` (package.json) or index.ts in this process,
// its exports the stack's outputs. @pulumi/pulumi and the program's packages are loaded from the project's folder.
// Started as `node nodejsLanguageHost.js <engine address>`; prints its port alone on stdout.
"use strict";
const { createRequire } = require("node:module");
const { createHash } = require("node:crypto");
const { existsSync, mkdirSync, readFileSync, writeFileSync } = require("node:fs");
const { tmpdir } = require("node:os");
const path = require("node:path");

const projectRequire = (dir) => createRequire(path.join(dir, "package.json"));

async function main() {
  const from = projectRequire(process.cwd());
  const grpc = from("@grpc/grpc-js");
  const { LanguageServer } = from("@pulumi/pulumi/automation/server");
  const langrpc = from("@pulumi/pulumi/proto/language_grpc_pb");
  const langproto = from("@pulumi/pulumi/proto/language_pb");

  class ProjectLanguageServer extends LanguageServer {
    constructor() {
      super(undefined);
    }

    getRequiredPackages(_call, callback) {
      callback(undefined, new langproto.GetRequiredPackagesResponse().setPackagesList([]));
    }

    run(call, callback) {
      const dir = call.request.getInfo()?.getProgramDirectory() || call.request.getPwd() || process.cwd();
      this.program = () => runProject(dir);
      return super.run(call, callback);
    }
  }

  const server = new grpc.Server();
  server.addService(langrpc.LanguageRuntimeService, new ProjectLanguageServer());
  const port = await new Promise((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  process.stdout.write(`${port}\n`);
}

/** Compiles the project's TypeScript and runs its entry point; its exports are the stack's outputs. */
async function runProject(dir) {
  const pkg = existsSync(path.join(dir, "package.json")) ? JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) : {};
  const entry = pkg.main ?? "index.ts";
  if (entry.endsWith(".ts")) {
    // A program type-checked once is only transpiled again: the same text and settings, the same answer.
    const { compileProgram } = require(path.join(__dirname, "../dist/demo/typescriptProgram.js"));
    const texts = [entry, "tsconfig.json"].map((f) => (existsSync(path.join(dir, f)) ? readFileSync(path.join(dir, f), "utf8") : ""));
    const checked = path.join(
      tmpdir(),
      "nodejs-language-host-checked",
      createHash("sha256")
        .update(JSON.stringify([dir, ...texts]))
        .digest("hex"),
    );
    compileProgram(dir, [entry], existsSync(checked) ? { ...process.env, PULUMI_NODEJS_TRANSPILE_ONLY: "true" } : process.env);
    mkdirSync(path.dirname(checked), { recursive: true });
    writeFileSync(checked, "");
  }
  const exported = projectRequire(dir)(path.resolve(dir, entry.replace(/\.ts$/, ".js")));
  const run = typeof exported === "function" ? exported : typeof exported.default === "function" ? exported.default : undefined;
  return run ? await run() : exported;
}

main().catch((err) => {
  process.stderr.write(`${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
});
