/**
 * /v1 requests on /metrics (issue 36, item 7): `api_requests_total{key_class, status}`, where
 * key_class is the key's plan ('default' without one, 'none' when no key was accepted) and status
 * the HTTP status. Both label sets are small: the catalogue's plans and the statuses /v1 answers.
 */
import type { FastifyRequest } from 'fastify';
import { Counter } from 'prom-client';
import type { Metrics } from '../../core/metrics.ts';

export function apiRequestMetrics(metrics: Metrics) {
  const requests = new Counter({
    name: 'api_requests_total',
    help: 'Public API (/v1) requests answered, by key class (the key owner’s plan) and HTTP status',
    labelNames: ['key_class', 'status'] as const,
    registers: [metrics.registry],
  });
  return {
    /** Counts an answered /v1 request under its accepted key's class ('none': no key). */
    count(request: FastifyRequest, status: number) {
      requests.inc({ key_class: request.apiKey?.keyClass ?? 'none', status: String(status) });
    },
  };
}
