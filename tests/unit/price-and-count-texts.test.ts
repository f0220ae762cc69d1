/**
 * How money, counts and plan features read (issue 20 item 2): money always with two decimals
 * ("$19.90", never "$19.9"), '1 view' but '2 views', and no plan promises a video length other
 * than the one every video has.
 */
import { describe, expect, it } from 'vitest';
import { PLANS } from '../../shared/billing.ts';
import { VIDEO_SECONDS } from '../../shared/video.ts';
import { formatCredits, formatPrice } from '../../site/lib/format.ts';
import { viewsLabel } from '../../site/lib/blog.ts';

describe('formatPrice', () => {
  it.each([
    [19.9, '$19.90'],
    [29.9, '$29.90'],
    [286, '$286.00'],
    [0.5, '$0.50'],
    [1299.99, '$1,299.99'],
    [479 / 12, '$39.92'],
  ])('%s reads %s', (dollars, text) => {
    expect(formatPrice(dollars)).toBe(text);
  });
});

describe('counts', () => {
  it.each([
    [0, '0 views'],
    [1, '1 view'],
    [2, '2 views'],
    [1340, '1,340 views'],
  ])('%s views read %s', (count, text) => {
    expect(viewsLabel(count)).toBe(text);
  });

  it('credits are singular for one', () => {
    expect(formatCredits(1)).toBe('1 credit');
    expect(formatCredits(1340)).toBe('1,340 credits');
  });
});

describe('plan features', () => {
  it.each(PLANS.map((plan) => [plan.name, plan.features] as const))(
    '%s promises only the video length every video has',
    (_name, features) => {
      const lengths = features.flatMap((f) => [...f.matchAll(/(\d+)[\s-]*(?:s\b|sec)/gi)]);
      expect(lengths.length).toBeGreaterThan(0);
      for (const match of lengths) expect(Number(match[1])).toBe(VIDEO_SECONDS);
    },
  );
});
