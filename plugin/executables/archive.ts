import { createHash } from "node:crypto";
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { create, list } from "tar";
import type { Platform } from "./platform";

/**
 * The archive of a plugin as Pulumi names it (sdk/go/common/workspace/plugins.go, `standardAssetName`): what
 * `pulumi plugin install resource <plugin> <version> --file` takes, and what the engine downloads from a
 * `pluginDownloadURL`, by this name alone.
 */
export function archiveName(plugin: string, version: string, p: Platform): string {
  return `pulumi-resource-${plugin}-v${version}-${p.os}-${p.arch}.tar.gz`;
}

/**
 * Packs `executable` alone, at the archive's root, into `archive`: gzip at the default level (level 9 takes 2.5
 * times as long for 0.6% less), no owner, and a fixed modification time, so that the same executable packs to the same
 * bytes. Written beside and renamed, so that an archive at that name is always whole.
 */
export async function packArchive(executable: string, archive: string): Promise<void> {
  const partial = join(dirname(archive), `.${basename(archive)}.${process.pid}`);
  try {
    await create({ file: partial, cwd: dirname(executable), gzip: true, portable: true, mtime: new Date("2000-01-01T00:00:00Z") }, [
      basename(executable),
    ]);
    renameSync(partial, archive);
  } finally {
    rmSync(partial, { force: true });
  }
}

/** The names of an archive's entries (with their modes), for checks. */
export async function archiveEntries(archive: string): Promise<{ path: string; mode: number; size: number }[]> {
  const entries: { path: string; mode: number; size: number }[] = [];
  await list({ file: archive, onReadEntry: (e) => entries.push({ path: e.path, mode: e.mode ?? 0, size: e.size ?? 0 }) });
  return entries;
}

/** A file's SHA-256, hex. */
export function sha256(file: string): string {
  return createHash("sha256").update(readFileSync(file)).digest("hex");
}

/** The checksums file beside the archives, named as releases of Pulumi's providers and of most tools name theirs. */
export const CHECKSUMS_FILE = "SHA256SUMS";

/**
 * Writes `SHA256SUMS` into `dir`: the SHA-256 of every plugin archive there, one line each in the form `sha256sum`
 * writes and `sha256sum --check` (or `shasum -a 256 --check`) reads, `<hex>  <name>`, sorted by name. Written beside
 * and renamed, as an archive is. Returns its path.
 */
export function writeChecksums(dir: string): string {
  const archives = readdirSync(dir)
    .filter((f) => /^pulumi-resource-.+\.tar\.gz$/.test(f))
    .sort();
  const file = join(dir, CHECKSUMS_FILE);
  const partial = join(dir, `.${CHECKSUMS_FILE}.${process.pid}`);
  writeFileSync(partial, archives.map((a) => `${sha256(join(dir, a))}  ${a}\n`).join(""));
  renameSync(partial, file);
  return file;
}
