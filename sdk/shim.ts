import type * as pulumi from "@pulumi/pulumi";

/**
 * The provider objects of the dynamic resources (one module each under `shims/`), which the provider text of every
 * resource requires by package name (sdk/dynamicResource.ts). Each method loads the installed package's provider entry
 * at call time and delegates. States written by earlier versions hold the text the closure serializer made of these
 * objects (a require of the shim or, where the package was linked from outside node_modules, these methods by value):
 * terse on purpose, and kept working.
 */
export function providerShim(k: "snapshotAutoConfig" | "runTask" | "workspaceRunTask"): pulumi.dynamic.ResourceProvider {
  return {
    configure: async (r) => require("pulumi-snapshot-runtask/provider").configure(r.config),
    check: (o, n) => require("pulumi-snapshot-runtask/provider").providers[k].check(o, n),
    diff: (i, o, n) => require("pulumi-snapshot-runtask/provider").providers[k].diff(i, o, n),
    create: (n) => require("pulumi-snapshot-runtask/provider").providers[k].create(n),
    read: (i, p) => require("pulumi-snapshot-runtask/provider").providers[k].read(i, p),
    update: (i, o, n) => require("pulumi-snapshot-runtask/provider").providers[k].update(i, o, n),
    delete: (i, p) => require("pulumi-snapshot-runtask/provider").providers[k].delete(i, p),
  };
}
