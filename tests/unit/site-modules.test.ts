/**
 * The site's TypeScript stays easy to find and change (issue 15, item 5): no import circle among
 * site/lib, site/stores and site/islands; requests live in one API client module per feature;
 * the auth state starts in one place; one focus trap, one icon module; the header in small parts.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { filesUnder, rel, relativeImports, ROOT } from '../helpers/source-tree.ts';

const root = ROOT;

const SCRIPT = ['.ts', '.tsx'];
const clientModules = ['site/lib', 'site/stores', 'site/islands'].flatMap((dir) =>
  filesUnder(dir, SCRIPT),
);
const siteSources = filesUnder('site', [...SCRIPT, '.astro']);
const source = (file: string) => readFileSync(file, 'utf8');
const lineCount = (file: string) => source(file).split('\n').length - 1;

/** Each import circle among `files`, as the chain of modules that closes it. */
function importCircles(files: string[]): string[] {
  const inScope = new Set(files);
  const state = new Map<string, 'open' | 'done'>();
  const circles: string[] = [];
  const visit = (file: string, chain: string[]) => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'open') {
      circles.push([...chain.slice(chain.indexOf(file)), file].map(rel).join(' → '));
      return;
    }
    state.set(file, 'open');
    for (const next of relativeImports(file)) {
      if (inScope.has(next)) visit(next, [...chain, file]);
    }
    state.set(file, 'done');
  };
  for (const file of files) visit(file, []);
  return circles;
}

/** Files among `files` whose source matches `pattern`. */
const matching = (files: string[], pattern: RegExp) =>
  files.filter((file) => pattern.test(source(file))).map(rel);

describe('site modules', () => {
  it('have no import circle among site/lib, site/stores and site/islands', () => {
    expect(importCircles(clientModules)).toEqual([]);
  });

  it('the import walker resolves relative imports', () => {
    const auth = path.join(root, 'site/stores/auth.ts');
    expect(relativeImports(path.join(root, 'site/islands/LoginPanel.tsx'))).toContain(auth);
  });

  it('send requests only from the API client modules in site/lib/api', () => {
    const outside = clientModules.filter((file) => !rel(file).startsWith('site/lib/api/'));
    // Others may read the error shape from lib/api/http.ts, but neither ky nor the client itself.
    expect(matching(outside, /from 'ky'/)).toEqual([]);
    expect(matching(outside, /\b(?:api|http)\s*\.(?:get|post|put|patch|delete)\(/)).toEqual([]);
  });

  it('start the auth state in one module, never from an island', () => {
    const starters = matching(
      siteSources,
      /(?<!function )\binitAuth\s*\(|onMount\([^)]*\binitAuth\b/,
    );
    expect(starters.length).toBeLessThanOrEqual(1);
    const outsideStores = siteSources.filter((file) => !rel(file).startsWith('site/stores/'));
    expect(matching(outsideStores, /\binitAuth\b/)).toEqual([]);
  });

  it('trap Tab focus in one module', () => {
    expect(matching(siteSources, /key\s*[!=]==?\s*'Tab'/).length).toBeLessThanOrEqual(1);
  });

  it('draw island icons through the one icon module (no inline <svg> elsewhere)', () => {
    const islands = clientModules.filter((file) => rel(file).startsWith('site/islands/'));
    const inline = islands.filter((file) => !rel(file).startsWith('site/islands/shared/'));
    expect(matching(inline, /<svg\b/)).toEqual([]);
  });

  it('keep the header island in parts of at most 250 lines', () => {
    const layout = source(path.join(root, 'site/layouts/BaseLayout.astro'));
    const entry = /import Header from '(\.{1,2}\/[^']+)'/.exec(layout)?.[1];
    expect(entry).toBeDefined();
    const parts = [
      path.resolve(root, 'site/layouts', entry!),
      ...filesUnder('site/islands/header', SCRIPT),
    ];
    const tooLong = [...new Set(parts)]
      .filter((file) => lineCount(file) > 250)
      .map((file) => `${rel(file)}: ${lineCount(file)}`);
    expect(tooLong).toEqual([]);
  });

  it('keep every site/lib, site/stores and site/islands module under 400 lines', () => {
    const tooLong = clientModules
      .filter((file) => lineCount(file) > 400)
      .map((file) => `${rel(file)}: ${lineCount(file)}`);
    expect(tooLong).toEqual([]);
  });
});
