import { redact } from "../../provider/common/redact";

/** Every form of a secret a server may quote is replaced; text that merely looks alike is left. */
describe("redact", () => {
  const pem = "-----BEGIN PRIVATE KEY-----\nMIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgw\nQ2FuYXJ5TGluZVR3b0lzU2VjcmV0\n-----END PRIVATE KEY-----\n";

  test.each([
    ["as it is", "key-0123456789", (s: string) => `bad ${s}`],
    ["JSON-escaped", 'a "quoted"\nkey', (s: string) => `bad ${JSON.stringify(s)}`],
    ["URL-encoded", "hmac/key+7 =", (s: string) => `GET /hook?key=${encodeURIComponent(s)}`],
    ["form-encoded", "hmac key 7", (s: string) => `body key=${encodeURIComponent(s).replace(/%20/g, "+")}`],
    ["one line of a PEM key", pem, (s: string) => `invalid line ${s.split("\n")[2]}`],
    ["base64, whole", "secret-access-key-01", (s: string) => `Basic ${Buffer.from(s).toString("base64")}`],
    ...[0, 1, 2].map((offset) => [
      `base64, inside a longer encoded text at offset ${offset}`,
      "secret-access-key-01",
      (s: string) => `payload ${Buffer.from(`${"p".repeat(offset + 3)}${s};tail`).toString("base64")}`,
    ]),
    ["base64url", "secret?access>key~01", (s: string) => `token ${Buffer.from(s).toString("base64url")}`],
  ] as [string, string, (s: string) => string][])("%s", (_label, secret, quote) => {
    const text = quote(secret);
    const out = redact(text, [secret]);
    expect(out).toContain("[redacted]");
    // What is left of an encoding decodes to no more than a few bytes at each end of the secret.
    expect(out).not.toContain(secret.trim());
    expect(Buffer.from(out.split(" ").at(-1)!, "base64").toString("latin1")).not.toContain(secret.trim().slice(2, -2));
  });

  test("short lines and short secrets are left: too common to tell from other text", () => {
    expect(redact("code 42 at line END", ["42", "a\nEND\n"])).toBe("code 42 at line END");
  });
});
