/**
 * Sample clips shared through the media store when several machines serve the site (S3): a clip
 * rendered by any instance is put under `samples/{renderKey}/clip.mp4|poster.jpg`, and an instance
 * whose own render cache lacks it sends visitors there (see samples-routes.ts) instead of
 * rendering it again. A render key names the prompt and renderer, so what is there never changes.
 */
import path from 'node:path';
import { MEDIA_KEYS, type MediaStore } from '../../core/media-store/types.ts';

/** A clip's files in the local render cache (a `CachedClip` of ./samples.ts). */
interface CachedFiles {
  video: string;
  poster: string;
}

export function sharedClips(store: MediaStore) {
  /** Render directories whose files are known to be in the store. */
  const stored = new Set<string>();
  const renderDir = (clip: CachedFiles) => path.dirname(clip.video);
  const keys = (clip: CachedFiles) => {
    const prefix = `${MEDIA_KEYS.samples}${path.basename(renderDir(clip))}/`;
    return { video: `${prefix}clip.mp4`, poster: `${prefix}poster.jpg` };
  };

  return {
    keys,
    /** Known to be in the store (no request). */
    known: (clip: CachedFiles) => stored.has(renderDir(clip)),
    /** Whether the store has both files; remembered once seen. */
    async has(clip: CachedFiles): Promise<boolean> {
      if (stored.has(renderDir(clip))) return true;
      const { video, poster } = keys(clip);
      if ((await store.head(video)) && (await store.head(poster))) stored.add(renderDir(clip));
      return stored.has(renderDir(clip));
    },
    /** Puts a clip rendered into the local cache; the poster last, which `has` reads as done. */
    async put(clip: CachedFiles): Promise<void> {
      if (stored.has(renderDir(clip))) return;
      const { video, poster } = keys(clip);
      await store.put(video, { file: clip.video }, { contentType: 'video/mp4' });
      await store.put(poster, { file: clip.poster }, { contentType: 'image/jpeg' });
      stored.add(renderDir(clip));
    },
  };
}
