import { renamedNames, type Names } from "./names";

/**
 * The names the service's vendor gives what the spec names neutrally (`background/vendor-clients-and-settings.md`):
 * the names the vendor's own client (Vault's Go client, `github.com/hashicorp/vault/api`) and the tools built on it
 * send and read. Only the emulator's `vendorNames` option speaks them, to clients that send the vendor's token header.
 */
export const VENDOR_NAMES: Names = renamedNames({
  tokenHeader: "x-vault-token",
  namespaceHeader: "x-vault-namespace",
  defaultFilePrefix: "vault-snapshot",
  types: { "cloudA-s3": "aws-s3", "cloudB-blob": "azure-blob", "cloudC-gcs": "google-gcs" },
  prefixes: { cloudA_: "aws_", cloudB_: "azure_", cloudC_: "google_" },
});
