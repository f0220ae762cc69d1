/**
 * The media store the configuration asks for: the bucket when S3_BUCKET is set, otherwise files
 * under DATA_DIR. Callers import the store and its types from here, not from an adapter.
 */
import type { Config } from '../../config.ts';
import { createLocalMediaStore } from './local.ts';
import { createS3MediaStore } from './s3.ts';
import type { MediaStore } from './types.ts';

export * from './types.ts';
export { createLocalMediaStore } from './local.ts';
export { createS3MediaStore } from './s3.ts';

/** The configured store (one per process; `close` it on shutdown). */
export function createMediaStore(config: Pick<Config, 'dataDir' | 'scale'>): MediaStore {
  return config.scale.s3
    ? createS3MediaStore(config.scale.s3)
    : createLocalMediaStore(config.dataDir);
}
