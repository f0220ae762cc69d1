/**
 * docs/architecture.md stays true: every repository path it names in backticks exists (a `*`
 * matches at least one file), its Mermaid domain map shows every domain folder, and it names
 * every domain's plugin.ts. Moving or adding a domain without updating the map fails here.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const doc = readFileSync(path.join(root, 'docs/architecture.md'), 'utf8');
const domainsDir = path.join(root, 'server/domains');

/** The top-level folders whose paths the doc must keep real. */
const CHECKED = /^(?:server|site|shared|tests|scripts|content)\//;

/** Every `code span` of a markdown text that names a checked repository path. */
function namedPaths(markdown: string): string[] {
  const spans = [...markdown.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!.trim());
  return [...new Set(spans.filter((span) => CHECKED.test(span) && !/\s/.test(span)))];
}

/**
 * Whether a path exists; with `*` or a `<placeholder>` (any name within one folder, as in
 * `providers/<name>/`), whether anything matches.
 */
function pathExists(named: string): boolean {
  const name = named.replace(/<[\w-]+>/g, '*');
  if (!name.includes('*')) return existsSync(path.join(root, name));
  const fixed = name.slice(0, name.indexOf('*'));
  const base = fixed.slice(0, fixed.lastIndexOf('/') + 1);
  const pattern = new RegExp(
    `^${name
      .replace(/\/$/, '')
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('[^/]*')}$`,
  );
  if (!existsSync(path.join(root, base))) return false;
  return readdirSync(path.join(root, base), { recursive: true, withFileTypes: true })
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .map((file) => file.split(path.sep).join('/'))
    .some((file) => pattern.test(file));
}

/** The first ```mermaid block of a markdown text. */
function mermaidBlock(markdown: string): string {
  const block = /^```mermaid\n([\s\S]*?)^```/m.exec(markdown);
  if (!block) throw new Error('docs/architecture.md has no ```mermaid block');
  return block[1]!;
}

const domains = readdirSync(domainsDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** Every plugin.ts below server/domains, as a repository path. */
const pluginFiles = readdirSync(domainsDir, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile() && entry.name === 'plugin.ts')
  .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
  .map((file) => file.split(path.sep).join('/'));

describe('docs/architecture.md', () => {
  it('names only repository paths that exist', () => {
    const named = namedPaths(doc);
    expect(named.length).toBeGreaterThan(50);
    expect(named.filter((name) => !pathExists(name))).toEqual([]);
  });

  it('shows every domain folder in the Mermaid domain map', () => {
    const map = mermaidBlock(doc);
    expect(map.startsWith('flowchart')).toBe(true);
    expect(domains.filter((domain) => !map.includes(`domains/${domain}/`))).toEqual([]);
  });

  it("names every domain's plugin.ts", () => {
    expect(pluginFiles.length).toBeGreaterThanOrEqual(domains.length);
    expect(pluginFiles.filter((file) => !namedPaths(doc).includes(file))).toEqual([]);
  });

  it('checks paths in code spans only, and matches `*` within one folder', () => {
    expect(namedPaths('`server/app.ts`, `npm run build`, `site/ x`, server/none.ts')).toEqual([
      'server/app.ts',
    ]);
    expect(pathExists('server/domains/*/plugin.ts')).toBe(true);
    expect(pathExists('server/*.none')).toBe(false);
    expect(pathExists('server/no-such-file.ts')).toBe(false);
  });
});
