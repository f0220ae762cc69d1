/** The ffmpeg renderer (local mode's default, offline): the descriptor PROVIDERS registers. */
import path from 'node:path';
import {
  ASPECT_RATIOS,
  MAX_REFERENCE_IMAGES,
  RESOLUTIONS,
  TIERS,
} from '../../../../../shared/video-options.ts';
import type { ModelCapabilities } from '../capabilities.ts';
import { defineProvider } from '../descriptor.ts';

/**
 * Every option, so the whole product runs offline (issue 35, item 6): ./renderer.ts draws each
 * (both shapes and resolutions at their real sizes, a faster preset for the fast tier, the seed in
 * the scene, the negative prompt as a caption line, the end frame cross-faded in, references as
 * thumbnails, an extension joined to its source).
 */
const EVERY_OPTION: ModelCapabilities = {
  modes: ['text', 'image'],
  aspectRatios: ASPECT_RATIOS,
  resolutions: RESOLUTIONS,
  tiers: TIERS,
  negativePrompt: true,
  seed: true,
  lastFrame: true,
  referenceImages: {
    max: MAX_REFERENCE_IMAGES,
    aspectRatios: ASPECT_RATIOS,
    resolutions: RESOLUTIONS,
    tiers: TIERS,
  },
  extend: { resolutions: RESOLUTIONS, tiers: TIERS },
};

export const local = defineProvider({
  name: 'local',
  title: 'ffmpeg renderer',
  env: [
    {
      name: 'LOCAL_RENDER_FAIL_PATTERN',
      secret: false,
      default: '',
      description:
        'local renderer only: prompts matching this regular expression fail on purpose (tests)',
    },
  ],
  localOnly: true,
  isModelId: (model) => model === 'local',
  requires: [],
  // ./render/: 8 s with a soundtrack (1280×720 by default); image mode animates the first frame.
  capabilities: { cancel: true, webhooks: false },
  modelCapabilities: () => EVERY_OPTION,
  routeModels: ['local'],
  // Rendered on our own machine: content/provider-costs.json prices it at 0.
  billedModel: () => 'local',
  metricsLabel: 'local',
  // Renders take seconds: check often.
  pollMs: 300,
  expectedMs: 8000,
  describe: () => 'local (ffmpeg renderer)',
  settings: (env) => ({
    failPattern: env.LOCAL_RENDER_FAIL_PATTERN ? new RegExp(env.LOCAL_RENDER_FAIL_PATTERN) : null,
  }),
  // Only when routed: its jobs live in this process, so none outlive a route change.
  configured: () => false,
  create: async (s, deps) =>
    (await import('./adapter.ts')).createLocalVideoProvider({
      jobsDir: path.join(deps.dataDir, 'jobs'),
      failPattern: s.failPattern,
    }),
});
