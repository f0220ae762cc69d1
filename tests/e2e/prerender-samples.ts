/**
 * Renders the sample clips the e2e specs play (E2E_READY_SAMPLES) into the e2e server's cache.
 * tests/e2e/serve.ts runs it before the server starts (`npm test` starts that server beside
 * Vitest, so the clips are ready by the time Playwright runs); `--low-priority` renders them from
 * the command line at the lowest CPU priority.
 */
import path from 'node:path';
import { collectSampleClips, ensureSampleClips } from '../../server/domains/site-build/samples.ts';
import { E2E_READY_SAMPLES, E2E_SAMPLE_CACHE_DIR } from './site-pages.ts';

const root = path.resolve(import.meta.dirname, '../..');

export async function prerenderE2eSamples(lowPriority = false): Promise<void> {
  const ready = new Set(E2E_READY_SAMPLES);
  const clips = (await collectSampleClips(root)).filter((clip) => ready.has(clip.id));
  await ensureSampleClips({
    projectRoot: root,
    clips,
    cacheDir: path.resolve(root, E2E_SAMPLE_CACHE_DIR),
    lowPriority,
  });
}

if (import.meta.main) await prerenderE2eSamples(process.argv.includes('--low-priority'));
