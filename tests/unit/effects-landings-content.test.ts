import { describe, expect, it } from 'vitest';
import {
  buildCatalogue,
  cards,
  categories,
  categorySlug,
} from '../../site/components/effects/effects.ts';
import { filterCss } from '../../site/components/effects/category-filter.ts';
import {
  loadLandings,
  prepareLanding,
  type Landing,
} from '../../site/components/landing/landings.ts';
import { generatorPromptHref } from '../../site/islands/generator/prompt-prefill.ts';
import { VIDEO_COST, VIDEO_SECONDS } from '../../shared/video.ts';
import { SPEC_EFFECT_CATEGORIES } from '../helpers/content.ts';

describe('effects catalogue (content/effects.json)', () => {
  it('has the spec chips in order, after the page-made "All"', () => {
    expect(categories.map((c) => c.label)).toEqual(SPEC_EFFECT_CATEGORIES);
  });

  it.each([
    ['Hero/Villain', 'hero-villain'],
    ['Horror/Fantasy', 'horror-fantasy'],
    ['Xmas', 'xmas'],
    ['Talk Show', 'talk-show'],
  ])('gives category %s the CSS-safe slug %s', (label, slug) => {
    expect(categorySlug(label)).toBe(slug);
  });

  it('links the kissing and ASMR cards to their landing pages', () => {
    const byTitle = Object.fromEntries(cards.map((card) => [card.title, card.href]));
    expect(byTitle['AI French Kiss']).toBe('/ai-french-kissing');
    expect(byTitle['ASMR Sound Clip']).toBe('/asmr-video');
  });

  it('links every other card to the generator with its sample prompt filled in', () => {
    const others = cards.filter(
      (card) => !['/ai-french-kissing', '/asmr-video'].includes(card.href),
    );
    expect(others.length).toBeGreaterThanOrEqual(12);
    for (const card of others) expect(card.href).toBe(generatorPromptHref(card.sample.prompt));
  });

  it('names every sample effect-…, once', () => {
    const ids = cards.map((card) => card.sample.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^effect-[a-z0-9-]+$/);
  });

  const card = (over: Record<string, unknown> = {}) => ({
    id: 'hug',
    title: 'Hug',
    description: 'A hug.',
    category: 'Interaction',
    sample: { id: 'effect-hug', prompt: 'Two friends hug' },
    ...over,
  });
  it.each([
    [
      'an unknown category',
      { categories: ['Interaction'], cards: [card({ category: 'Romance' })] },
      /unknown category "Romance"/,
    ],
    [
      'a category without cards',
      { categories: ['Interaction', 'Xmas'], cards: [card()] },
      /"Xmas" has no cards/,
    ],
    [
      'a sample id without the effect- prefix',
      { categories: ['Interaction'], cards: [card({ sample: { id: 'hug', prompt: 'x' } })] },
      /must start with "effect-"/,
    ],
    [
      'a card id used twice',
      {
        categories: ['Interaction'],
        cards: [card(), card({ sample: { id: 'effect-b', prompt: 'x' } })],
      },
      /hug is used twice/,
    ],
  ])('fails the build on %s', (_, raw, message) => {
    expect(() => buildCatalogue(raw)).toThrow(message);
  });

  it('hides the cards of other categories once a chip is checked, and none for All', () => {
    const css = filterCss(categories, '.browser', '.card');
    expect(css).toContain(
      ".browser:has(input[name='effect-category'][value='horror-fantasy']:checked) .card:not([data-category='horror-fantasy']) { display: none; }",
    );
    expect(css.split('\n')).toHaveLength(categories.length);
    expect(css).not.toContain("value='all'");
  });
});

describe('landing pages (content/landings/*.json)', () => {
  const landings = loadLandings();

  it('builds /ai-french-kissing and /asmr-video with 3 samples and 5-6 questions each', () => {
    expect(landings.map((l) => l.slug).sort()).toEqual(['ai-french-kissing', 'asmr-video']);
    for (const landing of landings) {
      expect(landing.samples).toHaveLength(3);
      expect(landing.faq.length).toBeGreaterThanOrEqual(5);
      expect(landing.faq.length).toBeLessThanOrEqual(6);
    }
  });

  it('fills the cost and length from the video contract, leaving no braces', () => {
    const text = JSON.stringify(landings);
    expect(text).not.toContain('{{');
    expect(text).toContain(`${VIDEO_COST} credits`);
    expect(text).toContain(`${VIDEO_SECONDS}-second`);
  });

  it('prefixes sample ids with the page (kiss-, asmr-)', () => {
    const bySlug = Object.fromEntries(landings.map((l) => [l.slug, l.samples.map((s) => s.id)]));
    for (const id of bySlug['ai-french-kissing']!) expect(id).toMatch(/^kiss-/);
    for (const id of bySlug['asmr-video']!) expect(id).toMatch(/^asmr-/);
  });

  const base = landings.find((l) => l.slug === 'asmr-video')!;
  const file = '/content/landings/asmr-video.json';
  it.each<[string, Partial<Landing>, RegExp]>([
    ['a slug that is not the file name', { slug: 'asmr' }, /must match the file name/],
    ['two samples', { samples: base.samples.slice(0, 2) }, /needs 3 samples/],
    ['four questions', { faq: base.faq.slice(0, 4) }, /needs 5-6 FAQ items/],
    [
      'an unknown placeholder',
      { intro: 'Only {{price}} today' },
      /unknown placeholder \{\{price\}\}/,
    ],
    [
      'a placeholder in a rendered prompt',
      {
        samples: [
          { ...base.samples[0]!, prompt: 'A {{videoSeconds}} s clip' },
          ...base.samples.slice(1),
        ],
      },
      /rendered as written/,
    ],
    ['a description longer than 155 characters', { metaDescription: 'x'.repeat(156) }, /max 155/],
  ])('fails the build on %s', (_, change, message) => {
    expect(() => prepareLanding({ ...base, ...change }, file)).toThrow(message);
  });
});
