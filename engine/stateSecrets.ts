import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from "node:crypto";
import { SECRET_SIG, SECRET_VALUE } from "./secrets";

/**
 * Secret values of a kept state, encrypted as the Pulumi engine's passphrase secrets provider keeps a stack's: each
 * value a `{ <sig>: <secret>, ciphertext }` object, with AES-256-GCM under a key derived (scrypt) from a
 * passphrase and the state's salt. The passphrase is not stored; whoever has it can read the values back.
 */
export interface SecretsProviderState {
  type: "passphrase";
  salt: string;
}

export class StateSecrets {
  private readonly key: Buffer;

  constructor(
    passphrase: string,
    readonly provider: SecretsProviderState = { type: "passphrase", salt: randomBytes(16).toString("base64") },
  ) {
    this.key = scryptSync(passphrase, Buffer.from(provider.salt, "base64"), 32);
  }

  /** The value as a secret of the state: the engine's secret signature with the ciphertext. */
  seal(value: unknown): Record<string, string> {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    const text = Buffer.concat([cipher.update(JSON.stringify(value), "utf8"), cipher.final()]);
    return {
      [SECRET_SIG]: SECRET_VALUE,
      ciphertext: `v1:${iv.toString("base64")}:${cipher.getAuthTag().toString("base64")}:${text.toString("base64")}`,
    };
  }

  /** The value a sealed secret holds; fails (a wrong passphrase) when it does not decrypt. */
  open(sealed: { ciphertext: string }): unknown {
    const [, iv, tag, text] = sealed.ciphertext.split(":");
    const decipher = createDecipheriv("aes-256-gcm", this.key, Buffer.from(iv, "base64"));
    decipher.setAuthTag(Buffer.from(tag, "base64"));
    try {
      return JSON.parse(Buffer.concat([decipher.update(Buffer.from(text, "base64")), decipher.final()]).toString("utf8"));
    } catch {
      throw new Error("the state's secrets do not decrypt with this passphrase");
    }
  }
}

/** Whether a value is a sealed secret of a state. */
export function isSealed(value: unknown): value is { ciphertext: string } {
  return (
    value !== null &&
    typeof value === "object" &&
    (value as Record<string, unknown>)[SECRET_SIG] === SECRET_VALUE &&
    typeof (value as { ciphertext?: unknown }).ciphertext === "string"
  );
}
