// PLACEHOLDER (helper V1 replaces this file).
import type { FastifyInstance } from 'fastify';
import type { CreditsService } from '../credits/service.ts';
import type { VideoService } from '../video/service.ts';
export async function v1AccountRoutes(
  scope: FastifyInstance,
  opts: { video: VideoService; credits: CreditsService },
) {
  void scope;
  void opts;
}
