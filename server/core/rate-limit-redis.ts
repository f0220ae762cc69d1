/**
 * The Redis connection behind the rate limits when REDIS_URL is set (@fastify/rate-limit's own
 * Redis store counts in it). Tuned to fail fast: no offline queue, one retry per command, short
 * connect and command timeouts, so a Redis outage costs a request a few milliseconds, not a hang; the
 * client keeps reconnecting in the background. ioredis is imported on connect: a start without
 * REDIS_URL never loads it.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

const CONNECT_TIMEOUT_MS = 2000;
const COMMAND_TIMEOUT_MS = 1000;

/**
 * Connects to `url` and waits (up to the connect timeout) for it to answer. An unreachable Redis
 * does not stop the start: the error is logged, the client keeps trying, and every later
 * connection error goes to `onError`.
 */
export async function connectRateLimitRedis(
  url: string,
  log: FastifyBaseLogger,
  onError: (error: unknown) => void,
): Promise<Redis> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    connectTimeout: CONNECT_TIMEOUT_MS,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    // A Redis that accepts the connection but stops answering fails the command too.
    commandTimeout: COMMAND_TIMEOUT_MS,
  });
  redis.on('error', onError);
  // The first answer decides: ready, or an error (refused, timed out). Either way the start goes on.
  const ready = await new Promise<boolean>((resolve) => {
    const settle = (answer: boolean) => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      redis.off('error', onFailure);
      resolve(answer);
    };
    const onReady = () => settle(true);
    const onFailure = () => settle(false);
    const timer = setTimeout(onFailure, CONNECT_TIMEOUT_MS + 500);
    redis.once('ready', onReady);
    redis.once('error', onFailure);
  });
  if (!ready) {
    log.error(
      'Redis at REDIS_URL does not answer: rate limits are off until it does (the client keeps trying).',
    );
    redis.once('ready', () => log.info('Redis at REDIS_URL answers: rate limits are on again.'));
  }
  return redis;
}

/** Closes the connection: politely when it is up, at once when it is not. */
export async function closeRateLimitRedis(redis: Redis): Promise<void> {
  if (redis.status === 'ready') {
    await redis.quit().catch(() => redis.disconnect());
  } else {
    redis.disconnect();
  }
}
