/**
 * content/provider-costs.json (issue 37, item 4): every model a provider's models.ts lets a route
 * name has a price at every tier and resolution that model can make, each figure has a source and
 * a date, and the cost functions read it as the lead's closing note states.
 */
import { describe, expect, it } from 'vitest';
import table from '../../content/provider-costs.json' with { type: 'json' };
import {
  cheapestCredit,
  cheapestFirst,
  costPerSecond,
  defaultVideoLoss,
  taskCostUsd,
  videoCostUsd,
} from '../../server/domains/video/providers/costs.ts';
import { PROVIDERS } from '../../server/domains/video/providers/index.ts';
import { loadConfig } from '../../server/config.ts';
import { DEFAULT_OPTIONS, type VideoOptions } from '../../shared/video-options.ts';

const options = (o: Partial<VideoOptions> = {}): VideoOptions => ({ ...DEFAULT_OPTIONS, ...o });

describe('provider cost table', () => {
  const cases = PROVIDERS.flatMap((p) =>
    p.routeModels.flatMap((model) => {
      const caps = p.modelCapabilities(model);
      return caps.tiers.flatMap((tier) =>
        caps.resolutions.map((resolution) => [p.name, model, tier, resolution] as const),
      );
    }),
  );

  it('lists route models for every provider', () => {
    for (const p of PROVIDERS) expect(p.routeModels.length, p.name).toBeGreaterThan(0);
  });

  it.each(cases)('prices %s:%s at the %s tier, %s', (provider, model, tier, resolution) => {
    expect(costPerSecond(provider, model, { tier, resolution })).not.toBeNull();
  });

  it('gives every figure a source and a date, and a note where it is unconfirmed', () => {
    for (const entry of table.models as Array<Record<string, unknown>>) {
      expect(entry.source, String(entry.model)).toMatch(/\S/);
      expect(entry.date, String(entry.model)).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      if (entry.unconfirmed) expect(entry.note, String(entry.model)).toMatch(/\S/);
    }
  });

  it('has no price for a model the table does not list', () => {
    expect(costPerSecond('fal', 'fal-ai/kling-video', options())).toBeNull();
    expect(costPerSecond('nobody', 'x', options())).toBeNull();
  });
});

describe('cost functions', () => {
  it('bills the fast tier and the feature endpoints as the model they run on', () => {
    expect(costPerSecond('fal', 'fal-ai/veo3.1', options())).toBe(0.4);
    expect(costPerSecond('fal', 'fal-ai/veo3.1', options({ tier: 'fast' }))).toBe(0.15);
    expect(costPerSecond('fal', 'fal-ai/veo3.1/fast/image-to-video', options())).toBe(0.15);
    expect(costPerSecond('fal', 'fal-ai/veo3.1/lite/image-to-video', options())).toBe(0.05);
    expect(costPerSecond('replicate', 'google/veo-3.1', options({ tier: 'fast' }))).toBe(0.15);
    expect(costPerSecond('vertex', 'veo-3.1-generate-001', options({ tier: 'fast' }))).toBe(0.15);
    expect(costPerSecond('gemini', 'gemini-omni-1.2-flash', options({ resolution: '1080p' }))).toBe(
      0.105,
    );
    expect(costPerSecond('local', 'local', options())).toBe(0);
  });

  it('prices a video by its seconds, an extension by the seconds it adds', () => {
    const fal = { provider: 'fal', model: 'fal-ai/veo3.1' };
    expect(videoCostUsd(fal, options(), 8)).toBe(3.2);
    expect(videoCostUsd(fal, options({ extend: true }), 15)).toBe(2.8);
  });

  it('records 0 for a failed job at a provider that bills only videos made', () => {
    const task = { provider: 'vertex', providerModel: 'veo-3.1-generate-001', durationSeconds: 8 };
    expect(taskCostUsd(task, options(), true)).toBe(3.2);
    expect(taskCostUsd(task, options(), false)).toBe(0);
    expect(taskCostUsd({ ...task, providerModel: null }, options(), true)).toBeNull();
  });

  it('puts the cheapest first, equal costs by p95, then the configured order', () => {
    const route = [
      { provider: 'fal', model: 'fal-ai/veo3.1' },
      { provider: 'replicate', model: 'google/veo-3.1-fast' },
      { provider: 'vertex', model: 'veo-3.1-fast-generate-001' },
      { provider: 'fal', model: 'fal-ai/unpriced' },
      { provider: 'local', model: 'local' },
    ];
    const p95 = new Map<string, number | null>([
      ['replicate', 200],
      ['vertex', 90],
    ]);
    expect(cheapestFirst(route, options(), 8, p95).map((e) => e.model)).toEqual([
      'local',
      'veo-3.1-fast-generate-001',
      'google/veo-3.1-fast',
      'fal-ai/veo3.1',
      'fal-ai/unpriced',
    ]);
  });

  it('finds the cheapest credit in content/plans.json and flags losing entries', () => {
    const credit = cheapestCredit();
    expect(credit.label).toBe('Pro+ yearly');
    expect(credit.usdPerCredit).toBeCloseTo(959 / (3370 * 12), 9);
    expect(defaultVideoLoss({ provider: 'vertex', model: 'veo-3.1-generate-001' })).toBe(
      'loses $2.80 per video at Pro+ yearly prices',
    );
    expect(defaultVideoLoss({ provider: 'gemini', model: 'gemini-omni-1.2-flash' })).toBe(
      'loses $0.16 per video at Pro+ yearly prices',
    );
    expect(defaultVideoLoss({ provider: 'local', model: 'local' })).toBeNull();
    expect(defaultVideoLoss({ provider: 'fal', model: 'fal-ai/veo3.1/lite' })).toBeNull();
  });
});

describe('VIDEO_ROUTE_POLICY and VIDEO_MAX_COST_USD', () => {
  it('default to the route as written, without a cap', () => {
    expect(loadConfig({}).video.routing).toEqual({ policy: 'ordered', maxCostUsd: null });
  });

  it('read a policy and an amount, and stop the start on anything else', () => {
    const env = { VIDEO_ROUTE_POLICY: 'cheapest', VIDEO_MAX_COST_USD: '1.25' };
    expect(loadConfig(env).video.routing).toEqual({ policy: 'cheapest', maxCostUsd: 1.25 });
    expect(() => loadConfig({ VIDEO_MAX_COST_USD: 'two' })).toThrow(/VIDEO_MAX_COST_USD/);
    expect(() => loadConfig({ VIDEO_MAX_COST_USD: '-1' })).toThrow(/VIDEO_MAX_COST_USD/);
    expect(() => loadConfig({ VIDEO_ROUTE_POLICY: 'random' })).toThrow(/VIDEO_ROUTE_POLICY/);
  });
});
