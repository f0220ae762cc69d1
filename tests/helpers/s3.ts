/**
 * A real S3 wire endpoint for tests: s3rver (npm) in this process on a free port, one bucket, in
 * a fresh temporary directory removed on close. `env` holds the settings that point the app at
 * it. s3rver speaks S3's REST API (ranges, multipart uploads, ListObjectsV2) but does not check
 * signatures, so a test that cares about presigning verifies the signature itself.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The part of s3rver 3.7's API used here (the package ships no types). */
interface S3rverInstance {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
  on(event: 'event', listener: (event: S3rverEvent) => void): void;
}
interface S3rverEvent {
  Records: Array<{ eventName: string; s3: { object: { key: string } } }>;
}
type S3rverClass = new (options: {
  port: number;
  address: string;
  silent: boolean;
  directory: string;
  configureBuckets: Array<{ name: string }>;
}) => S3rverInstance;

const require = createRequire(import.meta.url);
const S3rver = require('s3rver') as S3rverClass;

/**
 * s3rver 3.7 answers a PutObject whose body it holds in memory before the file is written
 * (`writeStream.end(content)`, then resolve, in lib/stores/filesystem.js), so a HEAD or GET right
 * after it can read an empty file: seen once under CI load, as a 0-byte HEAD. Real S3 is
 * read-after-write consistent, and our store relies on that; the fake is made so too, by waiting
 * here until the file on disk has the size the put reported.
 */
interface FilesystemStore {
  putObject(object: { bucket: string; key: string }): Promise<{ size: number; md5: string }>;
  getResourcePath(bucket: string, key: string, type: 'object'): string;
}
const store = (require('s3rver/lib/stores/filesystem.js') as { prototype: FilesystemStore })
  .prototype;
const putObject = store.putObject;
store.putObject = async function (this: FilesystemStore, object) {
  const result = await putObject.call(this, object);
  const file = this.getResourcePath(object.bucket, object.key, 'object');
  for (let waited = 0; waited < 5000; waited += 5) {
    if ((await stat(file).catch(() => null))?.size === result.size) break;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return result;
};

export interface TestS3Server {
  endpoint: string;
  bucket: string;
  /** S3_BUCKET, S3_ENDPOINT, S3_FORCE_PATH_STYLE, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_REGION. */
  env: Record<string, string>;
  /** Where s3rver keeps the bucket's files. */
  directory: string;
  /**
   * The bucket's event notifications so far, oldest first: `ObjectCreated:Put` (PutObject),
   * `ObjectCreated:Post` (a completed multipart upload), `ObjectCreated:Copy`,
   * `ObjectRemoved:Delete`.
   */
  events: Array<{ name: string; key: string }>;
  close(): Promise<void>;
}

export async function startS3Server(opts: { bucket?: string } = {}): Promise<TestS3Server> {
  const bucket = opts.bucket ?? 'media';
  const directory = await mkdtemp(path.join(tmpdir(), 'veo3-s3-'));
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const events: TestS3Server['events'] = [];
  server.on('event', (event) => {
    for (const record of event.Records) {
      events.push({ name: record.eventName, key: record.s3.object.key });
    }
  });
  let port: number;
  try {
    ({ port } = await server.run());
  } catch (error) {
    await rm(directory, { recursive: true, force: true });
    throw error;
  }
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    directory,
    events,
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_REGION: 'us-east-1',
    },
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
