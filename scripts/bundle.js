#!/usr/bin/env node
// Part of `npm run build`, after tsc: bundles the provider core (provider/core.ts) and the provider plugins' entry
// (plugin/server/entry.ts) with their dependencies into dist/provider/core.bundle.js and dist/plugin/server/entry.bundle.js, so
// that a plugin process loads them in one read and one compile rather than some two hundred files, and only the
// parts of zod the provider uses (zod is imported as a namespace so that the rest, its locales among it, is left
// out). undici, gRPC, the protobuf messages and @pulumi/pulumi stay outside: they load from node_modules as they
// are, undici on first use.
"use strict";
const { buildSync } = require("esbuild");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const external = ["undici", "undici/*", "@grpc/grpc-js", "google-protobuf", "google-protobuf/*", "@pulumi/pulumi", "@pulumi/pulumi/*", "typescript"];
for (const [from, to] of [
  ["provider/core.ts", "dist/provider/core.bundle.js"],
  ["plugin/server/entry.ts", "dist/plugin/server/entry.bundle.js"],
]) {
  buildSync({
    entryPoints: [path.join(root, from)],
    outfile: path.join(root, to),
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node22",
    external,
    // Smaller to parse. Identifiers are not renamed, so stack traces keep their names without keepNames, which
    // would wrap every closure made at run time in a call.
    minifyWhitespace: true,
    minifySyntax: true,
    sourcemap: true,
    logLevel: "warning",
  });
}
