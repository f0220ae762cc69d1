/**
 * What other domains may use of the local renderer, re-exported by the video domain's
 * service.ts: site-build renders the site's sample clips with it and keys its cache by its
 * source.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export { renderLocalVideo } from './renderer.ts';
/** The renderer's frame size (every local video is WIDTH×HEIGHT). */
export { HEIGHT, WIDTH } from './render/scene.ts';

const HERE = fileURLToPath(new URL('.', import.meta.url));

/** A hash of the renderer's own source files: when they change, every cached render is stale. */
export async function rendererFingerprint(): Promise<string> {
  const files = [
    path.join(HERE, 'renderer.ts'),
    ...(await readdir(path.join(HERE, 'render')))
      .filter((name) => name.endsWith('.ts'))
      .sort()
      .map((name) => path.join(HERE, 'render', name)),
  ];
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(path.relative(HERE, file));
    hash.update(await readFile(file));
  }
  return hash.digest('hex');
}
