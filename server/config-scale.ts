/**
 * Settings for running on several machines (issue 18): where media and site releases are stored
 * (local files, or an S3-compatible bucket when S3_BUCKET is set), how rate limits are counted
 * (PostgreSQL, or Redis with REDIS_URL), and how change notifications reach a process whose
 * DATABASE_URL is a transaction-mode pooler. Read once by loadConfig; a half-set S3 or publish
 * setting stops the start, naming the variable to fix.
 */
import { Type, type Static } from 'typebox';

export const ScaleEnvSchema = {
  /** Set: media (videos, posters, uploads, blog images, sample clips) live in this bucket. */
  S3_BUCKET: Type.String({ default: '', maxLength: 63 }),
  S3_REGION: Type.String({ default: 'us-east-1' }),
  /** Empty: AWS itself. Otherwise the S3-compatible endpoint (MinIO, R2, s3rver…). */
  S3_ENDPOINT: Type.String({ default: '' }),
  S3_FORCE_PATH_STYLE: Type.Union([Type.Literal('true'), Type.Literal('false')], {
    default: 'false',
  }),
  /** Both or neither; neither: the SDK's default credential chain (instance role, env, files). */
  S3_ACCESS_KEY_ID: Type.String({ default: '' }),
  S3_SECRET_ACCESS_KEY: Type.String({ default: '' }),
  /** A CDN or public origin in front of the bucket; empty: short-lived presigned GET URLs. */
  MEDIA_PUBLIC_URL: Type.String({ default: '' }),
  MEDIA_URL_TTL_SECONDS: Type.Integer({ minimum: 60, maximum: 7 * 24 * 3600, default: 900 }),
  /** local: releases stay under DATA_DIR/site; s3: each release is published to the bucket. */
  SITE_PUBLISH: Type.Union([Type.Literal('local'), Type.Literal('s3')], { default: 'local' }),
  /** A command run (no shell) after each switch of the live release, e.g. a CDN purge. */
  SITE_PUBLISH_HOOK: Type.String({ default: '' }),
  /** Set: rate limits are counted in Redis; empty: in the database (rate_limit_hits). */
  REDIS_URL: Type.String({ default: '' }),
  /** A direct (not pooled) connection string for LISTEN, when DATABASE_URL is a pooler. */
  DATABASE_DIRECT_URL: Type.String({ default: '' }),
  /** listen: LISTEN/NOTIFY; poll: no LISTEN (a transaction pooler without a direct URL). */
  DATABASE_NOTIFY: Type.Union([Type.Literal('listen'), Type.Literal('poll')], {
    default: 'listen',
  }),
};

type ScaleEnv = { [K in keyof typeof ScaleEnvSchema]: Static<(typeof ScaleEnvSchema)[K]> };

export interface S3Settings {
  bucket: string;
  region: string;
  /** Null: AWS's own endpoint for the region. */
  endpoint: string | null;
  forcePathStyle: boolean;
  /** Null: the SDK's default credential chain. */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
  /** Origin (and path) the bucket's objects are public under, without a trailing slash. */
  publicUrl: string | null;
  /** Lifetime of a presigned GET URL. */
  urlTtlSeconds: number;
}

export interface ScaleConfig {
  /** Null: media are files under DATA_DIR (the default). */
  s3: S3Settings | null;
  sitePublish: 'local' | 's3';
  /** The hook's argv (split on whitespace, no shell); null: none. */
  sitePublishHook: string[] | null;
  redisUrl: string | null;
  /** DATABASE_DIRECT_URL: the connection LISTEN uses; null: DATABASE_URL's. */
  databaseDirectUrl: string | null;
  databaseNotify: 'listen' | 'poll';
}

function httpUrl(variable: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${variable} must be an absolute http(s) URL, not ${JSON.stringify(value)}.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`${variable} must be an http(s) URL, not ${url.protocol}.`);
  }
  return value.replace(/\/+$/, '');
}

/** The scale-out settings; throws an Error naming the variable when a setting is half set. */
export function scaleConfig(env: ScaleEnv): ScaleConfig {
  const bucket = env.S3_BUCKET.trim();
  const s3Vars = [
    'S3_ENDPOINT',
    'S3_ACCESS_KEY_ID',
    'S3_SECRET_ACCESS_KEY',
    'MEDIA_PUBLIC_URL',
  ] as const;
  if (!bucket) {
    const stray = s3Vars.find((name) => env[name] !== '');
    if (stray) throw new Error(`${stray} is set but S3_BUCKET is not: set S3_BUCKET too.`);
    if (env.SITE_PUBLISH === 's3') {
      throw new Error('SITE_PUBLISH=s3 publishes releases to the bucket: set S3_BUCKET.');
    }
  } else if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
    throw new Error(`S3_BUCKET ${JSON.stringify(bucket)} is not a valid bucket name.`);
  }
  if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
    const missing = env.S3_ACCESS_KEY_ID ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID';
    throw new Error(`S3 credentials come in pairs: set ${missing} too (or neither).`);
  }
  if (env.SITE_PUBLISH_HOOK && env.SITE_PUBLISH !== 's3') {
    throw new Error('SITE_PUBLISH_HOOK runs after a release is published: set SITE_PUBLISH=s3.');
  }
  if (env.REDIS_URL && !/^rediss?:\/\//.test(env.REDIS_URL)) {
    throw new Error('REDIS_URL must start with redis:// or rediss://.');
  }
  const s3: S3Settings | null = bucket
    ? {
        bucket,
        region: env.S3_REGION,
        endpoint: env.S3_ENDPOINT ? httpUrl('S3_ENDPOINT', env.S3_ENDPOINT) : null,
        forcePathStyle: env.S3_FORCE_PATH_STYLE === 'true',
        credentials: env.S3_ACCESS_KEY_ID
          ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY }
          : null,
        publicUrl: env.MEDIA_PUBLIC_URL ? httpUrl('MEDIA_PUBLIC_URL', env.MEDIA_PUBLIC_URL) : null,
        urlTtlSeconds: env.MEDIA_URL_TTL_SECONDS,
      }
    : null;
  const hook = env.SITE_PUBLISH_HOOK.trim();
  return {
    s3,
    sitePublish: env.SITE_PUBLISH,
    sitePublishHook: hook ? hook.split(/\s+/) : null,
    redisUrl: env.REDIS_URL || null,
    databaseDirectUrl: env.DATABASE_DIRECT_URL || null,
    databaseNotify: env.DATABASE_NOTIFY,
  };
}
