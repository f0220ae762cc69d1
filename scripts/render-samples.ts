/**
 * Renders the site's sample clips into the shared cache (node_modules/.cache/veo3-samples) ahead
 * of the test run, so the first site build inside a test does not spend a minute in ffmpeg.
 */
import { ensureSampleClips } from '../server/domains/site-build/samples.ts';

const started = Date.now();
const clips = await ensureSampleClips({
  projectRoot: new URL('..', import.meta.url).pathname,
  log: { info: () => {} },
});
console.log(
  `${clips.length} sample clips ready in ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
