/**
 * Multipart uploads: the limits every multipart request is read under, and the reader of the
 * one image file a request carries, with errors a person can act on. The whole form is read,
 * not just up to the first file: a second file, a stray field or a reserved field name is
 * refused instead of silently ignored.
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError, badRequest, knownClientError } from './errors.ts';
import { msg } from './api-messages.ts';

/**
 * One file per request unless the scope allows more (a video's images), 10 MB each, a few small
 * fields.
 *
 * Register it in the scope of the routes that read a form, not the app: @fastify/multipart adds
 * an onRequest hook (a listener on every answer) and an onResponse hook (a clean-up of saved
 * files) to every route of the scope it is registered in, and its parser; elsewhere a multipart
 * body is refused as an unsupported media type (415) before it is read.
 */
export const multipartPlugin = fp(
  async (app: FastifyInstance, opts: { files?: number }) => {
    await app.register(multipart, {
      limits: {
        fileSize: 10 * 1024 * 1024,
        // A video's first frame, end frame or reference images (issue 35) take more than one.
        files: opts.files ?? 1,
        fields: 10,
        parts: 12,
        fieldSize: 16 * 1024,
        headerPairs: 100,
      },
    });
  },
  { name: 'multipart' },
);

export async function readImageUpload(request: FastifyRequest, field = 'image'): Promise<Buffer> {
  if (!request.isMultipart()) {
    throw badRequest(msg('upload.multipart_required', { field }), 'MULTIPART_REQUIRED');
  }
  let image: Buffer | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') {
        throw badRequest(
          msg('upload.unexpected_field', { name: part.fieldname, field }),
          'UNEXPECTED_FIELD',
        );
      }
      if (part.fieldname !== field) {
        throw badRequest(
          msg('upload.unexpected_file', { name: part.fieldname, field }),
          'UNEXPECTED_FILE',
        );
      }
      // A second file never gets here: the multipart `files: 1` limit refuses it first.
      image = await part.toBuffer();
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    // Size and part limits, reserved field names: the same answers as everywhere else.
    const known = knownClientError(error);
    if (known) throw known;
    throw badRequest(msg('upload.unreadable'), 'MULTIPART_INVALID');
  }
  if (!image) {
    throw badRequest(msg('upload.file_required', { field }), 'FILE_REQUIRED');
  }
  return image;
}
