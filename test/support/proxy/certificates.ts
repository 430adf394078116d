import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** A key and the certificate a test CA issued for it, in PEM. */
export interface Issued {
  key: string;
  cert: string;
}

/** A certificate authority made for one test run, and the certificates it issues. */
export interface TestCa {
  /** The CA's certificate: what a client must trust. */
  pem: string;
  /** Its path, for the settings and variables that take a file. */
  file: string;
  /** A certificate for these names (`DNS:svc.corp.test`, `IP:127.0.0.1`), valid one day. */
  issue(altNames: string[]): Issued;
}

/** A CA of its own in `dir` (openssl, EC P-256 keys), named `name`. */
export function makeTestCa(dir: string, name: string): TestCa {
  const path = (file: string) => join(dir, `${name}-${file}`);
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  openssl(["req", "-x509", ...ec, "-days", "1", "-subj", `/CN=${name}`, "-keyout", path("ca.key"), "-out", path("ca.pem")]);
  let issued = 0;
  return {
    pem: readFileSync(path("ca.pem"), "utf8"),
    file: path("ca.pem"),
    issue(altNames) {
      const n = ++issued;
      const leaf = (file: string) => path(`leaf${n}-${file}`);
      const [key, cert, ext] = [leaf("key.pem"), leaf("cert.pem"), leaf("ext.cnf")];
      writeFileSync(ext, `subjectAltName=${altNames.join(",")}\nbasicConstraints=CA:FALSE\n`);
      openssl(["req", "-new", ...ec, "-subj", `/CN=${altNames[0].replace(/^\w+:/, "")}`, "-keyout", key, "-out", leaf("csr.pem")]);
      openssl(
        ["x509", "-req", "-in", leaf("csr.pem"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"), "-CAcreateserial"].concat([
          "-days",
          "1",
          "-extfile",
          ext,
          "-out",
          cert,
        ]),
      );
      return { key: readFileSync(key, "utf8"), cert: readFileSync(cert, "utf8") };
    },
  };
}

function openssl(args: string[]): void {
  execFileSync("openssl", args, { stdio: "ignore" });
}
