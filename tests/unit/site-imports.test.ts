/**
 * The site never imports the server (issue 32, item 4): site/ and the Astro configs name nothing
 * under server/, in any form (static, dynamic, type-only, re-export, a JSDoc `import()` type),
 * and no module a browser loads (an island, or a component's client `<script>`, and everything
 * they reach) imports a Node builtin. The API's shapes the site needs are plain types in
 * shared/api/; the server's TypeBox schemas for them are checked against those types at compile
 * time (`schemaFor`, server/contracts/common.ts), which the last block here pins.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { Type } from 'typebox';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { schemaFor } from '../../server/contracts/common.ts';
import { filesUnder, rel, ROOT } from '../helpers/source-tree.ts';

const SCRIPT = ['.ts', '.tsx', '.mts', '.js', '.mjs', '.jsx'];

/** The frontmatter of an .astro file (server-side, at build time). */
const frontmatter = (text: string) => /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1] ?? '';
/** The bodies of an .astro file's `<script>` elements (bundled for the browser). */
const clientScripts = (text: string) =>
  [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? '').join('\n');

/**
 * Every module specifier `code` names: `import … from`, `import type`, `export … from`, side
 * effect imports, `import()` and `require()` (TypeScript's own pre-processor), and `import('…')`
 * anywhere else, such as a JSDoc type, which the pre-processor skips.
 */
function specifiersIn(code: string): string[] {
  const found = ts.preProcessFile(code, true, true).importedFiles.map((file) => file.fileName);
  for (const match of code.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g)) {
    found.push(match[1]!);
  }
  return [...new Set(found)];
}

/** The specifiers of a project file; of an .astro file, those of `part` (default: both parts). */
function specifiersOf(file: string, part: 'all' | 'client' = 'all'): string[] {
  const text = readFileSync(file, 'utf8');
  if (!file.endsWith('.astro')) return specifiersIn(text);
  const client = clientScripts(text);
  return specifiersIn(part === 'client' ? client : `${frontmatter(text)}\n${client}`);
}

/** The project file a relative specifier names (`./x.ts`, `../y`, `./z.json?raw`), or null. */
function resolveRelative(from: string, specifier: string): string | null {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return null;
  const base = path.resolve(path.dirname(from), specifier.replace(/[?#].*$/, ''));
  const candidates = [base, ...SCRIPT.map((ext) => base + ext), path.join(base, 'index.ts')];
  return candidates.find((file) => existsSync(file) && statSync(file).isFile()) ?? base;
}

const isUnder = (file: string, dir: string) => rel(file).startsWith(`${dir}/`);

const NODE_BUILTINS = new Set(builtinModules);
/** `node:fs`, `fs`, `fs/promises`…: a module only Node has. */
const isNodeBuiltin = (specifier: string) =>
  specifier.startsWith('node:') || NODE_BUILTINS.has(specifier.split('/')[0]!);

/** `file → target` for each import of `files` that lands under server/. */
function importsIntoServer(files: string[]): string[] {
  return files.flatMap((file) =>
    specifiersOf(file)
      .map((specifier) => resolveRelative(file, specifier))
      .filter((target): target is string => target !== null && isUnder(target, 'server'))
      .map((target) => `${rel(file)} → ${rel(target)}`),
  );
}

// Where browser code may take modules from; anything else it reaches is reported below.
const BROWSER_SOURCES = ['site', 'shared', 'content', 'messages'];

/**
 * Walks the relative imports from `roots` (through site/, shared/, content/ and messages/) and
 * returns each Node builtin, or module outside those folders, that browser code reaches, with
 * the chain of imports that reaches it.
 */
function browserProblems(
  roots: { file: string; part: 'all' | 'client' }[],
  allowed = BROWSER_SOURCES,
): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  const visit = (file: string, part: 'all' | 'client', chain: string[]) => {
    const key = `${file}#${part}`;
    if (seen.has(key)) return;
    seen.add(key);
    const here = [...chain, rel(file)];
    for (const specifier of specifiersOf(file, part)) {
      if (isNodeBuiltin(specifier)) {
        problems.push([...here, specifier].join(' → '));
        continue;
      }
      const target = resolveRelative(file, specifier);
      if (target === null) continue; // an npm package
      if (!allowed.some((dir) => isUnder(target, dir))) {
        problems.push([...here, rel(target)].join(' → '));
      } else if ([...SCRIPT, '.astro'].some((ext) => target.endsWith(ext))) {
        visit(target, 'all', here);
      }
    }
  };
  for (const root of roots) visit(root.file, root.part, []);
  return problems;
}

const siteFiles = [
  ...filesUnder('site', [...SCRIPT, '.astro']),
  // The Astro configs sit at the top of the checkout: read that folder alone (walking the whole
  // checkout read node_modules too, where site builds add and remove folders meanwhile).
  ...readdirSync(ROOT)
    .filter((name) => /^astro[\w.-]*\.config\.mjs$/.test(name))
    .map((name) => path.join(ROOT, name)),
];
const islandRoots = filesUnder('site/islands', SCRIPT).map((file) => ({
  file,
  part: 'all' as const,
}));
const scriptRoots = filesUnder('site', ['.astro'])
  .filter((file) => clientScripts(readFileSync(file, 'utf8')).trim() !== '')
  .map((file) => ({ file, part: 'client' as const }));

describe('the site never imports the server', () => {
  it('no file of site/ or the Astro configs imports anything under server/', () => {
    expect(siteFiles.length).toBeGreaterThan(100);
    expect(siteFiles.map(rel)).toContain('astro.config.mjs');
    expect(importsIntoServer(siteFiles)).toEqual([]);
  });

  it('no island or client script reaches a Node builtin or a module outside the site sources', () => {
    expect(islandRoots.length).toBeGreaterThan(20);
    expect(browserProblems([...islandRoots, ...scriptRoots])).toEqual([]);
  });
});

describe('the import checks see every form of import', () => {
  it('reads static, type-only, re-exported, dynamic, side-effect and JSDoc imports', () => {
    const code = [
      "import { a } from './a.ts';",
      "import type { B } from '../b.ts';",
      "import { type C, d } from './c.ts';",
      "export type { E } from './e.ts';",
      "export * from './f.ts';",
      "import './g.css';",
      "const h = await import('./h.ts');",
      "type I = import('./i.ts').I;",
      "/** @type {import('./j.ts').J} */",
      'const el = <div className={`x${1}`}>{h ? "k" : null}</div>;',
    ].join('\n');
    expect(specifiersIn(code)).toEqual(
      expect.arrayContaining(['./a.ts', '../b.ts', './c.ts', './e.ts', './f.ts', './g.css']),
    );
    expect(specifiersIn(code)).toEqual(expect.arrayContaining(['./h.ts', './i.ts', './j.ts']));
  });

  it('reads an .astro file’s frontmatter and scripts, and its scripts alone as browser code', () => {
    const page = path.join(ROOT, 'site/pages/embed/[id].astro');
    expect(specifiersOf(page)).toContain('../../../shared/samples.ts');
    const text =
      "---\nimport x from '../x.ts';\n---\n<p>import</p><script>import './y.ts';</script>";
    expect(specifiersIn(frontmatter(text))).toEqual(['../x.ts']);
    expect(specifiersIn(clientScripts(text))).toEqual(['./y.ts']);
  });

  const fixture = (name: string) => path.join(ROOT, 'tests/unit/fixtures/site-imports', name);
  const FIXTURES = 'tests/unit/fixtures/site-imports';

  it('reports type-only, JSDoc and client-script imports into server/', () => {
    expect(importsIntoServer([fixture('page.astro'), fixture('config.mjs')])).toEqual([
      `${FIXTURES}/page.astro → server/contracts/blog.ts`,
      `${FIXTURES}/page.astro → server/core/errors.ts`,
      `${FIXTURES}/config.mjs → server/contracts/blog.ts`,
    ]);
  });

  it('reports a Node builtin an island reaches through another module, with the chain', () => {
    expect(browserProblems([{ file: fixture('Island.tsx'), part: 'all' }], [FIXTURES])).toEqual([
      `${FIXTURES}/Island.tsx → ${FIXTURES}/helper.ts → node:fs`,
      `${FIXTURES}/Island.tsx → ${FIXTURES}/helper.ts → path`,
    ]);
    // Outside the folders browser code may use, a module is reported without being read.
    expect(browserProblems([{ file: fixture('Island.tsx'), part: 'all' }], ['site'])).toEqual([
      `${FIXTURES}/Island.tsx → ${FIXTURES}/helper.ts`,
    ]);
    expect(['node:fs', 'fs', 'fs/promises', 'path'].every(isNodeBuiltin)).toBe(true);
    expect(['nanostores', 'react-dom/client', 'ky'].some(isNodeBuiltin)).toBe(false);
  });

  it('follows an island through site/lib into shared/', () => {
    const island = path.join(ROOT, 'site/islands/History.tsx');
    const reached = new Set<string>();
    const walk = (file: string) => {
      if (reached.has(rel(file))) return;
      reached.add(rel(file));
      for (const specifier of specifiersOf(file)) {
        const target = resolveRelative(file, specifier);
        if (target && /\.tsx?$/.test(target)) walk(target);
      }
    };
    walk(island);
    expect(reached).toContain('site/lib/api/video.ts');
    expect(reached).toContain('shared/api/video.ts');
  });
});

describe('the server’s schemas describe exactly the shared types', () => {
  type Shape = { id: string; name: string | null; tags?: string[] };
  const Schema = Type.Object({
    id: Type.String(),
    name: Type.Union([Type.String(), Type.Null()]),
    tags: Type.Optional(Type.Array(Type.String())),
  });

  it('passes a schema through, and refuses one that differs from its type at compile time', () => {
    expect(schemaFor<Shape>()(Schema)).toBe(Schema);
    // None of these may compile: `npm run typecheck` fails on a directive with nothing to expect.
    const refused = [
      // @ts-expect-error a field of the type is missing from the schema
      schemaFor<Shape & { extra: number }>()(Schema),
      // @ts-expect-error an optional field of the schema is required in the type
      schemaFor<{ id: string; name: string | null; tags: string[] }>()(Schema),
      // @ts-expect-error a field is typed otherwise
      schemaFor<{ id: number; name: string | null; tags?: string[] }>()(Schema),
      // @ts-expect-error the type allows null where the schema does not
      schemaFor<{ id: string | null; name: string | null; tags?: string[] }>()(Schema),
    ];
    expect(refused.every((schema) => schema === Schema)).toBe(true);
  });
});
