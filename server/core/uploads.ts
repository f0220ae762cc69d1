/** Reads the one image file of a multipart request, with errors a person can act on. */
import type { FastifyRequest } from 'fastify';
import { AppError, badRequest } from './errors.ts';

export async function readImageUpload(request: FastifyRequest, field = 'image'): Promise<Buffer> {
  if (!request.isMultipart()) {
    throw badRequest(
      `Send the image as multipart/form-data in the field '${field}'.`,
      'MULTIPART_REQUIRED',
    );
  }
  try {
    const file = await request.file();
    if (!file)
      throw badRequest(
        `No file in the field '${field}'. Choose an image to upload.`,
        'FILE_REQUIRED',
      );
    if (file.fieldname !== field) {
      throw badRequest(
        `Unexpected file field '${file.fieldname}'; send the image as '${field}'.`,
        'UNEXPECTED_FILE',
      );
    }
    return await file.toBuffer();
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError(
        413,
        'IMAGE_TOO_LARGE',
        'The image is larger than 10MB. Please choose a smaller image.',
      );
    }
    throw badRequest('The upload could not be read. Please try again.', 'MULTIPART_INVALID');
  }
}
