import { describe, expect, it } from 'vitest';
import {
  CHINESE_WORDS,
  FALLBACK_SLUG,
  SLUG_MAX_LENGTH,
  slugify,
  uniqueSlug,
} from '../../shared/slug.ts';

const longTitle = 'Veo three prompt guide '.repeat(14).slice(0, 300);

describe('slugify (spec 5 slug preview)', () => {
  // One row per rule of spec 5, in the spec's order.
  it.each([
    // Lower-case.
    ['lower-case', 'Hello World', 'hello-world'],
    ['lower-case of every Latin letter', 'VEO Prompt GUIDE', 'veo-prompt-guide'],
    // A set of common Chinese words transliterated to pinyin, each as its own word.
    ['mixed Chinese words and English', 'AI 视频生成指南', 'ai-shipin-shengcheng-zhinan'],
    ['Chinese words glued to Latin runs', 'Veo3视频Pro', 'veo3-shipin-pro'],
    ['the longest table word wins', '人工智能短视频教程', 'rengongzhineng-duanshipin-jiaocheng'],
    ['a table word shorter than a longer one alone', '智能技巧', 'zhineng-jiqiao'],
    ['words spaced apart', '视频 创作 指南', 'shipin-chuangzuo-zhinan'],
    // Other characters than word characters, spaces and hyphens removed.
    ['Chinese characters outside the word table dropped', '重庆银行', FALLBACK_SLUG],
    ['table words kept, other Chinese dropped', '你好视频世界', 'shipin'],
    ['Chinese punctuation', '《视频》，教程！', 'shipin-jiaocheng'],
    ['Latin punctuation removed, not replaced', 'What’s new?? — 2026 / Q1', 'whats-new-2026-q1'],
    ['accented letters removed, not turned into ASCII', 'Crème Brûlée Café', 'crme-brle-caf'],
    ['letters outside \\w removed', 'Straße Øre', 'strae-re'],
    ['full-width letters and digits are not \\w', 'ＡＢＣ １２３ abc', 'abc'],
    ['symbols inside a word', '<script>alert(1)</script>', 'scriptalert1script'],
    // Runs of spaces, underscores and hyphens become one hyphen.
    [
      'underscores and repeated separators',
      '__snake_case -- and   spaces__',
      'snake-case-and-spaces',
    ],
    ['tabs and newlines', 'line\tone\nline two', 'line-one-line-two'],
    ['separators left where a symbol was removed', 'a - ! - b', 'a-b'],
    ['digits only', '2026 07 01', '2026-07-01'],
    ['already a slug', 'already-a-slug', 'already-a-slug'],
    // Leading and trailing hyphens trimmed.
    ['leading and trailing separators', ' - _Hello_ - ', 'hello'],
    ['edges that are symbols', '!!Hello!!', 'hello'],
    // Truncated to 100 characters.
    ['truncated to 100 characters', 'a'.repeat(150), 'a'.repeat(SLUG_MAX_LENGTH)],
    ['100 characters kept whole', 'b'.repeat(SLUG_MAX_LENGTH), 'b'.repeat(SLUG_MAX_LENGTH)],
    [
      'truncated after the words are transliterated',
      '视频'.repeat(20),
      'shipin-'.repeat(15).slice(0, SLUG_MAX_LENGTH),
    ],
    // 'untitled-post' if empty.
    ['only symbols', '!!!', FALLBACK_SLUG],
    ['emoji and symbols only', '🎬✨ — ©®', FALLBACK_SLUG],
    ['only separators', ' - _ - ', FALLBACK_SLUG],
    ['empty', '', FALLBACK_SLUG],
    ['whitespace only', '   \t  ', FALLBACK_SLUG],
  ])('%s: %j → %j', (_case, title, expected) => {
    expect(slugify(title)).toBe(expected);
  });

  it.each(Object.entries(CHINESE_WORDS))('transliterates the table word %s as %s', (word, py) => {
    expect(py).toMatch(/^[a-z]+$/);
    expect(slugify(word)).toBe(py);
    expect(slugify(`Veo ${word} 2026`)).toBe(`veo-${py}-2026`);
  });

  it('truncates a 300-character title to at most 100 characters with no trailing hyphen', () => {
    expect(longTitle).toHaveLength(300);
    const slug = slugify(longTitle);
    expect(slug.length).toBeLessThanOrEqual(SLUG_MAX_LENGTH);
    expect(slug.length).toBeGreaterThan(90);
    expect(slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it('does not leave a hyphen where the cut falls right after a word', () => {
    const title = `${'a'.repeat(99)} bcd`;
    expect(slugify(title)).toBe('a'.repeat(99));
  });

  it('truncates long Chinese titles after transliteration', () => {
    const slug = slugify('视频生成'.repeat(30));
    expect(slug.length).toBeLessThanOrEqual(SLUG_MAX_LENGTH);
    expect(slug).toMatch(/^shipin-shengcheng-.*[a-z]$/);
  });

  it('always yields URL-safe output', () => {
    for (const title of [
      '<script>alert(1)</script>',
      '../../etc/passwd',
      'a%2Fb?c=d#e',
      '\u0000\u200b',
    ]) {
      expect(slugify(title)).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    }
  });
});

describe('uniqueSlug', () => {
  it.each([
    ['a free base as is', 'hello-world', [], 'hello-world'],
    ['-2 when the base is taken', 'hello-world', ['hello-world'], 'hello-world-2'],
    ['-3 when -2 is taken too', 'hello-world', ['hello-world', 'hello-world-2'], 'hello-world-3'],
    ['skips only what is taken', 'post', ['post', 'post-2', 'post-3', 'post-5'], 'post-4'],
  ])('returns %s', (_case, base, taken, expected) => {
    const set = new Set(taken);
    expect(uniqueSlug(base, (slug) => set.has(slug))).toBe(expected);
  });

  it('shortens a 100-character base so the suffix fits', () => {
    const base = slugify(longTitle);
    const taken = new Set([base]);
    const second = uniqueSlug(base, (slug) => taken.has(slug));
    expect(second.length).toBeLessThanOrEqual(SLUG_MAX_LENGTH);
    expect(second).toMatch(/-2$/);
    expect(second).not.toMatch(/--2$/);
    expect(base.startsWith(second.slice(0, -2))).toBe(true);
  });

  it('keeps ten-and-more suffixes within the limit', () => {
    const base = 'x'.repeat(SLUG_MAX_LENGTH);
    const singleDigit = Array.from({ length: 8 }, (_, i) => `${'x'.repeat(98)}-${i + 2}`);
    const taken = new Set([base, ...singleDigit, `${'x'.repeat(97)}-10`]);
    const slug = uniqueSlug(base, (s) => taken.has(s));
    expect(slug).toBe(`${'x'.repeat(97)}-11`);
    expect(slug).toHaveLength(SLUG_MAX_LENGTH);
  });

  it('does not end the stem with a hyphen before the suffix', () => {
    const base = `${'a'.repeat(97)}-bc`;
    expect(uniqueSlug(base, (s) => s === base)).toBe(`${'a'.repeat(97)}-2`);
  });

  it('gives up instead of looping forever when everything is taken', () => {
    expect(() => uniqueSlug('post', () => true)).toThrow(/No free slug/);
  });
});
