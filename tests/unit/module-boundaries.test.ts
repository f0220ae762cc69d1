/**
 * Module boundaries that keep the code easy to change: core/ knows no domain, and `npm run build`
 * builds the site without loading the app (server/app.ts and everything it composes).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

/** The relative modules a file imports (static `from '…'` and `import('…')`). */
function relativeImports(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  return [...source.matchAll(/(?:from\s+|import\s*\()\s*'(\.{1,2}\/[^']+)'/g)].map((m) =>
    path.resolve(path.dirname(file), m[1]!),
  );
}

/** Every project module reachable from `entry`. */
function moduleGraph(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file) || !file.endsWith('.ts')) return;
    seen.add(file);
    for (const next of relativeImports(file)) visit(next);
  };
  visit(entry);
  return seen;
}

const rel = (file: string) => path.relative(root, file);

describe('module boundaries', () => {
  it('server/core imports no domain', () => {
    const coreDir = path.join(root, 'server', 'core');
    const offending = readdirSync(coreDir)
      .filter((name) => name.endsWith('.ts'))
      .flatMap((name) =>
        relativeImports(path.join(coreDir, name))
          .filter((target) => rel(target).startsWith('server/domains/'))
          .map((target) => `${name} → ${rel(target)}`),
      );
    expect(offending).toEqual([]);
  });

  it('npm run build loads the site builder, the blog and the database, not the app', () => {
    const graph = [...moduleGraph(path.join(root, 'server/domains/site-build/cli.ts'))].map(rel);
    expect(graph).not.toContain('server/app.ts');
    expect(graph).toContain('server/domains/site-build/service.ts');
    expect(graph).toContain('server/domains/blog/service.ts');
    expect(graph.filter((file) => /\/routes\.ts$/.test(file))).toEqual([]);
  });

  it('the walker follows imports (the app reaches every domain routes file)', () => {
    const graph = [...moduleGraph(path.join(root, 'server/app.ts'))].map(rel);
    expect(graph).toContain('server/domains/video/routes.ts');
    expect(graph).toContain('server/core/db.ts');
  });
});
