/**
 * The media store in the app (`app.mediaStore`): built from config (files under DATA_DIR, or the
 * S3 bucket when S3_BUCKET is set) unless buildApp was given one, and closed with the app.
 * `app.mediaOrigins` lists where its public URLs point (none for files), for the CSP.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config.ts';
import { createMediaStore } from './index.ts';
import { MEDIA_KEYS, type MediaStore } from './types.ts';

declare module 'fastify' {
  interface FastifyInstance {
    mediaStore: MediaStore;
    mediaOrigins: string[];
  }
}

/** The origin a browser is sent to for the store's objects, or none when the app serves them. */
async function mediaOrigins(store: MediaStore): Promise<string[]> {
  const url = await store.publicUrl(`${MEDIA_KEYS.probes}origin`);
  return url ? [new URL(url).origin] : [];
}

export const mediaStorePlugin = fp(
  async (app: FastifyInstance, opts: { config: Config; store?: MediaStore | undefined }) => {
    const store = opts.store ?? createMediaStore(opts.config);
    app.decorate('mediaStore', store);
    app.decorate('mediaOrigins', await mediaOrigins(store));
    // A store passed in belongs to its caller (tests share one between instances).
    if (!opts.store) app.addHook('onClose', () => store.close());
  },
  { name: 'media-store' },
);
