/**
 * A site release: the output of `astro build` under DATA_DIR/site/releases/<id> (the site's
 * pages, and the blog's built apart: article-pages.ts), with a release.json manifest. `current`
 * is a symlink switched atomically to the live release.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, readlink, rename, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface ReleaseManifest {
  id: string;
  builtAt: string;
  sourceHash: string;
  durationMs: number;
  /** Every file of the release, relative, with forward slashes. */
  files: string[];
  /** CSP hashes ('sha256-…') of the inline scripts the pages carry. */
  inlineScriptHashes: string[];
  /**
   * The hash of the site's sources and settings alone (no posts): the site part of the release
   * was built from them, and the blog's pages built apart (article-pages.ts) must match it.
   */
  siteKey?: string;
  /**
   * The site without its blog pages (articles, list pages, feeds, sitemap): a first start's
   * release, live while those pages build; the release that follows has them.
   */
  partial?: boolean;
}

export const MANIFEST = 'release.json';
/** The article pages' index (article-pages.ts): beside the manifest, never served. */
export const ARTICLE_INDEX = 'articles.json';

export const siteDirs = (dataDir: string) => {
  const root = path.join(dataDir, 'site');
  return { root, releases: path.join(root, 'releases'), current: path.join(root, 'current') };
};

/** Lists the files of a built release, relative to its root. */
export async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .filter((f) => f !== MANIFEST && f !== ARTICLE_INDEX)
    .sort();
}

const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;

/** The sha256 CSP source of every executable inline script in the release's HTML pages. */
export async function inlineScriptHashes(dir: string, files: string[]): Promise<string[]> {
  const hashes = new Set<string>();
  for (const file of files.filter((f) => f.endsWith('.html'))) {
    const html = await readFile(path.join(dir, file), 'utf8');
    for (const match of html.matchAll(INLINE_SCRIPT)) {
      const attrs = match[1] ?? '';
      if (/\bsrc\s*=/i.test(attrs)) continue;
      const type = /\btype\s*=\s*["']?([^"'\s>]+)/i.exec(attrs)?.[1]?.toLowerCase();
      if (type && type !== 'module' && type !== 'text/javascript') continue; // data blocks
      hashes.add(
        `sha256-${createHash('sha256')
          .update(match[2] ?? '')
          .digest('base64')}`,
      );
    }
  }
  return [...hashes].sort();
}

export async function readManifest(dir: string): Promise<ReleaseManifest | null> {
  try {
    return JSON.parse(await readFile(path.join(dir, MANIFEST), 'utf8')) as ReleaseManifest;
  } catch {
    return null;
  }
}

export async function writeManifest(dir: string, manifest: ReleaseManifest): Promise<void> {
  await writeFile(path.join(dir, MANIFEST), JSON.stringify(manifest, null, 2));
}

/** Points `current` at a release by renaming a fresh symlink over it (atomic on POSIX). */
export async function switchCurrent(dataDir: string, releaseId: string): Promise<void> {
  const { current, root } = siteDirs(dataDir);
  const tmp = path.join(root, `.current-${process.pid}-${Date.now()}`);
  await symlink(path.join('releases', releaseId), tmp);
  await rename(tmp, current);
}

/** The id of the live release, or null before the first build. */
export async function currentReleaseId(dataDir: string): Promise<string | null> {
  try {
    return path.basename(await readlink(siteDirs(dataDir).current));
  } catch {
    return null;
  }
}

/** Deletes all but the newest `keep` releases, never the live one. */
export async function pruneReleases(dataDir: string, keep = 3): Promise<void> {
  const { releases } = siteDirs(dataDir);
  const live = await currentReleaseId(dataDir);
  const ids = (await readdir(releases)).sort().reverse();
  for (const id of ids.slice(keep)) {
    if (id !== live) await rm(path.join(releases, id), { recursive: true, force: true });
  }
}
