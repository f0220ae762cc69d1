/**
 * The plans' and packs' copy is computed from the catalogue and the video cost (issue 32 item 6):
 * the pricing page reads exactly what it read when the numbers were written by hand, in both
 * languages, and a different cost gives different counts everywhere they appear.
 */
import { describe, expect, it } from 'vitest';
import catalogue from '../../content/plans.json' with { type: 'json' };
import catalogueZh from '../../content/zh-CN/plans.json' with { type: 'json' };
import { PACKS, PLANS } from '../../shared/billing.ts';
import { copyValues, fillCopy, fillCopyDeep, itemCopy, videosFor } from '../../shared/plan-copy.ts';
import { VIDEO_COST } from '../../shared/video.ts';
import { packsFor, plansFor } from '../../site/lib/plans.ts';

/** The pricing page's copy as it read before its numbers were computed (VIDEO_COST 17). */
const BEFORE = {
  en: {
    plans: {
      lite: [
        '590 credits every month',
        'About 34 videos a month',
        '8-second videos with sound',
        'Text to video and image to video',
        'HD downloads',
      ],
      pro: [
        '1,340 credits every month',
        'About 78 videos a month',
        '8-second videos with sound',
        'Commercial rights',
        'Priority support',
      ],
      'pro+': [
        '3,370 credits every month',
        'About 198 videos a month',
        '8-second videos with sound',
        'Commercial rights',
        'Priority support',
      ],
    },
    packs: {
      starter: '330 credits, about 19 videos. Credits never expire.',
      basic: '950 credits, about 55 videos. Credits never expire.',
      standard: '2,200 credits, about 129 videos. Credits never expire.',
    },
  },
  'zh-CN': {
    plans: {
      lite: ['每月 590 积分', '每月约 34 个视频', '8 秒有声视频', '文生视频与图生视频', '高清下载'],
      pro: ['每月 1,340 积分', '每月约 78 个视频', '8 秒有声视频', '商业使用权', '优先支持'],
      'pro+': ['每月 3,370 积分', '每月约 198 个视频', '8 秒有声视频', '商业使用权', '优先支持'],
    },
    packs: {
      starter: '330 积分，约 19 个视频。积分永不过期。',
      basic: '950 积分，约 55 个视频。积分永不过期。',
      standard: '2,200 积分，约 129 个视频。积分永不过期。',
    },
  },
} as const;

const byId = <T extends { id: string }, V>(items: readonly T[], pick: (item: T) => V) =>
  Object.fromEntries(items.map((item) => [item.id, pick(item)]));

describe('plan and pack copy', () => {
  it('is what the pricing page showed before, word for word, at a cost of 17', () => {
    // The pinned text is the copy at 17 credits a video; at another cost it must differ.
    expect(VIDEO_COST).toBe(17);
    expect(byId(PLANS, (p) => p.features)).toEqual(BEFORE.en.plans);
    expect(byId(PACKS, (p) => p.description)).toEqual(BEFORE.en.packs);
    expect(byId(plansFor('en'), (p) => p.features)).toEqual(BEFORE.en.plans);
    expect(byId(packsFor('en'), (p) => p.description)).toEqual(BEFORE.en.packs);
    expect(byId(plansFor('zh-CN'), (p) => p.features)).toEqual(BEFORE['zh-CN'].plans);
    expect(byId(packsFor('zh-CN'), (p) => p.description)).toEqual(BEFORE['zh-CN'].packs);
  });

  it('follows the cost: at 20 credits a video every count changes, in both languages', () => {
    const rendered = (cost: number) =>
      [catalogue, catalogueZh].flatMap((text) => [
        ...catalogue.plans.flatMap((plan) =>
          text.plans
            .find((p) => p.id === plan.id)!
            .features.map((feature) => itemCopy(feature, plan, cost)),
        ),
        ...catalogue.packs.map((pack) =>
          itemCopy(text.packs.find((p) => p.id === pack.id)!.description, pack, cost),
        ),
      ]);
    const now = rendered(VIDEO_COST);
    const dearer = rendered(20);
    const counts = /(\d[\d,]*) (?:videos|个视频)/;
    const withCounts = now.filter((line) => counts.test(line));
    // One "about N videos" per plan and per pack, in each language.
    expect(withCounts).toHaveLength(2 * (catalogue.plans.length + catalogue.packs.length));
    for (const [i, line] of now.entries()) {
      const count = counts.exec(line);
      if (!count) {
        expect(dearer[i]).toBe(line);
        continue;
      }
      expect(dearer[i]).not.toBe(line);
      expect(Number(counts.exec(dearer[i]!)![1]!.replaceAll(',', ''))).toBeLessThan(
        Number(count[1]!.replaceAll(',', '')),
      );
    }
    expect(dearer).toContain('About 29 videos a month'); // 590 / 20, rounded down
    expect(dearer).toContain('每月约 29 个视频');
    expect(dearer).toContain('330 积分，约 16 个视频。积分永不过期。');
  });

  it('counts whole videos and prices one to the cent', () => {
    expect(videosFor(590)).toBe(34);
    expect(videosFor(590, 20)).toBe(29);
    expect(videosFor(34, 17)).toBe(2);
    const values = copyValues();
    expect(values).toMatchObject({
      videoCost: 17,
      videoSeconds: 8,
      'lite.credits': '590',
      'lite.videos': '34',
      'lite.price': '29.9',
      'lite.videoPrice': '0.86',
      'pro.videoPrice': '0.76',
      'pro+.videos': '198',
      'pro+.videoPrice': '0.66',
      'starter.videoPrice': '1.03',
      'basic.videoPrice': '0.89',
      'standard.credits': '2,200',
      'standard.videoPrice': '0.77',
    });
    expect(copyValues(20)).toMatchObject({ videoCost: 20, 'lite.videoPrice': '1.01' });
  });

  it('refuses a placeholder it has no value for, rather than showing it', () => {
    expect(() => fillCopy('About {{vidoes}} videos', copyValues(), 'here')).toThrow(
      'here: unknown placeholder {{vidoes}}.',
    );
    expect(() => itemCopy('{{pro.credits}} and {{nope}}', PLANS[0]!)).toThrow('{{nope}}');
    expect(fillCopyDeep({ a: ['{{videoCost}} credits'], n: 3 }, 'x', 23)).toEqual({
      a: ['23 credits'],
      n: 3,
    });
  });
});
