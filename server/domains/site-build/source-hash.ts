/**
 * The site's inputs and their content hash: a release built from other inputs is stale.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Inputs of the static site: a change to any of them makes the live release stale. */
export const SOURCE_PATHS = [
  'site',
  'content',
  'shared',
  'server/contracts',
  'astro.config.mjs',
  'astro.articles.config.mjs',
  'package-lock.json',
];

/**
 * A content hash of every site input (paths and bytes, plus the build settings such as the public
 * origin and PUBLIC_* variables that Astro inlines), independent of mtimes.
 */
export async function computeSourceHash(
  root = PROJECT_ROOT,
  extraFiles: string[] = [],
  settings: Record<string, string> = {},
  digest: SourceDigest = (bytes) => bytes,
): Promise<string> {
  const hash = createHash('sha256');
  for (const [key, value] of Object.entries(settings).sort(([a], [b]) => a.localeCompare(b))) {
    hash.update(`${key}=${value}\0`);
  }
  for (const file of extraFiles) {
    // By name within DATA_DIR: instances with other data directories hash the same inputs alike.
    hash.update(path.basename(file));
    hash.update(digest(await readFile(file).catch(() => Buffer.alloc(0))));
  }
  for (const rel of SOURCE_PATHS) {
    const abs = path.join(root, rel);
    let files: string[];
    try {
      const entries = await readdir(abs, { recursive: true, withFileTypes: true });
      files = entries
        .filter((e) => e.isFile())
        .map((e) => path.relative(root, path.join(e.parentPath, e.name)));
    } catch {
      files = [rel]; // a file, or missing
    }
    for (const file of files.sort()) {
      hash.update(file);
      hash.update(await readFile(path.join(root, file)).catch(() => Buffer.alloc(0)));
    }
  }
  return hash.digest('hex').slice(0, 16);
}

/** What of an extra source's bytes counts toward the source hash. */
export type SourceDigest = (bytes: Buffer) => Buffer | string;
