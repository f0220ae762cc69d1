/** The ffmpeg renderer (local mode's default, offline): the descriptor PROVIDERS registers. */
import path from 'node:path';
import { defineProvider, FIXED_CLIP } from '../descriptor.ts';

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
  // ./render/scene.ts: 1280×720, 8 s, with a soundtrack; image mode animates the first frame.
  capabilities: { ...FIXED_CLIP, cancel: true, webhooks: false },
  // Rendered on our own machine: no provider bills it.
  priceUsdPerSecond: () => 0,
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
