/**
 * Issue 35: the one price function over the whole option table, the table's own check, and the
 * capability filter that decides which route entries may make a video.
 */
import { describe, expect, it } from 'vitest';
import {
  ASPECT_RATIOS,
  checkPriceTable,
  DEFAULT_OPTIONS,
  frameSize,
  PRICE_TABLE,
  RESOLUTIONS,
  TIERS,
  videoPrice,
  type PriceTable,
  type VideoOptions,
} from '../../shared/video-options.ts';
import { VIDEO_COST } from '../../shared/video.ts';
import {
  FIXED_MODEL,
  unsupportedOption,
  type ModelCapabilities,
} from '../../server/domains/video/providers/capabilities.ts';
import { assertRoutable, capableEntries } from '../../server/domains/video/options.ts';
import type { RouteEntry } from '../../server/config-video.ts';

/** Every combination of every option (negative prompt and seed: given or not). */
function* everyOption(): Generator<VideoOptions> {
  for (const aspectRatio of ASPECT_RATIOS)
    for (const resolution of RESOLUTIONS)
      for (const tier of TIERS)
        for (const negativePrompt of [null, 'blur'])
          for (const seed of [null, 0])
            for (const lastFrame of [false, true])
              for (const referenceImages of [0, 1, 2, 3])
                for (const extend of [false, true])
                  yield {
                    aspectRatio,
                    resolution,
                    tier,
                    negativePrompt,
                    seed,
                    lastFrame,
                    referenceImages,
                    extend,
                  };
}

describe('videoPrice', () => {
  it('is the spec price, 17 credits, with no option, and VIDEO_COST is that price', () => {
    expect(videoPrice(DEFAULT_OPTIONS)).toBe(17);
    expect(VIDEO_COST).toBe(17);
  });

  it('adds each chosen option to the clip or the extension, over the whole table', () => {
    // A table whose entries are distinct powers of two: every sum tells which entries it took.
    const table: PriceTable = {
      video: 1 << 14,
      extend: 1 << 15,
      add: {
        aspect_ratio: { '16:9': 1, '9:16': 2 },
        resolution: { '720p': 4, '1080p': 8 },
        tier: { standard: 16, fast: 32 },
        negative_prompt: 64,
        seed: 128,
        last_frame: 256,
        reference_images: 512,
      },
    };
    let combinations = 0;
    for (const o of everyOption()) {
      combinations++;
      const expected =
        (o.extend ? table.extend : table.video) +
        table.add.aspect_ratio[o.aspectRatio] +
        table.add.resolution[o.resolution] +
        table.add.tier[o.tier] +
        (o.negativePrompt ? 64 : 0) +
        (o.seed !== null ? 128 : 0) +
        (o.lastFrame ? 256 : 0) +
        (o.referenceImages > 0 ? 512 : 0);
      expect(videoPrice(o, table)).toBe(expected);
    }
    expect(combinations).toBe(2 * 2 * 2 * 2 * 2 * 2 * 4 * 2);
  });

  it('never goes below 1 credit, whatever the discounts', () => {
    const cheap = {
      ...PRICE_TABLE,
      add: { ...PRICE_TABLE.add, tier: { standard: 0, fast: -500 } },
    };
    for (const o of everyOption()) expect(videoPrice(o, cheap)).toBeGreaterThanOrEqual(1);
    expect(videoPrice({ ...DEFAULT_OPTIONS, tier: 'fast' }, cheap)).toBe(1);
  });

  it('reads content/video-pricing.json, and refuses a table with a missing or fractional entry', () => {
    expect(checkPriceTable(PRICE_TABLE)).toBe(PRICE_TABLE);
    const broken = JSON.parse(JSON.stringify(PRICE_TABLE)) as PriceTable;
    delete (broken.add.resolution as Partial<Record<string, number>>)['1080p'];
    expect(() => checkPriceTable(broken)).toThrow('add.resolution["1080p"]');
    expect(() => checkPriceTable({ ...PRICE_TABLE, video: 16.5 })).toThrow('video must be');
    expect(() => checkPriceTable({ ...PRICE_TABLE, extend: 0 })).toThrow('extend must be');
    expect(() =>
      checkPriceTable({ ...PRICE_TABLE, add: { ...PRICE_TABLE.add, seed: '1' } }),
    ).toThrow('add.seed');
  });
});

describe('frameSize', () => {
  it('is 1280×720 by default, 1080×1920 for vertical 1080p', () => {
    expect(frameSize('16:9', '720p')).toEqual({ width: 1280, height: 720 });
    expect(frameSize('9:16', '720p')).toEqual({ width: 720, height: 1280 });
    expect(frameSize('16:9', '1080p')).toEqual({ width: 1920, height: 1080 });
    expect(frameSize('9:16', '1080p')).toEqual({ width: 1080, height: 1920 });
  });
});

/** A model that can do everything, with Replicate's limits on reference images. */
const FULL: ModelCapabilities = {
  modes: ['text', 'image'],
  aspectRatios: ['16:9', '9:16'],
  resolutions: ['720p', '1080p'],
  tiers: ['standard', 'fast'],
  negativePrompt: true,
  seed: true,
  lastFrame: true,
  referenceImages: {
    max: 3,
    aspectRatios: ['16:9'],
    resolutions: ['720p', '1080p'],
    tiers: ['standard'],
  },
  extend: { resolutions: ['720p'], tiers: ['standard', 'fast'], maxSourceSeconds: 8 },
};

describe('unsupportedOption', () => {
  it('lets the spec clip through every model, in both modes', () => {
    for (const caps of [FIXED_MODEL, FULL]) {
      expect(unsupportedOption(caps, 'text')).toBeNull();
      expect(unsupportedOption(caps, 'image')).toBeNull();
    }
  });

  it.each<[string, Partial<VideoOptions>, string]>([
    ['a vertical video', { aspectRatio: '9:16' }, 'aspect_ratio'],
    ['1080p', { resolution: '1080p' }, 'resolution'],
    ['the fast tier', { tier: 'fast' }, 'tier'],
    ['a negative prompt', { negativePrompt: 'rain' }, 'negative_prompt'],
    ['a seed', { seed: 0 }, 'seed'],
    ['an end frame', { lastFrame: true }, 'last_frame'],
    ['reference images', { referenceImages: 1 }, 'reference_images'],
    ['an extension', { extend: true }, 'extend_task_id'],
  ])('names %s as what the spec-clip model cannot do, and a full model can', (_n, o, field) => {
    const options = { ...DEFAULT_OPTIONS, ...o };
    expect(unsupportedOption(FIXED_MODEL, 'text', options)).toBe(field);
    expect(unsupportedOption(FULL, 'text', options)).toBeNull();
  });

  it('applies the limits of reference images and extensions', () => {
    const refs = { ...DEFAULT_OPTIONS, referenceImages: 2 };
    expect(unsupportedOption(FULL, 'text', { ...refs, aspectRatio: '9:16' })).toBe(
      'reference_images',
    );
    expect(unsupportedOption(FULL, 'text', { ...refs, tier: 'fast' })).toBe('reference_images');
    expect(unsupportedOption(FULL, 'text', { ...refs, referenceImages: 4 })).toBe(
      'reference_images',
    );
    const ext = { ...DEFAULT_OPTIONS, extend: true };
    expect(unsupportedOption(FULL, 'text', { ...ext, resolution: '1080p' })).toBe('resolution');
    expect(unsupportedOption(FULL, 'text', { ...ext, tier: 'fast' })).toBeNull();
    // fal extends videos of at most 8 s: an 8 s clip, not its 15 s extension.
    expect(unsupportedOption(FULL, 'text', ext, 8)).toBeNull();
    expect(unsupportedOption(FULL, 'text', ext, 15)).toBe('extend_task_id');
    expect(unsupportedOption({ ...FULL, modes: ['text'] }, 'image')).toBe('mode');
  });
});

describe('capableEntries and assertRoutable', () => {
  // Real descriptors: the local renderer does everything; fal's Veo 3 (not 3.1) only the clip.
  const route: RouteEntry[] = [
    { provider: 'fal', model: 'fal-ai/veo3' },
    { provider: 'local', model: 'local' },
  ];

  it('keeps the configured order and drops the entries that cannot make the video', () => {
    expect(capableEntries(route, 'text', DEFAULT_OPTIONS)).toEqual(route);
    const vertical = { ...DEFAULT_OPTIONS, aspectRatio: '9:16' as const };
    expect(capableEntries(route, 'text', vertical)).toEqual([route[1]]);
    expect(assertRoutable(route, 'text', vertical)).toEqual([route[1]]);
  });

  it('refuses with 400 naming the first entry’s missing option when no entry can', () => {
    const error = (() => {
      try {
        assertRoutable([route[0]!], 'text', { ...DEFAULT_OPTIONS, seed: 5 });
      } catch (e) {
        return e as { statusCode: number; code: string; message: string };
      }
    })();
    expect(error).toMatchObject({ statusCode: 400, code: 'OPTION_UNSUPPORTED' });
    expect(error!.message).toContain('seed = 5');
  });
});
