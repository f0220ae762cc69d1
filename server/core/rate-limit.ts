/**
 * Per-route rate limits: nothing is limited unless a route asks (`config: { rateLimit }`), and a
 * refusal answers in the API's error shape with the wait it needs.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from './errors.ts';

export const rateLimitPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(rateLimit, {
      global: false,
      errorResponseBuilder: (_request, context) =>
        new AppError(
          429,
          'RATE_LIMITED',
          `Too many attempts. Please wait ${context.after} and try again.`,
        ),
    });
  },
  { name: 'rate-limit', dependencies: ['errors'] },
);
