import type * as pulumi from "@pulumi/pulumi";

/**
 * The provider objects handed to `dynamic.Resource` (one module each under `shims/`). Each method loads the
 * installed package's provider entry at call time and delegates, so that even where the closure serializer has to
 * store these methods by value (the package is linked from outside node_modules), the text holds nothing but the
 * kind of resource: no implementation, no credential. Terse on purpose: that text is stored with every resource.
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
