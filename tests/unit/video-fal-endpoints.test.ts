/**
 * Which fal endpoint a job goes to (server/domains/video/providers/fal/models.ts, issue 35): a
 * route names the Veo 3.1 family and the job's tier and options pick the variant, always one
 * fal serves (the fake's list is fal-js's endpoint types).
 */
import { describe, expect, it } from 'vitest';
import {
  ASPECT_RATIOS,
  DEFAULT_OPTIONS,
  RESOLUTIONS,
  TIERS,
  type VideoOptions,
} from '../../shared/video-options.ts';
import { unsupportedOption } from '../../server/domains/video/providers/capabilities.ts';
import {
  falEndpoint,
  falModelCapabilities,
  parseVeoEndpoint,
} from '../../server/domains/video/providers/fal/models.ts';
import type { VideoJobInput, VideoMode } from '../../server/domains/video/providers/types.ts';
import { VEO_ENDPOINTS } from '../fakes/fal/state.ts';

const job = (model: string, mode: VideoMode, options: Partial<VideoOptions>): VideoJobInput => ({
  prompt: 'p',
  mode,
  model,
  options: { ...DEFAULT_OPTIONS, ...options },
  taskId: 't',
  deadlineAt: new Date(),
});

describe('fal endpoint for a job', () => {
  it.each([
    ['fal-ai/veo3.1', 'text', {}, 'fal-ai/veo3.1'],
    ['fal-ai/veo3.1/image-to-video', 'image', {}, 'fal-ai/veo3.1/image-to-video'],
    ['fal-ai/veo3.1', 'image', {}, 'fal-ai/veo3.1/image-to-video'],
    ['fal-ai/veo3.1/image-to-video', 'text', {}, 'fal-ai/veo3.1'],
    ['fal-ai/veo3.1', 'text', { tier: 'fast' }, 'fal-ai/veo3.1/fast'],
    [
      'fal-ai/veo3.1/image-to-video',
      'image',
      { tier: 'fast' },
      'fal-ai/veo3.1/fast/image-to-video',
    ],
    ['fal-ai/veo3.1/fast/image-to-video', 'image', {}, 'fal-ai/veo3.1/fast/image-to-video'],
    [
      'fal-ai/veo3.1/image-to-video',
      'image',
      { lastFrame: true },
      'fal-ai/veo3.1/first-last-frame-to-video',
    ],
    [
      'fal-ai/veo3.1/image-to-video',
      'image',
      { lastFrame: true, tier: 'fast' },
      'fal-ai/veo3.1/fast/first-last-frame-to-video',
    ],
    ['fal-ai/veo3.1', 'text', { referenceImages: 3 }, 'fal-ai/veo3.1/reference-to-video'],
    ['fal-ai/veo3.1', 'text', { extend: true }, 'fal-ai/veo3.1/extend-video'],
    ['fal-ai/veo3.1', 'text', { extend: true, tier: 'fast' }, 'fal-ai/veo3.1/fast/extend-video'],
    // Not the checked family: used as configured (such routes only get the spec's clip).
    ['fal-ai/veo3.1/lite/image-to-video', 'image', {}, 'fal-ai/veo3.1/lite/image-to-video'],
    ['fal-ai/some-other-model', 'text', {}, 'fal-ai/some-other-model'],
  ] as const)('%s, %s mode, %j → %s', (model, mode, options, endpoint) => {
    expect(falEndpoint(job(model, mode, options))).toBe(endpoint);
  });

  it('sends every option combination the capabilities allow to an endpoint fal serves', () => {
    const routes = ['fal-ai/veo3.1', 'fal-ai/veo3.1/image-to-video', 'fal-ai/veo3.1/fast'];
    let allowed = 0;
    for (const model of routes) {
      const caps = falModelCapabilities(model);
      for (const mode of ['text', 'image'] as const)
        for (const aspectRatio of ASPECT_RATIOS)
          for (const resolution of RESOLUTIONS)
            for (const tier of TIERS)
              for (const extra of [
                {},
                { lastFrame: true },
                { referenceImages: 2 },
                { extend: true },
                { seed: 3, negativePrompt: 'blur' },
              ]) {
                const j = job(model, mode, { aspectRatio, resolution, tier, ...extra });
                if (unsupportedOption(caps, mode, j.options) !== null) continue;
                if (j.options.lastFrame && mode === 'text') continue;
                if (j.options.referenceImages > 0 && mode === 'image') continue;
                allowed += 1;
                expect(
                  VEO_ENDPOINTS.has(falEndpoint(j)),
                  `${model} ${JSON.stringify(j.options)}`,
                ).toBe(true);
              }
    }
    expect(allowed).toBeGreaterThan(50);
  });

  it.each([
    ['fal-ai/veo3.1', { fast: false, feature: null }],
    ['fal-ai/veo3.1/fast', { fast: true, feature: null }],
    ['fal-ai/veo3.1/fast/extend-video', { fast: true, feature: 'extend-video' }],
    ['fal-ai/veo3.1/lite', null],
    ['fal-ai/veo3.1/image-to-video/x', null],
    ['fal-ai/veo3.10', null],
  ] as const)('parses %s', (model, parsed) => {
    expect(parseVeoEndpoint(model)).toEqual(parsed);
  });
});
