import { createHash } from "node:crypto";
import { readFileSync, renameSync, rmSync } from "node:fs";
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
