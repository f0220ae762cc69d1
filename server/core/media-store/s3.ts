/**
 * The media store as an S3-compatible bucket (AWS, MinIO, R2, s3rver…), used when S3_BUCKET is
 * set. Streams and files go up through lib-storage's multipart Upload in 8 MiB parts, two at a
 * time, so a put holds at most a few parts in memory whatever the object's size; reads hand back
 * the response body as it arrives. Browsers fetch objects from MEDIA_PUBLIC_URL (a CDN in front
 * of the bucket) or through presigned GET URLs. Errors name the bucket and key, never the credentials.
 * The SDK is imported on the store's first call, so a start without S3_BUCKET never loads it.
 */
import type { GetObjectCommandOutput, S3Client } from '@aws-sdk/client-s3';
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import type { S3Settings } from '../../config-scale.ts';
import { checkRange } from './local.ts';
import {
  assertKey,
  RangeNotSatisfiableError,
  type MediaStore,
  type ObjectRead,
  type PutBody,
  type PutOptions,
  type StoredObject,
} from './types.ts';

export interface S3MediaStoreOptions {
  /** Keys per ListObjects page (S3's maximum and default: 1000); tests page with 2. */
  listPageSize?: number;
}

const PART_SIZE = 8 * 1024 * 1024;
const QUEUE_SIZE = 2;

interface SdkError {
  name?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
}

const statusOf = (error: unknown) => (error as SdkError).$metadata?.httpStatusCode;
const nameOf = (error: unknown) => (error as SdkError).name ?? '';

/** The three SDK packages the store calls, imported together once per process. */
const loadSdk = async () => {
  const [s3, storage, presigner] = await Promise.all([
    import('@aws-sdk/client-s3'),
    import('@aws-sdk/lib-storage'),
    import('@aws-sdk/s3-request-presigner'),
  ]);
  return { ...s3, Upload: storage.Upload, getSignedUrl: presigner.getSignedUrl };
};
let sdkLoad: ReturnType<typeof loadSdk> | null = null;

export function createS3MediaStore(
  settings: S3Settings,
  options: S3MediaStoreOptions = {},
): MediaStore {
  const { bucket } = settings;
  const listPageSize = options.listPageSize ?? 1000;
  /** Made on the first call, once the SDK is loaded; null until then (close has nothing to free). */
  let made: S3Client | null = null;
  const connect = async () => {
    const sdk = await (sdkLoad ??= loadSdk());
    made ??= new sdk.S3Client({
      region: settings.region,
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      forcePathStyle: settings.forcePathStyle,
      ...(settings.credentials ? { credentials: settings.credentials } : {}),
      // The SDK's default (since 3.729) sends aws-chunked bodies with CRC32 trailers on every
      // put; s3rver and several S3-compatible stores reject them. Checksums only where S3
      // requires one.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    return { sdk, client: made };
  };

  /** An SDK failure as an Error naming the operation, bucket and key (the SDK's as cause). */
  function failure(operation: string, key: string | null, error: unknown): Error {
    const what = key === null ? `bucket ${bucket}` : `${key} in bucket ${bucket}`;
    const status = statusOf(error);
    const reason = `${nameOf(error) || 'Error'}${status ? ` (HTTP ${status})` : ''}: ${(error as SdkError).message ?? String(error)}`;
    return new Error(`S3 ${operation} of ${what} failed: ${reason}`, { cause: error });
  }

  function describe(
    output: Pick<GetObjectCommandOutput, 'ContentType' | 'ETag' | 'LastModified'>,
    size: number,
  ): StoredObject {
    return {
      size,
      contentType: output.ContentType ?? 'application/octet-stream',
      etag: output.ETag ?? null,
      lastModified: output.LastModified ?? null,
    };
  }

  async function put(key: string, body: PutBody, options: PutOptions): Promise<void> {
    assertKey(key);
    const params = {
      Bucket: bucket,
      Key: key,
      ContentType: options.contentType,
      ...(options.cacheControl ? { CacheControl: options.cacheControl } : {}),
    };
    const { sdk, client } = await connect();
    try {
      if (typeof body === 'string' || Buffer.isBuffer(body)) {
        await client.send(new sdk.PutObjectCommand({ ...params, Body: body }));
      } else {
        const stream = body instanceof Readable ? body : createReadStream(body.file);
        const upload = new sdk.Upload({
          client,
          params: { ...params, Body: stream },
          partSize: PART_SIZE,
          queueSize: QUEUE_SIZE,
          leavePartsOnError: false,
        });
        await upload.done();
      }
    } catch (error) {
      throw failure('put', key, error);
    }
  }

  async function head(key: string): Promise<StoredObject | null> {
    assertKey(key);
    const { sdk, client } = await connect();
    try {
      const output = await client.send(new sdk.HeadObjectCommand({ Bucket: bucket, Key: key }));
      return describe(output, output.ContentLength ?? 0);
    } catch (error) {
      // A HEAD answer has no body: a missing key is a bare 404 the SDK names NotFound.
      if (nameOf(error) === 'NotFound' || nameOf(error) === 'NoSuchKey') return null;
      throw failure('head', key, error);
    }
  }

  async function get(
    key: string,
    range?: { start: number; end?: number },
  ): Promise<ObjectRead | null> {
    assertKey(key);
    if (range) checkRange(range);
    const { sdk, client } = await connect();
    let output: GetObjectCommandOutput;
    try {
      output = await client.send(
        new sdk.GetObjectCommand({
          Bucket: bucket,
          Key: key,
          ...(range ? { Range: `bytes=${range.start}-${range.end ?? ''}` } : {}),
        }),
      );
    } catch (error) {
      if (nameOf(error) === 'NoSuchKey') return null;
      if (nameOf(error) === 'InvalidRange' || statusOf(error) === 416) {
        const object = await head(key);
        if (!object) return null;
        throw new RangeNotSatisfiableError(object.size);
      }
      throw failure('get', key, error);
    }
    const body = output.Body;
    if (!(body instanceof Readable)) {
      throw new Error(`S3 get of ${key} in bucket ${bucket} returned no readable body`);
    }
    const length = output.ContentLength ?? 0;
    // `Content-Range: bytes 0-4/11`: the range the body holds and the whole object's size.
    const match = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(output.ContentRange ?? '');
    if (range && match) {
      const bounds = { start: Number(match[1]), end: Number(match[2]) };
      return { ...describe(output, Number(match[3])), body, range: bounds };
    }
    // A store that ignores Range answers 200 with the whole object: say so (range null).
    return { ...describe(output, length), body, range: null };
  }

  async function remove(key: string): Promise<void> {
    assertKey(key);
    const { sdk, client } = await connect();
    try {
      await client.send(new sdk.DeleteObjectCommand({ Bucket: bucket, Key: key }));
    } catch (error) {
      // S3 answers 204 for a missing key; some compatible stores answer 404.
      if (nameOf(error) === 'NoSuchKey' || nameOf(error) === 'NotFound') return;
      throw failure('delete', key, error);
    }
  }

  // ListObjects (v1), each page starting after the last key of the one before. Every
  // S3-compatible store answers it, and in a listing without a delimiter it pages exactly like
  // ListObjectsV2; V2's continuation tokens are what s3rver cannot make on Node 24 (it enciphers
  // them with DES, which Node 24's OpenSSL refuses), so a truncated V2 page there is a 500.
  async function* list(prefix: string): AsyncGenerator<string> {
    const { sdk, client } = await connect();
    let after: string | undefined;
    for (;;) {
      let page;
      try {
        page = await client.send(
          new sdk.ListObjectsCommand({
            Bucket: bucket,
            Prefix: prefix,
            MaxKeys: listPageSize,
            ...(after ? { Marker: after } : {}),
          }),
        );
      } catch (error) {
        throw failure('list', `${prefix}*`, error);
      }
      const keys = (page.Contents ?? []).flatMap((object) => (object.Key ? [object.Key] : []));
      yield* keys;
      if (!page.IsTruncated || keys.length === 0) return;
      after = keys.at(-1);
    }
  }

  async function publicUrl(key: string): Promise<string> {
    assertKey(key);
    if (settings.publicUrl) {
      return `${settings.publicUrl}/${key.split('/').map(encodeURIComponent).join('/')}`;
    }
    const { sdk, client } = await connect();
    return sdk.getSignedUrl(client, new sdk.GetObjectCommand({ Bucket: bucket, Key: key }), {
      expiresIn: settings.urlTtlSeconds,
    });
  }

  return {
    kind: 's3',
    description: `s3://${bucket}${settings.endpoint ? ` at ${settings.endpoint}` : ''}`,
    urlTtlSeconds: settings.publicUrl ? null : settings.urlTtlSeconds,
    put,
    get,
    head,
    delete: remove,
    list,
    publicUrl,
    async check() {
      const { sdk, client } = await connect();
      try {
        await client.send(new sdk.HeadBucketCommand({ Bucket: bucket }));
      } catch (error) {
        throw failure('check', null, error);
      }
    },
    async close() {
      made?.destroy();
    },
  };
}
