import { Attributes, missingId, put, type Mapped, type MappedResource, type TypeMapping } from "./mapping";

/**
 * hashicorp/tfe `tfe_organization_run_task` -> `runtask:index:RunTask`, imported by its `task-...` id.
 *
 * Schema version 0 in every release: the plugin SDK until v0.54.0 (`description` stored as `""` when unset), the
 * plugin framework after (`description` defaulting to `""`), `hmac_key_wo` (write-only, never stored) from v0.65.0,
 * `hmac_key_wo_version` from v0.75.0. `hmac_key` holds the key Terraform last sent, in plain text: the service never
 * returns it. With `hmac_key_wo_version` set the key went write-only, `hmac_key` is `""`, and the key is unknown here.
 * An empty `hmac_key` otherwise says no more: no key, or a task Terraform imported (its import sets `""`).
 */
export const tfeOrganizationRunTask: TypeMapping = {
  terraformType: "tfe_organization_run_task",
  provider: "hashicorp/tfe",
  schemaVersions: [0],
  map(instance): Mapped {
    const a = new Attributes(instance, ["id", "hmac_key_wo"]);
    const id = a.string("id");
    if (!id) return missingId(instance, "id", "the task's task-... id");
    const organization = a.string("organization");
    if (!organization) return missingId(instance, "organization", "the task's organization");
    const mapped: MappedResource = {
      kind: "resource",
      pulumiType: "runtask:index:RunTask",
      importId: id,
      object: `task:${id}`,
      inputs: { organization },
      secrets: {},
      carried: { organization: "organization" },
      notCarried: [],
      unknownSecrets: [],
      references: {},
    };
    const carry = (attribute: string, input: string, value: unknown) => {
      if (value === undefined) return;
      put(mapped.inputs, input, value);
      mapped.carried[attribute] = input;
    };
    carry("name", "name", a.string("name"));
    carry("url", "url", a.string("url"));
    carry("description", "description", a.string("description"));
    // "task" is the only category and this package's default; any other is carried, for the check to refuse.
    const category = a.string("category");
    carry("category", "category", category === "task" ? undefined : category);
    // true is the default on both sides.
    carry("enabled", "enabled", a.flag("enabled") === false ? false : undefined);
    const key = a.string("hmac_key");
    if (key) {
      mapped.secrets.hmacKey = key;
      mapped.carried.hmac_key = "hmacKey";
    }
    const woVersion = instance.attributes.hmac_key_wo_version;
    a.number("hmac_key_wo_version");
    if (typeof woVersion === "number") {
      mapped.notCarried.push(
        { attribute: "hmac_key_wo", why: "write-only in Terraform (hmac_key_wo_version is set): its state never held the key" },
        { attribute: "hmac_key_wo_version", why: "Terraform's trigger for sending the write-only key; this package sends hmacKey when it changes" },
      );
      mapped.unknownSecrets.push({
        input: "hmacKey",
        attribute: "hmac_key_wo",
        whileUnset: "the task keeps the key it has: an update sends the key only when the program's changes",
      });
    }
    if (!key && typeof woVersion !== "number") {
      mapped.notCarried.push({
        attribute: "hmac_key",
        why:
          "empty in Terraform's state: the task has no key, or Terraform imported it (an import never reads the key, which the " +
          "service never returns). The task keeps whatever key it has; to manage one, set it as a secret in the stack config and " +
          "give it as hmacKey in the program, and the next `pulumi up` sends it",
      });
    }
    mapped.notCarried.push(...a.unknownWithValues());
    return mapped;
  },
};
