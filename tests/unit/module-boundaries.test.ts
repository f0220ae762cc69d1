/**
 * Module boundaries that keep the code easy to change: core/ knows no domain, and `npm run build`
 * builds the site without loading the app (server/app.ts and everything it composes).
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { moduleGraph, rel, relativeImports, ROOT } from '../helpers/source-tree.ts';

const root = ROOT;

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
