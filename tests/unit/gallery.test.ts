import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import galleryJson from '../../content/gallery.json' with { type: 'json' };
import homeJson from '../../content/home.json' with { type: 'json' };
import { securityPlugin } from '../../server/core/security.ts';
import {
  EMBED_HOSTS,
  EMPTY_CATEGORY_TEXT,
  FILTER_RESET_VISIBLE,
  GALLERY_CATEGORIES,
  INITIAL_VISIBLE,
  MORE_STEP,
  embedProvider,
  galleryStatus,
  hasMore,
  parseGallery,
  toFilter,
  visibleEntries,
  type GalleryCategory,
  type GalleryEntry,
} from '../../site/lib/gallery.ts';
import {
  fillPlaceholders,
  homeContent,
  parseHomeContent,
} from '../../site/components/home/content.ts';
import { galleryEntry } from '../helpers/content.ts';

/** 10 Animation, 3 Product, 2 Movie, no Talk Show, 1 Other, interleaved. */
const sample = (
  [
    ...Array.from({ length: 10 }, () => 'Animation'),
    'Product',
    'Movie',
    'Product',
    'Other',
    'Movie',
    'Product',
  ] as GalleryCategory[]
).map((category, i) => ({ id: `clip-${i}`, category }));

describe('gallery rules (spec 2 "Home gallery")', () => {
  it('shows 8 entries of All at first', () => {
    expect(INITIAL_VISIBLE).toBe(8);
    expect(visibleEntries(sample, 'All', INITIAL_VISIBLE).map((e) => e.id)).toEqual(
      sample.slice(0, 8).map((e) => e.id),
    );
  });

  it("adds 4 per 'More Videos' click and resets to 4 when the filter changes", () => {
    expect(MORE_STEP).toBe(4);
    expect(FILTER_RESET_VISIBLE).toBe(4);
    expect(visibleEntries(sample, 'All', INITIAL_VISIBLE + MORE_STEP)).toHaveLength(12);
    const animation = visibleEntries(sample, 'Animation', FILTER_RESET_VISIBLE);
    expect(animation).toHaveLength(4);
    expect(animation.every((e) => e.category === 'Animation')).toBe(true);
  });

  it.each([
    ['All', 8, 8, true],
    ['All', 16, 16, false],
    ['Animation', 4, 4, true],
    ['Animation', 12, 10, false],
    ['Product', 4, 3, false],
    ['Talk Show', 4, 0, false],
  ] as const)('%s with count %i shows %i entries (more left: %s)', (filter, count, shown, more) => {
    const visible = visibleEntries(sample, filter, count);
    expect(visible).toHaveLength(shown);
    if (filter !== 'All') expect(visible.every((e) => e.category === filter)).toBe(true);
    expect(hasMore(sample, filter, count)).toBe(more);
  });

  it('keeps content order within a category', () => {
    expect(visibleEntries(sample, 'Movie', 4).map((e) => e.id)).toEqual(['clip-11', 'clip-14']);
  });

  it('says "There are no videos in this category" for an empty category', () => {
    expect(EMPTY_CATEGORY_TEXT).toBe('There are no videos in this category');
    expect(visibleEntries(sample, 'Talk Show', 4)).toEqual([]);
    expect(galleryStatus(0, 0, 'Talk Show')).toBe('There are no videos in this category');
  });

  it('counts what is shown for screen readers otherwise', () => {
    expect(galleryStatus(8, 30, 'All')).toBe('Showing 8 of 30 videos');
    expect(galleryStatus(3, 3, 'Product')).toBe('Showing 3 of 3 Product videos');
  });

  it.each([
    ['Talk Show', 'Talk Show'],
    ['All', 'All'],
    ['talk show', 'All'],
    [undefined, 'All'],
  ])('reads the filter %j as %j', (value, filter) => {
    expect(toFilter(value)).toBe(filter);
  });
});

const entry = (overrides: Partial<GalleryEntry> = {}) => galleryEntry(overrides);

describe('parseGallery (content/gallery.json)', () => {
  it.each([
    ['local', '/embed/paper-fox'],
    ['tiktok', 'https://www.tiktok.com/embed/v2/7301234567890123456'],
    ['youtube', 'https://www.youtube.com/embed/dQw4w9WgXcQ'],
    ['youtube', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ'],
    ['instagram', 'https://www.instagram.com/reel/C1a2b3c4d5e/embed'],
    ['x', 'https://platform.twitter.com/embed/Tweet.html?id=1790000000000000000'],
  ])('accepts a %s embed: %s', (provider, embedUrl) => {
    expect(embedProvider(embedUrl)).toBe(provider);
    const external = provider !== 'local';
    const parsed = parseGallery([
      entry(external ? { embedUrl, videoUrl: 'https://example.com/post', prompt: undefined } : {}),
    ]);
    expect(parsed[0]!.embedUrl).toBe(embedUrl);
  });

  it.each([
    ['a host the CSP does not allow', { embedUrl: 'https://vimeo.com/123' }, /embedUrl/],
    ['plain http', { embedUrl: 'http://www.tiktok.com/embed/v2/1' }, /embedUrl/],
    ['a local embed of another id', { embedUrl: '/embed/other' }, /local entry uses/],
    ['a local entry without a prompt', { prompt: '' }, /needs the "prompt"/],
    ['an unknown category', { category: 'Music' as GalleryCategory }, /category/],
    ['an id that is not a slug', { id: 'Paper Fox' }, /"id"/],
    ['a missing creator', { creator: '' }, /"creator"/],
  ])('rejects %s', (_, overrides, message) => {
    expect(() => parseGallery([entry(overrides as Partial<GalleryEntry>)])).toThrow(message);
  });

  it('rejects an id used twice', () => {
    expect(() => parseGallery([entry(), entry()])).toThrow(/used twice/);
  });

  it('accepts the shipped gallery: 30 entries, every category filled, every clip ours', () => {
    const gallery = parseGallery(galleryJson);
    expect(gallery).toHaveLength(30);
    for (const category of GALLERY_CATEGORIES) {
      expect(gallery.filter((e) => e.category === category).length).toBeGreaterThan(0);
    }
    expect(gallery.every((e) => embedProvider(e.embedUrl) === 'local' && e.prompt)).toBe(true);
  });
});

describe('Content-Security-Policy for gallery frames', () => {
  it('allows frames from every host an operator may embed', async () => {
    const app = Fastify();
    await app.register(securityPlugin, { production: false, inlineScriptHashes: () => [] });
    app.get('/', async () => 'ok');
    const res = await app.inject('/');
    await app.close();
    const frameSrc = /frame-src ([^;]*)/.exec(String(res.headers['content-security-policy']))![1]!;
    const allowed = frameSrc.split(' ');
    expect(allowed).toContain("'self'");
    for (const host of Object.values(EMBED_HOSTS).flat()) {
      expect(allowed).toContain(`https://${host}`);
    }
    // Our /embed pages are framed by our own pages only.
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
  });
});

describe('home page content (content/home.json)', () => {
  it('has 4 to 6 features, 4 how-to steps and 6 FAQ items', () => {
    expect(homeContent.features.items.length).toBeGreaterThanOrEqual(4);
    expect(homeContent.features.items.length).toBeLessThanOrEqual(6);
    expect(homeContent.howTo.steps).toHaveLength(4);
    expect(homeContent.faq.items).toHaveLength(6);
  });

  it('fills the numbers from their single sources', () => {
    const text = JSON.stringify(homeContent);
    expect(text).not.toMatch(/\{\{/);
    expect(text).toContain('17 credits');
    expect(text).toContain('8-second');
    expect(text).toContain('within 3 days');
    expect(text).toContain('200 credits or fewer');
    expect(text).toContain('(/refund-policy)');
  });

  it('refuses an unknown placeholder', () => {
    expect(() => fillPlaceholders('Costs {{price}}', { videoCost: 17 })).toThrow(/\{\{price\}\}/);
  });

  it.each([
    [
      '5 FAQ items',
      (c: typeof homeJson) => ({ ...c, faq: { ...c.faq, items: c.faq.items.slice(1) } }),
    ],
    [
      '3 steps',
      (c: typeof homeJson) => ({ ...c, howTo: { ...c.howTo, steps: c.howTo.steps.slice(1) } }),
    ],
    [
      'an unknown icon',
      (c: typeof homeJson) => ({
        ...c,
        features: {
          ...c.features,
          items: [{ icon: 'rocket', title: 'x', text: 'y' }, ...c.features.items.slice(1)],
        },
      }),
    ],
  ])('rejects content with %s', (_, change) => {
    expect(() => parseHomeContent(change(homeJson))).toThrow();
  });
});
