/**
 * Reading the project's own source as files, for the tests that keep its shape (module and domain
 * boundaries, shared values, site modules): listing files, project-relative names, and the
 * relative modules a file imports.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The checkout. */
export const ROOT = path.resolve(import.meta.dirname, '../..');

/** A path relative to the checkout, with forward slashes. */
export const rel = (file: string) => path.relative(ROOT, file).split(path.sep).join('/');

/**
 * Every file under `dir` (relative to the checkout, or absolute) whose name ends with one of
 * `extensions`, as absolute paths in a stable order; none when the folder does not exist.
 */
export function filesUnder(dir: string, extensions: string[]): string[] {
  const absolute = path.resolve(ROOT, dir);
  if (!existsSync(absolute)) return [];
  return readdirSync(absolute, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && extensions.some((ext) => entry.name.endsWith(ext)))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

/** The relative modules a file imports (static `from '…'`, `import '…'` and `import('…')`). */
export function relativeImports(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  return [...source.matchAll(/(?:from\s+|import\s*\(?\s*)'(\.{1,2}\/[^']+)'/g)].map((m) =>
    path.resolve(path.dirname(file), m[1]!),
  );
}

/** Every project TypeScript module reachable from `entry` by relative imports. */
export function moduleGraph(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file) || !file.endsWith('.ts')) return;
    seen.add(file);
    for (const next of relativeImports(file)) visit(next);
  };
  visit(entry);
  return seen;
}
