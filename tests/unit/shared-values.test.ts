/**
 * Shared values have one source (issue 15): the plans, packs, costs, limits, model names and texts
 * both the site and the server use live in shared/, plain modules without a schema library;
 * server/contracts holds only the schemas built from them; the site takes values from shared/ and
 * never writes one of them again (as a constant, a literal in its copy or a quoted message).
 * Issue 32 item 6: content/ too writes no number that follows from them (a video count, a price
 * per video, the video's cost or length); its copy names them with `{{placeholders}}` that the
 * loaders fill (shared/plan-copy.ts for the catalogue's copy and the sample articles).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { filesUnder, rel } from '../helpers/source-tree.ts';

import { VIDEO_COST, VIDEO_SECONDS } from '../../shared/video.ts';
import { MEGABYTE } from '../../shared/images.ts';
import { PACKS, PLANS } from '../../shared/billing.ts';
import { copyValues, videosFor } from '../../shared/plan-copy.ts';

const sharedFiles = filesUnder('shared', ['.ts']);
const contractFiles = filesUnder('server/contracts', ['.ts']);
/** The site's code and markup; <style> blocks are left out (CSS lengths are not values here). */
// The compiled messages (site/i18n/messages/) are left out: each language needs its own copy of a
// shared sentence, and tests/unit/messages.test.ts holds their English to the shared value.
const siteSources = filesUnder('site', ['.ts', '.tsx', '.astro'])
  .filter((file) => !rel(file).startsWith('site/i18n/messages/'))
  .map((file) => ({
    file: rel(file),
    text: readFileSync(file, 'utf8').replace(/<style[\s\S]*?<\/style>/g, ''),
  }));

/** The exports of every shared module, by name. */
const sharedExports = new Map<string, unknown>();
for (const file of sharedFiles) {
  const module = (await import(file)) as Record<string, unknown>;
  for (const [name, value] of Object.entries(module)) sharedExports.set(name, value);
}

/** Numbers and message texts inside the shared values (functions return their texts). */
function leaves(value: unknown, out = { numbers: [] as number[], texts: [] as string[] }) {
  if (typeof value === 'number') out.numbers.push(value);
  else if (typeof value === 'string') out.texts.push(value);
  else if (Array.isArray(value)) value.forEach((item) => leaves(item, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => leaves(v, out));
  return out;
}
const sharedValues = leaves(
  [...sharedExports.values()].filter((value) => typeof value !== 'function'),
);

// A message built by a function: the fixed parts around its arguments.
const HOLE = '\u0000';
for (const value of sharedExports.values()) {
  if (!value || typeof value !== 'object' || Array.isArray(value)) continue;
  for (const member of Object.values(value)) {
    if (typeof member !== 'function') continue;
    const text: unknown = member(...Array.from({ length: member.length }, () => HOLE));
    if (typeof text === 'string') sharedValues.texts.push(...text.split(HOLE));
  }
}

/** Texts long enough to be a sentence a person reads (not a key, code or slug). */
const messages = [...new Set(sharedValues.texts)].filter(
  (text) => text.length >= 16 && text.includes(' '),
);

/** `file: line` of every match of `pattern` in the site's sources. */
function siteMatches(pattern: RegExp): string[] {
  return siteSources.flatMap(({ file, text }) =>
    text
      .split('\n')
      .flatMap((line, i) => (pattern.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
  );
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('shared values (shared/)', () => {
  it('are plain modules: no schema library, nothing Node-only', () => {
    // Another shared module, or a content/ data file: nothing else, so no package at all.
    const allowed = (file: string, specifier: string) => {
      const target = rel(path.resolve(path.dirname(file), specifier));
      return (
        specifier.startsWith('.') &&
        (/^shared\/[\w/-]+\.ts$/.test(target) || /^content\/[\w/-]+\.json$/.test(target))
      );
    };
    const offending = sharedFiles.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/(?:from\s+|import\s*\(?\s*)'([^']+)'/g)]
        .map((m) => m[1]!)
        .filter((specifier) => !allowed(file, specifier))
        .map((specifier) => `${rel(file)} imports ${specifier}`),
    );
    expect(sharedFiles.length).toBeGreaterThan(0);
    expect(offending).toEqual([]);
  });

  it('server/contracts exports schemas and the helpers that build them, no plain values', async () => {
    const offending: string[] = [];
    for (const file of contractFiles) {
      const module = (await import(file)) as Record<string, unknown>;
      for (const [name, value] of Object.entries(module)) {
        if (typeof value !== 'function' && !Type.IsSchema(value)) {
          offending.push(`${rel(file)}: ${name}`);
        }
      }
    }
    expect(offending).toEqual([]);
  });

  it('the site imports only types from server/contracts (no schema library in the browser)', () => {
    const valueImport = /(?:^|\n)\s*import\s+(?!type\b)[^;]*?from\s+'[^']*server\/contracts\//;
    const dynamicImport = /import\s*\(\s*'[^']*server\/contracts\//;
    const offending = siteSources
      .filter(({ text }) => valueImport.test(text) || dynamicImport.test(text))
      .map(({ file }) => file);
    expect(offending).toEqual([]);
  });

  it('the site declares no shared value again, under its name or as a limit of the same size', () => {
    const names = [...sharedExports]
      .filter(([, value]) => typeof value !== 'function')
      .map(([name]) => escape(name))
      .join('|');
    const sameName = siteMatches(new RegExp(`\\b(?:const|let|var)\\s+(?:${names})\\s*[=:]`));
    // `const PROMPT_MAX_LENGTH = 2000` when shared/ already says 2000.
    const sizes = new Set(sharedValues.numbers.filter((n) => n >= 100));
    const limit =
      /\b(?:const|let|var)\s+\w*(?:MAX|MIN|LIMIT|LENGTH|SIZE|BYTES|COST|SECONDS)\w*\s*=\s*([\d_]+(?:\s*\*\s*[\d_]+)*)\s*;/;
    const sameSize = siteMatches(limit).filter((match) => {
      const expression = limit.exec(match.slice(match.indexOf(': ') + 2))![1]!;
      const value = expression
        .split('*')
        .map((factor) => Number(factor.trim().replaceAll('_', '')))
        .reduce((product, factor) => product * factor, 1);
      return sizes.has(value);
    });
    expect([...new Set([...sameName, ...sameSize])]).toEqual([]);
  });

  it(`the site's copy takes the video cost (${VIDEO_COST}) and length (${VIDEO_SECONDS} s) from shared/video.ts`, () => {
    const cost = new RegExp(`(?<![\\w.])${VIDEO_COST}(?:\\s|-|&nbsp;)*credits?\\b`, 'i');
    const length = new RegExp(
      `(?<![\\w.$])${VIDEO_SECONDS}(?:\\s|-|&nbsp;)*(?:s|secs?|seconds?)\\b(?![\\w-])`,
      'i',
    );
    const costLiteral = new RegExp(`\\b(?:const|let|var)\\s+\\w+\\s*=\\s*${VIDEO_COST}\\s*;`);
    expect([...siteMatches(cost), ...siteMatches(length), ...siteMatches(costLiteral)]).toEqual([]);
  });

  it('the site writes upload sizes from the shared byte limits', () => {
    const sizes = [...sharedExports]
      .filter(([name, value]) => name.endsWith('_BYTES') && typeof value === 'number')
      .map(([, value]) => (value as number) / MEGABYTE);
    const pattern = new RegExp(`(?<![\\w.$])(?:${[...new Set(sizes)].join('|')})\\s?MB\\b`);
    expect(siteMatches(pattern)).toEqual([]);
  });

  it('the site quotes no shared message: it imports it', () => {
    const offending = messages.flatMap((message) =>
      siteSources
        .filter(({ text }) => text.includes(message))
        .map(({ file }) => `${file}: ${message}`),
    );
    expect(messages.length).toBeGreaterThan(5);
    expect(offending).toEqual([]);
  });
});

/** The copy in content/ (data, articles, legal pages); its README documents, it is no copy. */
// The copy, not the price table (content/video-pricing.json is where the cost is written, once).
const contentSources = filesUnder('content', ['.json', '.md'])
  .filter((file) => !['content/README.md', 'content/video-pricing.json'].includes(rel(file)))
  .map((file) => ({ file: rel(file), text: readFileSync(file, 'utf8') }));

/**
 * Where content/ writes the video's length as a number: content/site.json's tagline and
 * description (both languages), which the site reads without filling placeholders.
 */
const LENGTH_WRITTEN_OUT = new Set(['content/site.json', 'content/zh-CN/site.json']);

/** `file:line: match` of every match of `pattern` (global) in content/. */
function contentMatches(pattern: RegExp, files = contentSources): string[] {
  return files.flatMap(({ file, text }) =>
    text
      .split('\n')
      .flatMap((line, i) => [...line.matchAll(pattern)].map((m) => `${file}:${i + 1}: ${m[0]}`)),
  );
}

/** A number written before a video or credit word: a count the copy should compute. */
const COUNT = String.raw`(?<![\w.,{])\$?\d[\d,.]*(?:\s|-|&nbsp;)*(?:(?:videos?|clips?|credits?)(?![\w-])|个视频|个?积分)`;
/** A price per video: what the credits of one video cost on a plan. */
const PER_VIDEO = String.raw`\$\d[\d.,]*\s*(?:per|a|\/)\s*(?:video|clip)`;
/** The video's cost on its own ("divided by 17"), not inside a date or a longer number. */
const COST = String.raw`(?<![\w.,$-])${VIDEO_COST}(?![\w.-]|,\d)`;
const COMPUTED = [COUNT, PER_VIDEO, COST];

describe('numbers in copy (content/)', () => {
  it('no content file writes a count of videos or credits, a price per video or the cost as a number', () => {
    // Any number at all before "videos" or "credits", not only today's: a count left behind by
    // a change of the cost (34 videos at 17 credits, 29 at 20) is caught whatever the cost is.
    expect(contentSources.length).toBeGreaterThan(20);
    const found = COMPUTED.flatMap((pattern) => contentMatches(new RegExp(pattern, 'gi')));
    expect(found).toEqual([]);
  });

  it(`no content file but content/site.json writes the video length (${VIDEO_SECONDS} s) as a number`, () => {
    const length = /(?<![\w.{])\d+(?:\s|-|&nbsp;)*(?:seconds?(?![\w-])|秒)/gi;
    const filled = contentSources.filter(({ file }) => !LENGTH_WRITTEN_OUT.has(file));
    expect(contentMatches(length, filled)).toEqual([]);
    // The exception still holds: it names today's length, not another one.
    const written = contentSources.filter(({ file }) => LENGTH_WRITTEN_OUT.has(file));
    for (const match of contentMatches(length, written)) {
      expect(match).toMatch(new RegExp(`: ${VIDEO_SECONDS}(?:\\s|-)*(?:seconds?|秒)$`, 'i'));
    }
  });

  it('the scans catch the numbers the copy computes, in both languages', () => {
    // What the placeholders would read if written out: the scan above must refuse each form.
    const values = copyValues();
    const written = [
      `About ${values['lite.videos']} videos a month`,
      `每月约 ${values['lite.videos']} 个视频`,
      `${values['standard.credits']} credits, about ${values['standard.videos']} videos.`,
      `${values['standard.credits']} 积分，约 ${values['standard.videos']} 个视频。`,
      `Every video costs <strong>${VIDEO_COST} credits</strong>`,
      `每个视频消耗 ${VIDEO_COST} 个积分`,
      `(roughly $${values['lite.videoPrice']} per video)`,
      `the credits divided by ${VIDEO_COST}, rounded down`,
    ];
    for (const line of written) {
      expect(
        COMPUTED.some((pattern) => new RegExp(pattern, 'i').test(line)),
        line,
      ).toBe(true);
    }
    // A file name or a date is not a count.
    for (const line of ['03-credits-cover.jpg', '2025-03-17', '{{videoCost}} credits']) {
      expect(
        COMPUTED.some((pattern) => new RegExp(pattern, 'i').test(line)),
        line,
      ).toBe(false);
    }
  });

  it('the catalogue copy follows VIDEO_COST: another cost gives other counts', () => {
    const dearer = VIDEO_COST + 3;
    const now = copyValues();
    const then = copyValues(dearer);
    expect(then.videoCost).toBe(dearer);
    for (const item of [...PLANS, ...PACKS]) {
      expect(now[`${item.id}.videos`]).toBe(videosFor(item.credits).toLocaleString('en-US'));
      expect(then[`${item.id}.videos`]).toBe(
        videosFor(item.credits, dearer).toLocaleString('en-US'),
      );
      expect(then[`${item.id}.videoPrice`]).not.toBe(now[`${item.id}.videoPrice`]);
    }
    // The rendered plans name today's counts (content holds only {{videos}}).
    for (const plan of PLANS) {
      expect(plan.features).toContain(`About ${now[`${plan.id}.videos`]} videos a month`);
    }
  });
});
