/**
 * The one environment schema. Every setting the process reads comes through `loadConfig`, so the
 * rest of the code never touches `process.env` and production rules live in one place.
 */
import { randomBytes, scryptSync } from 'node:crypto';
import path from 'node:path';
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import site from '../content/site.json' with { type: 'json' };
import pkg from '../package.json' with { type: 'json' };
import { scaleConfig, ScaleEnvSchema, type ScaleConfig } from './config-scale.ts';
import { apiLimits, ApiEnvSchema, type ApiLimitsConfig } from './config-api.ts';
import { parseAllowHosts, type OutboundPolicy } from './core/outbound.ts';
import {
  describeRoute,
  localOnlyRefusal,
  VideoEnvSchema,
  videoConfig,
  type VideoConfig,
} from './config-video.ts';

const EnvSchema = Type.Object({
  NODE_ENV: Type.Union(
    [Type.Literal('development'), Type.Literal('production'), Type.Literal('test')],
    { default: 'development' },
  ),
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 4321 }),
  HOST: Type.String({ default: '127.0.0.1' }),
  DATA_DIR: Type.String({ default: './data' }),
  DATABASE_URL: Type.String({ default: '' }),
  PUBLIC_SITE_URL: Type.String({ default: '' }),
  // Read by the site build (site/lib/analytics.ts); checked here so a typo fails at boot. Optional.
  PUBLIC_GA_MEASUREMENT_ID: Type.String({ default: '', pattern: '^(G-[A-Z0-9]{4,20})?$' }),
  GOOGLE_CLIENT_ID: Type.String({ default: '' }),
  GOOGLE_JWKS_URL: Type.String({ default: 'https://www.googleapis.com/oauth2/v3/certs' }),
  GOOGLE_TOKENINFO_URL: Type.String({ default: 'https://oauth2.googleapis.com/tokeninfo' }),
  GOOGLE_USERINFO_URL: Type.String({
    default: 'https://openidconnect.googleapis.com/v1/userinfo',
  }),
  BLOG_EDITORS: Type.String({ default: '' }),
  SESSION_TTL_DAYS: Type.Integer({ minimum: 1, maximum: 365, default: 30 }),
  AUTH_RATE_LIMIT_PER_MINUTE: Type.Integer({ minimum: 1, maximum: 100_000, default: 30 }),
  SMTP_URL: Type.String({ default: '' }),
  STRIPE_SECRET_KEY: Type.String({ default: '' }),
  STRIPE_WEBHOOK_SECRET: Type.String({ default: '' }),
  STRIPE_API_BASE: Type.String({ default: '' }),
  MAIL_FROM: Type.String({ default: '' }),
  ...VideoEnvSchema,
  ...ScaleEnvSchema,
  ...ApiEnvSchema,
  SERVE_SITE: Type.Union([Type.Literal('true'), Type.Literal('false')], { default: 'true' }),
  SAMPLE_CLIPS: Type.Union([Type.Literal('render'), Type.Literal('off')], { default: 'render' }),
  SAMPLE_CACHE_DIR: Type.String({ default: '' }),
  LOG_FORMAT: Type.Union([Type.Literal('auto'), Type.Literal('pretty'), Type.Literal('json')], {
    default: 'auto',
  }),
  LOG_LEVEL: Type.Union(
    [
      Type.Literal('fatal'),
      Type.Literal('error'),
      Type.Literal('warn'),
      Type.Literal('info'),
      Type.Literal('debug'),
      Type.Literal('trace'),
      Type.Literal('silent'),
    ],
    { default: 'info' },
  ),
  TRUST_PROXY: Type.Union([Type.Literal('true'), Type.Literal('false')], { default: 'false' }),
  // 0: sized to the process's open-file limit at start (server/core/open-files.ts).
  MAX_CONNECTIONS: Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 }),
  ADMIN_USERNAME: Type.String({ default: '', maxLength: 200 }),
  ADMIN_PASSWORD: Type.String({ default: '', maxLength: 200 }),
  ADMIN_PASSWORD_HASH: Type.String({ default: '' }),
  ADMIN_STATUS_PASSWORD: Type.String({ default: '', maxLength: 200 }),
  // Empty: no GET /metrics on the app. METRICS_PORT 0: no separate metrics listener.
  METRICS_TOKEN: Type.String({ default: '', maxLength: 500 }),
  METRICS_PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 0 }),
  // auto: only the public API in production, every route elsewhere (server/core/api-docs.ts).
  API_DOCS: Type.Union([Type.Literal('auto'), Type.Literal('public'), Type.Literal('all')], {
    default: 'auto',
  }),
  // host:port entries the guarded fetcher may reach on private addresses: tests' fakes only.
  OUTBOUND_ALLOW_HOSTS: Type.String({ default: '' }),
});

type Env = Static<typeof EnvSchema>;

/** Every environment variable the process reads (README's table lists each one). */
export const ENV_VARIABLES: readonly string[] = Object.keys(EnvSchema.properties);

export interface Config {
  env: Env['NODE_ENV'];
  isProduction: boolean;
  /** Local mode: embedded adapters (local sign-in form, outbox mailer) are allowed. */
  localMode: boolean;
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  publicSiteUrl: string;
  google: {
    clientId: string | null;
    jwksUrl: string;
    tokeninfoUrl: string;
    userinfoUrl: string;
  };
  blogEditors: ReadonlySet<string>;
  sessionTtlMs: number;
  /** Sign-in, sign-up and reset attempts allowed per client address per minute. */
  authRateLimit: number;
  /** /v1 limits of a key whose owner's plan names none (config-api.ts). */
  apiLimits: ApiLimitsConfig;
  mail: { smtpUrl: string | null; from: string };
  /** Null: the local checkout (local mode only). */
  stripe: { secretKey: string; webhookSecret: string; apiBase: URL | null } | null;
  video: VideoConfig;
  /** Media store, site publishing, shared rate limits, notifications (config-scale.ts). */
  scale: ScaleConfig;
  /** What fetches of addresses others gave us may reach (core/outbound.ts). */
  outbound: OutboundPolicy;
  serveSite: boolean;
  samples: {
    /** render: clips missing from the cache are rendered in the background after start. */
    render: boolean;
    /** Null: the project's cache (node_modules/.cache/veo3-samples). */
    cacheDir: string | null;
  };
  logLevel: Env['LOG_LEVEL'];
  /** pretty: one human-readable line per entry; json: pino's lines (auto: pretty on a TTY). */
  logFormat: 'pretty' | 'json';
  trustProxy: boolean;
  /** Deadlines and the connection cap of the HTTP server (finding 5 of issue 16). */
  http: {
    /** A request's headers must be complete this long after its first byte. */
    headersTimeoutMs: number;
    /** A whole request (headers and body) must be received within this. */
    requestTimeoutMs: number;
    /** An idle keep-alive connection is closed after this. */
    keepAliveTimeoutMs: number;
    /** A connection on which nothing moves either way is closed after this. */
    idleTimeoutMs: number;
    /** Open connections at most; null: sized to the open-file limit when the server starts. */
    maxConnections: number | null;
  };
  version: string;
  /**
   * The operator's admin account; null: no admin sign-in. Only scrypt hashes are kept: a plain
   * ADMIN_PASSWORD is hashed here, at boot, so no config object holds it.
   */
  admin: {
    username: string;
    passwordHash: string;
    /** True when it came from ADMIN_PASSWORD (production warns: prefer ADMIN_PASSWORD_HASH). */
    fromPlainPassword: boolean;
  } | null;
  /** What `GET /api/admin/status?password=` checks: ADMIN_STATUS_PASSWORD, else the admin's. */
  statusPasswordHash: string | null;
  /** Bearer token of the app's GET /metrics (null: no route); port of a token-less listener (null: none). */
  metrics: { token: string | null; port: number | null };
  /** What /api/docs describes: the routes customers call, or every route (admin too). */
  apiDocs: 'public' | 'all';
}

/**
 * Slowloris-style clients hold a connection by sending a byte every few seconds; these deadlines
 * close it. Headers are a few hundred bytes: 10 s is ample on any link. The request deadline
 * covers the largest body we take, a 10 MB image, on a slow mobile uplink: 120 s is 0.7 Mbit/s.
 * Keep-alive is short (a browser reopens cheaply); a reverse proxy keeps its own upstream
 * connections for less than this (docs/deployment.md). Idle: a client that stops reading a
 * response (slow read) gives up its connection after a minute.
 */
const HTTP_DEADLINES = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 120_000,
  keepAliveTimeoutMs: 5_000,
  idleTimeoutMs: 60_000,
};

/** Thrown at boot when the environment is invalid; the message names the variable to fix. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** The video settings, with start-up's refusals as ConfigError (issue 17). */
function videoSettings(env: Env, isProduction: boolean): VideoConfig {
  const publicOrigin =
    isProduction && env.PUBLIC_SITE_URL ? env.PUBLIC_SITE_URL.replace(/\/+$/, '') : null;
  try {
    return videoConfig(env, publicOrigin);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
}

/** The scale-out settings, with start-up's refusals as ConfigError. */
function scaleSettings(env: Env): ScaleConfig {
  try {
    return scaleConfig(env);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
}

/** Both routes, or one line when they agree (local mode: "local (ffmpeg renderer)"). */
function describeVideo(config: Config): string {
  const text = describeRoute(config.video.routes.text);
  const image = describeRoute(config.video.routes.image);
  return text === image ? text : `text: ${text}; image: ${image}`;
}

/** Loads ./.env into process.env when present (values already set win). */
export function loadDotEnv(file = '.env'): void {
  try {
    process.loadEnvFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** Parses an environment (default: process.env) into a typed, validated config. */
export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(EnvSchema.properties)) {
    const value = source[key];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const converted = Value.Default(EnvSchema, Value.Convert(EnvSchema, raw));
  const errors = [...Value.Errors(EnvSchema, converted)];
  if (errors.length > 0) {
    const first = errors[0]!;
    const name = first.instancePath.replace(/^\//, '') || 'environment';
    throw new ConfigError(`Invalid ${name}: ${first.message}.`);
  }
  const env = converted as Env;
  const isProduction = env.NODE_ENV === 'production';

  const config: Config = {
    env: env.NODE_ENV,
    isProduction,
    localMode: !isProduction,
    port: env.PORT,
    host: env.HOST,
    dataDir: path.resolve(env.DATA_DIR),
    databaseUrl: env.DATABASE_URL || null,
    publicSiteUrl: (env.PUBLIC_SITE_URL || `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
    google: {
      clientId: env.GOOGLE_CLIENT_ID || null,
      jwksUrl: env.GOOGLE_JWKS_URL,
      tokeninfoUrl: env.GOOGLE_TOKENINFO_URL,
      userinfoUrl: env.GOOGLE_USERINFO_URL,
    },
    blogEditors: new Set(
      env.BLOG_EDITORS.split(',')
        .map((e) => e.trim().toLowerCase())
        .filter(Boolean),
    ),
    sessionTtlMs: env.SESSION_TTL_DAYS * 24 * 60 * 60 * 1000,
    authRateLimit: env.AUTH_RATE_LIMIT_PER_MINUTE,
    apiLimits: apiLimits(env),
    mail: {
      smtpUrl: env.SMTP_URL || null,
      from: env.MAIL_FROM || `${site.brand} <${site.mailboxes.support}>`,
    },
    stripe:
      env.STRIPE_SECRET_KEY || env.STRIPE_WEBHOOK_SECRET
        ? {
            secretKey: env.STRIPE_SECRET_KEY,
            webhookSecret: env.STRIPE_WEBHOOK_SECRET,
            apiBase: env.STRIPE_API_BASE ? new URL(env.STRIPE_API_BASE) : null,
          }
        : null,
    video: videoSettings(env, isProduction),
    scale: scaleSettings(env),
    outbound: { allowHosts: parseAllowHosts(env.OUTBOUND_ALLOW_HOSTS) },
    serveSite: env.SERVE_SITE === 'true',
    samples: {
      render: env.SAMPLE_CLIPS === 'render',
      cacheDir: env.SAMPLE_CACHE_DIR ? path.resolve(env.SAMPLE_CACHE_DIR) : null,
    },
    logLevel: env.LOG_LEVEL,
    logFormat:
      env.LOG_FORMAT === 'auto'
        ? !isProduction && stdoutIsTerminal()
          ? 'pretty'
          : 'json'
        : env.LOG_FORMAT,
    trustProxy: env.TRUST_PROXY === 'true',
    http: { ...HTTP_DEADLINES, maxConnections: env.MAX_CONNECTIONS || null },
    version: pkg.version,
    metrics: { token: env.METRICS_TOKEN || null, port: env.METRICS_PORT || null },
    apiDocs: env.API_DOCS === 'auto' ? (isProduction ? 'public' : 'all') : env.API_DOCS,
    ...adminConfig(env),
  };

  if (config.stripe && (!config.stripe.secretKey || !config.stripe.webhookSecret)) {
    const missing = config.stripe.secretKey ? 'STRIPE_WEBHOOK_SECRET' : 'STRIPE_SECRET_KEY';
    throw new ConfigError(
      `Stripe needs both STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET. Set ${missing}.`,
    );
  }
  if (isProduction) assertProductionReady(config, env);
  return config;
}

/** Logs are for a person when someone watches the terminal, for a collector otherwise. */
function stdoutIsTerminal(): boolean {
  return process.stdout.isTTY === true;
}

/** The scrypt format of server/core/passwords.ts, made synchronously (loadConfig is sync). */
function hashAtBoot(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password, salt, 64, { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
  return `scrypt$16384$8$1$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

const SCRYPT_HASH = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$[A-Za-z0-9_-]{16,}\$[A-Za-z0-9_-]{43,}$/;
const MIN_ADMIN_PASSWORD = 12;

function adminConfig(env: Env): Pick<Config, 'admin' | 'statusPasswordHash'> {
  const username = env.ADMIN_USERNAME.trim();
  const { ADMIN_PASSWORD: plain, ADMIN_PASSWORD_HASH: hash, ADMIN_STATUS_PASSWORD: status } = env;
  if (plain && hash) {
    throw new ConfigError('Set ADMIN_PASSWORD_HASH or ADMIN_PASSWORD, not both.');
  }
  if (username && !plain && !hash) {
    throw new ConfigError(
      'ADMIN_USERNAME needs ADMIN_PASSWORD_HASH (make one with `npm run admin -- hash-password`).',
    );
  }
  if (!username && (plain || hash)) {
    throw new ConfigError('ADMIN_PASSWORD and ADMIN_PASSWORD_HASH need ADMIN_USERNAME.');
  }
  for (const [name, value] of [
    ['ADMIN_PASSWORD', plain],
    ['ADMIN_STATUS_PASSWORD', status],
  ] as const) {
    if (value && value.length < MIN_ADMIN_PASSWORD) {
      throw new ConfigError(`${name} must be at least ${MIN_ADMIN_PASSWORD} characters long.`);
    }
  }
  if (hash) {
    const match = SCRYPT_HASH.exec(hash);
    // 128·N·r bytes of memory per check: refuse hashes the 64 MB scrypt limit cannot verify.
    if (!match || 128 * Number(match[1]) * Number(match[2]) > 64 * 1024 * 1024) {
      throw new ConfigError(
        'ADMIN_PASSWORD_HASH is not a scrypt hash from `npm run admin -- hash-password`.',
      );
    }
  }
  const admin = username
    ? { username, passwordHash: hash || hashAtBoot(plain), fromPlainPassword: !hash }
    : null;
  return {
    admin,
    statusPasswordHash: status ? hashAtBoot(status) : (admin?.passwordHash ?? null),
  };
}

/** Production refuses every local adapter and every missing secret, naming the variable. */
function assertProductionReady(config: Config, env: Env): void {
  const missing: Array<[string, string]> = [];
  if (!config.databaseUrl) missing.push(['DATABASE_URL', 'the embedded database is local-only']);
  if (!config.google.clientId) missing.push(['GOOGLE_CLIENT_ID', 'local sign-in is local-only']);
  if (!env.PUBLIC_SITE_URL)
    missing.push(['PUBLIC_SITE_URL', 'canonical links and mail need the public origin']);
  if (!config.mail.smtpUrl) missing.push(['SMTP_URL', 'the outbox mailer is local-only']);
  for (const [variable, route] of [
    ['VIDEO_ROUTE_TEXT', config.video.routes.text],
    ['VIDEO_ROUTE_IMAGE', config.video.routes.image],
  ] as const) {
    const refusal = localOnlyRefusal(route);
    if (refusal) missing.push([variable, refusal]);
  }
  if (!config.stripe) {
    missing.push(['STRIPE_SECRET_KEY', 'the local checkout is local-only']);
    missing.push(['STRIPE_WEBHOOK_SECRET', 'payments are confirmed by signed webhooks']);
  }
  if (missing.length > 0) {
    const lines = missing.map(([name, why]) => `  ${name} (${why})`).join('\n');
    throw new ConfigError(`NODE_ENV=production refuses to start. Set:\n${lines}`);
  }
}

/** Which adapter serves each outside concern, for the start-up lines: local ones say so. */
export function describeAdapters(config: Config): Record<string, string> {
  return {
    database: config.databaseUrl ? 'PostgreSQL' : 'local (embedded PGlite)',
    'sign-in': config.google.clientId ? 'Google' : 'local (sign-in form)',
    payments: config.stripe ? 'Stripe Checkout' : 'local (checkout page)',
    video: describeVideo(config),
    mail: config.mail.smtpUrl ? 'SMTP' : 'local (outbox files)',
    media: config.scale.s3 ? `S3 bucket ${config.scale.s3.bucket}` : 'local (files under DATA_DIR)',
    'rate limits': config.scale.redisUrl ? 'Redis' : 'the database',
  };
}
