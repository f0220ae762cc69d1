/**
 * Reads the one image file of a multipart request, with errors a person can act on. The whole
 * form is read, not just up to the first file: a second file, a stray field or a reserved field
 * name is refused instead of silently ignored.
 */
import type { FastifyRequest } from 'fastify';
import { AppError, badRequest, knownClientError } from './errors.ts';

export async function readImageUpload(request: FastifyRequest, field = 'image'): Promise<Buffer> {
  if (!request.isMultipart()) {
    throw badRequest(
      `Send the image as multipart/form-data in the field '${field}'.`,
      'MULTIPART_REQUIRED',
    );
  }
  let image: Buffer | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') {
        throw badRequest(
          `Unexpected field '${part.fieldname}': this upload takes only the image, as '${field}'.`,
          'UNEXPECTED_FIELD',
        );
      }
      if (part.fieldname !== field) {
        throw badRequest(
          `Unexpected file field '${part.fieldname}'; send the image as '${field}'.`,
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
    throw badRequest('The upload could not be read. Please try again.', 'MULTIPART_INVALID');
  }
  if (!image) {
    throw badRequest(
      `No file in the field '${field}'. Choose an image to upload.`,
      'FILE_REQUIRED',
    );
  }
  return image;
}
