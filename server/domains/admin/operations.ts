/**
 * What an operator checks when something seems wrong: the status answer (database, queue, site
 * build, version, uptime) and the self-test, which exercises each subsystem for real (a database
 * write rolled back, a file written to the media store and removed, the mail path, the
 * configured providers) and reports each with its time. Only Stripe is called over the network,
 * and only when it is configured.
 */
import { describeRoute, routedProviders } from '../../config-video.ts';
import { providerOverview } from '../video/service.ts';
import { constants } from 'node:fs';
import { access, mkdir, rm, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import ffmpeg from '@ffmpeg-installer/ffmpeg';
import { sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import { queryRows, type Database } from '../../core/db.ts';
import { MEDIA_KEYS, type MediaStore } from '../../core/media-store/types.ts';
import type {
  AdminSiteBuild,
  AdminStatusResponse,
  SubsystemCheck,
  TaskCounts,
} from '../../contracts/admin.ts';
import { checkStripeAccount } from '../billing/service.ts';
import type { Publisher } from '../site-build/plugin.ts';
import { liveRelease as readLiveRelease } from '../site-build/service.ts';
import { cachedReading } from '../../core/cached-reading.ts';
import { OVERVIEW_TTL_MS } from './overview.ts';
import * as repo from './repository.ts';

/** The longest any one network check may take. */
const NETWORK_TIMEOUT_MS = 5000;

/** The publisher's state in the dashboard's words; a last build that failed shows as failed. */
async function siteBuildStatus(publisher: Publisher, dataDir: string): Promise<AdminSiteBuild> {
  const status = publisher.status();
  const live = await readLiveRelease(dataDir);
  const state = status.state === 'live' ? (status.error ? 'failed' : 'idle') : status.state;
  return {
    state,
    liveRelease: live.id,
    builtAt: live.builtAt,
    lastError: status.error,
  };
}

type Status = AdminStatusResponse['data'];

export function createOperations(deps: {
  config: Config;
  database: Database;
  publisher: Publisher;
  mediaStore: MediaStore;
  startedAt: number;
}) {
  const { config, database, publisher } = deps;

  async function timed(name: string, run: () => Promise<string>): Promise<SubsystemCheck> {
    const started = performance.now();
    try {
      const detail = await run();
      return { name, ok: true, detail, ms: Math.round(performance.now() - started) };
    } catch (error) {
      const detail = (error as Error).message || String(error);
      return { name, ok: false, detail, ms: Math.round(performance.now() - started) };
    }
  }

  /** A write and a read inside a transaction that is then rolled back: nothing stays. */
  async function checkDatabase(): Promise<string> {
    const key = `selftest:${randomBytes(8).toString('hex')}`;
    const rolledBack = new Error('rollback');
    let read: string | undefined;
    await database.db
      .transaction(async (tx) => {
        await tx.execute(
          sql`insert into admin_login_failures (key, failures, last_failed_at)
              values (${key}, 0, now())`,
        );
        const rows = await queryRows<{ key: string }>(
          tx,
          sql`select key from admin_login_failures where key = ${key}`,
        );
        read = rows[0]?.key;
        throw rolledBack;
      })
      .catch((error: unknown) => {
        if (error !== rolledBack) throw error;
      });
    if (read !== key) throw new Error('The test row written was not read back.');
    return `${database.kind}: wrote and read a row in a transaction, then rolled it back`;
  }

  async function checkMedia(): Promise<string> {
    const { mediaStore: store } = deps;
    // Where results go (a leading dot: never served publicly).
    const key = `${MEDIA_KEYS.media}.selftest-${randomBytes(8).toString('hex')}.txt`;
    const content = `self-test ${new Date().toISOString()}`;
    try {
      await store.put(key, content, { contentType: 'text/plain; charset=utf-8' });
      const read = await store.get(key);
      if (!read || (await text(read.body)) !== content) {
        throw new Error('The object read back differs from the one written.');
      }
    } finally {
      await store.delete(key);
    }
    return `wrote, read and deleted an object in ${store.description}`;
  }

  async function checkVideoProvider(): Promise<string> {
    const routes = (['text', 'image'] as const).map(
      (mode) => `${mode}: ${describeRoute(config.video.routes[mode])}`,
    );
    if (routedProviders(config.video).has('local')) {
      await access(ffmpeg.path, constants.X_OK);
    }
    // Providers bill by request, so the self-test names the routes and does not call them.
    return `${routes.join('; ')}; hosted providers are not called by the self-test`;
  }

  async function checkGoogle(): Promise<string> {
    if (config.google.clientId) return 'Google sign-in configured (GOOGLE_CLIENT_ID set)';
    if (config.localMode) return 'local sign-in form (local mode; no GOOGLE_CLIENT_ID)';
    throw new Error('GOOGLE_CLIENT_ID is not set.');
  }

  async function checkPayments(): Promise<string> {
    if (!config.stripe) {
      if (config.localMode) return 'local checkout (local mode; Stripe not configured)';
      throw new Error('STRIPE_SECRET_KEY is not set.');
    }
    const mode = await checkStripeAccount(config.stripe, NETWORK_TIMEOUT_MS);
    return `Stripe answered (${mode} mode)`;
  }

  async function checkMail(): Promise<string> {
    if (config.mail.smtpUrl) {
      const nodemailer = await import('nodemailer');
      const transport = nodemailer.createTransport(config.mail.smtpUrl);
      try {
        await withTimeout(transport.verify(), NETWORK_TIMEOUT_MS, 'The SMTP server');
      } finally {
        transport.close();
      }
      return 'the SMTP server accepted the connection and login';
    }
    const outbox = path.join(config.dataDir, 'outbox');
    await mkdir(outbox, { recursive: true });
    const probe = path.join(outbox, `.selftest-${randomBytes(8).toString('hex')}`);
    await writeFile(probe, '');
    await rm(probe, { force: true });
    return `outbox ${outbox} is writable (local mode)`;
  }

  const providers = cachedReading(() => providerOverview(database.db, config.video.routes), {
    ttlMs: OVERVIEW_TTL_MS,
  });
  return {
    build: () => siteBuildStatus(publisher, config.dataDir),
    /**
     * The providers' card: its last-24-hours figures aggregate that day's tasks, so it is read
     * at most every OVERVIEW_TTL_MS like the overview's counts; `fresh` (Refresh) reads now.
     */
    videoProviders: providers,

    async status(): Promise<Status> {
      const started = performance.now();
      const ok = await database.ping();
      const latencyMs = Math.round((performance.now() - started) * 10) / 10;
      const empty: TaskCounts = { pending: 0, processing: 0, completed: 0, failed: 0 };
      return {
        database: { ok, kind: database.kind, latencyMs },
        queue: ok ? await repo.taskCounts(database.db).catch(() => empty) : empty,
        build: await siteBuildStatus(publisher, config.dataDir),
        version: config.version,
        uptimeSeconds: Math.round((Date.now() - deps.startedAt) / 1000),
        workerMode: config.video.worker,
      };
    },

    async selfTest(): Promise<{ ok: boolean; checks: SubsystemCheck[] }> {
      const checks = await Promise.all([
        timed('database', checkDatabase),
        timed('media', checkMedia),
        timed('video provider', checkVideoProvider),
        timed('google sign-in', checkGoogle),
        timed('payments', checkPayments),
        timed('mail', checkMail),
      ]);
      return { ok: checks.every((c) => c.ok), checks };
    },
  };
}

export type Operations = ReturnType<typeof createOperations>;

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer in ${ms} ms.`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
