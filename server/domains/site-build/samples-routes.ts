/**
 * `/samples/{id}.mp4` and `/samples/{id}.jpg`: the site's sample clips, answered from the render
 * cache (with range requests, for seeking). A clip still waiting for its render answers a
 * placeholder poster and, for the video, 503 with Retry-After, so a page shows a still frame and
 * a "being prepared" note (site/components/samples/pending-samples.ts) instead of a broken player.
 */
import path from 'node:path';
import send from '@fastify/send';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { localRenderer } from '../video/service.ts';
import type { SampleLibrary } from './samples.ts';
import { sendStoredObject } from '../../core/media-store/serve.ts';
import type { MediaStore } from '../../core/media-store/types.ts';
import { msg } from '../../core/api-messages.ts';

/** Seconds a visitor is asked to wait for a pending clip; a render takes a few. */
const PENDING_RETRY_SECONDS = 30;

let placeholder: Promise<Buffer> | null = null;

/** A plain dark 1280×720 JPEG, made once: the poster of a clip that is not rendered yet. */
function placeholderPoster(): Promise<Buffer> {
  // sharp loads on the first pending poster, not with the app (issue 33: start-up time).
  placeholder ??= import('sharp').then(({ default: sharp }) =>
    sharp({
      // The renderer's frame size, so a placeholder takes the same box as the poster it stands for.
      create: {
        width: localRenderer.WIDTH,
        height: localRenderer.HEIGHT,
        channels: 3,
        background: { r: 16, g: 24, b: 38 },
      },
    })
      .jpeg({ quality: 70 })
      .toBuffer(),
  );
  return placeholder;
}

/** Served by the API whether or not it serves the site: releases carry no clips. */
export async function samplesRoutes(
  app: FastifyInstance,
  opts: { samples: SampleLibrary; store?: MediaStore | undefined },
) {
  app.get(
    '/samples/:file',
    {
      config: { access: 'public' },
      schema: { hide: true, params: Type.Object({ file: Type.String({ maxLength: 200 }) }) },
    },
    async (request, reply) => {
      const { file } = request.params as { file: string };
      const match = /^([a-z0-9]+(?:-[a-z0-9]+)*)\.(mp4|jpg)$/.exec(file);
      const found = match ? await opts.samples.lookup(match[1]!) : null;
      if (!match || !found) return reply.callNotFound();
      const kind = match[2] as 'mp4' | 'jpg';
      if (found.ready && found.storeKeys && opts.store) {
        // Rendered by another instance into the shared store.
        const key = kind === 'mp4' ? found.storeKeys.video : found.storeKeys.poster;
        return sendStoredObject(
          request,
          reply,
          opts.store,
          key,
          'public, max-age=0, must-revalidate',
        );
      }
      if (found.ready) {
        const cached = kind === 'mp4' ? found.clip.video : found.clip.poster;
        // The same URL gets a new render when the renderer changes: revalidate by ETag.
        const result = await send(request.raw, path.basename(cached), {
          root: path.dirname(cached),
          cacheControl: false,
          etag: true,
          lastModified: true,
          acceptRanges: true,
        });
        if (result.type !== 'file') return reply.callNotFound();
        return reply
          .status(result.statusCode)
          .headers({ ...result.headers, 'cache-control': 'public, max-age=0, must-revalidate' })
          .send(result.stream);
      }
      // Pending: nothing here may be cached, or the placeholder would outlive the render.
      reply.header('cache-control', 'no-store');
      if (kind === 'jpg') {
        return reply.type('image/jpeg').send(await placeholderPoster());
      }
      return reply
        .status(503)
        .header('retry-after', String(PENDING_RETRY_SECONDS))
        .send({
          success: false,
          message: msg('samples.preparing'),
          code: 'SAMPLE_NOT_READY',
        });
    },
  );
}
