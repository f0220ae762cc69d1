/**
 * The site's styles have one source for each design value (issue 15): colours, fonts, radii and
 * shadows are custom properties of site/styles/tokens.css only, each colour role has one name,
 * no stylesheet hard-codes a colour the tokens hold, every custom property in use is defined, and
 * no CSS file grows past 400 lines.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SITE = path.resolve(import.meta.dirname, '../../site');
const TOKENS = 'styles/tokens.css';

/** Paths under site/, relative to it, of the files whose name ends in one of `endings`. */
function siteFiles(...endings: string[]): string[] {
  return readdirSync(SITE, { recursive: true, encoding: 'utf8' })
    .filter((file) => endings.some((ending) => file.endsWith(ending)))
    .map((file) => file.split(path.sep).join('/'))
    .sort();
}

const read = (file: string) => readFileSync(path.join(SITE, file), 'utf8');

/** Every stylesheet text of the site: the CSS files and the <style> blocks of .astro files. */
const stylesheets: Array<{ file: string; css: string }> = [
  ...siteFiles('.css').map((file) => ({ file, css: read(file) })),
  ...siteFiles('.astro').flatMap((file) =>
    [...read(file).matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((m) => ({ file, css: m[1]! })),
  ),
];

const withoutComments = (css: string) => css.replace(/\/\*[\s\S]*?\*\//g, '');

/** `--name: value` declarations of a stylesheet. */
function customProperties(css: string): Array<{ name: string; value: string }> {
  return [...withoutComments(css).matchAll(/(--[\w-]+)\s*:\s*([^;{}]+)/g)].map((m) => ({
    name: m[1]!,
    value: m[2]!.trim(),
  }));
}

const COLOUR =
  /#[0-9a-f]{3,8}\b|\b(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch|color)\(|\b(?:white|black)\b/i;

const tokens = customProperties(read(TOKENS));
const colourTokens = tokens.filter((token) => COLOUR.test(token.value));

/** A colour in a comparable form: lower case, #rgb written #rrggbb, spaces folded. */
function normalColour(value: string): string {
  const lower = value.toLowerCase().replace(/\s+/g, ' ');
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/.exec(lower);
  return short ? `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}` : lower;
}

describe('site styles', () => {
  it('keeps every CSS file under site/ at 400 lines or fewer', () => {
    const long = siteFiles('.css')
      .map((file) => ({ file, lines: read(file).split('\n').length - 1 }))
      .filter(({ lines }) => lines > 400);
    expect(long).toEqual([]);
  });

  it('defines colours as custom properties in the tokens file only', () => {
    expect(colourTokens.length).toBeGreaterThan(10);
    const elsewhere = stylesheets
      .filter(({ file }) => file !== TOKENS)
      .flatMap(({ file, css }) =>
        customProperties(css)
          .filter(({ value }) => COLOUR.test(value))
          .map(({ name, value }) => `${file}: ${name}: ${value}`),
      );
    expect(elsewhere).toEqual([]);
  });

  it('gives each colour one token name', () => {
    const byValue = new Map<string, string[]>();
    for (const { name, value } of colourTokens) {
      const key = normalColour(value);
      byValue.set(key, [...(byValue.get(key) ?? []), name]);
    }
    expect([...byValue.values()].filter((names) => names.length > 1)).toEqual([]);
  });

  it('uses none of the retired names of a colour role', () => {
    // --bad and --danger (and their pairs) named one role in two pages; --color-warn and
    // --color-gold one colour. One name now: the --color-* token.
    const retired =
      /var\(\s*--(?:bad|good|warn|info|danger|status-[\w-]+)\b|--(?:bad|good|warn|info|danger|status-[\w-]+)\s*:/;
    const found = [
      ...stylesheets.map(({ file, css }) => ({ file, text: css })),
      ...siteFiles('.tsx', '.ts').map((file) => ({ file, text: read(file) })),
    ].filter(({ text }) => retired.test(text));
    expect(found.map(({ file }) => file)).toEqual([]);
  });

  it('hard-codes no colour that a token holds, outside the tokens file', () => {
    // White and black are plain white and black, not a role of the palette.
    const held = new Map(
      colourTokens
        .map(({ name, value }) => [normalColour(value), name] as const)
        .filter(([value]) => value.startsWith('#') && !['#ffffff', '#000000'].includes(value)),
    );
    const copies = stylesheets
      .filter(({ file }) => file !== TOKENS)
      .flatMap(({ file, css }) =>
        [...withoutComments(css).matchAll(/#[0-9a-f]{3,8}\b/gi)]
          .filter((m) => held.has(normalColour(m[0])))
          .map((m) => `${file}: ${m[0]} is var(${held.get(normalColour(m[0]))})`),
      );
    expect(copies).toEqual([]);
  });

  it('refers only to custom properties that are defined', () => {
    const sources = [
      ...stylesheets.map(({ css }) => css),
      ...siteFiles('.tsx', '.ts', '.astro').map(read),
    ].map(withoutComments);
    const defined = new Set(
      sources.flatMap((text) => [...text.matchAll(/(--[\w-]+)\s*:/g)].map((m) => m[1]!)),
    );
    const used = new Set(
      sources.flatMap((text) => [...text.matchAll(/var\(\s*(--[\w-]+)/g)].map((m) => m[1]!)),
    );
    expect([...used].filter((name) => !defined.has(name)).sort()).toEqual([]);
  });
});
