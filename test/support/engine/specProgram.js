// A Pulumi program described as data, so that a test changes it between steps as a user edits theirs. Run inline by
// runInline.js, in a consumer project, with that project's @pulumi/pulumi and the package installed there.
//
// A description: { resources: [ { type, name, args?, secretArgs?, options? } ], outputs?: { key: value } }, in
// declaration order. `type` is one of the package's dynamic resources (`SnapshotAutoConfig`, `RunTask`,
// `WorkspaceRunTask`), a provider-plugin token (`runtask:index:RunTask`, ...: a `pulumi.CustomResource`), a provider
// (`pulumi:providers:runtask`: a `pulumi.ProviderResource`), or `component` (a `pulumi.ComponentResource`). A value
// `{ "$ref": name, "output"?: key }` anywhere in `args` or `outputs` is that resource's output (default its id).
// Options: the resource options by their SDK names, where `parent` and `provider` name a resource of the description,
// `dependsOn` lists names, and an alias is a URN or `{ name?, type?, parent? }` whose parent names a resource or is
// `"root"` (the stack: no parent).
"use strict";

module.exports = function specProgram(spec, requireFromProject) {
  const pulumi = requireFromProject("@pulumi/pulumi");
  const sdk = requireFromProject("pulumi-snapshot-runtask");
  return async () => {
    const made = {};
    const ref = (name) => {
      if (!made[name]) throw new Error(`the description refers to "${name}" before declaring it`);
      return made[name];
    };
    const resolve = (value) => {
      if (Array.isArray(value)) return value.map(resolve);
      if (value && typeof value === "object") {
        if (typeof value.$ref === "string") return ref(value.$ref)[value.output ?? "id"];
        return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v)]));
      }
      return value;
    };
    const aliasOf = (alias) => {
      if (typeof alias === "string") return alias;
      const out = { ...alias };
      if (alias.parent === "root") out.parent = pulumi.rootStackResource;
      else if (alias.parent) out.parent = ref(alias.parent);
      return out;
    };
    const optionsOf = (options = {}) => {
      const out = { ...options };
      if (options.parent) out.parent = ref(options.parent);
      if (options.provider) out.provider = ref(options.provider);
      if (options.dependsOn) out.dependsOn = options.dependsOn.map(ref);
      if (options.aliases) out.aliases = options.aliases.map(aliasOf);
      return out;
    };
    for (const r of spec.resources) {
      const secret = new Set(r.secretArgs ?? []);
      const args = Object.fromEntries(Object.entries(resolve(r.args ?? {})).map(([k, v]) => [k, secret.has(k) ? pulumi.secret(v) : v]));
      const options = optionsOf(r.options);
      if (r.type === "component") made[r.name] = new pulumi.ComponentResource("test:index:Group", r.name, {}, options);
      else if (r.type.startsWith("pulumi:providers:"))
        made[r.name] = new pulumi.ProviderResource(r.type.slice("pulumi:providers:".length), r.name, args, options);
      else if (r.type.includes(":")) made[r.name] = new pulumi.CustomResource(r.type, r.name, args, options);
      else if (sdk[r.type]) made[r.name] = new sdk[r.type](r.name, args, options);
      else throw new Error(`unknown resource type "${r.type}"`);
    }
    return resolve(spec.outputs ?? {});
  };
};
