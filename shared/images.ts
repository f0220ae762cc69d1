/** Uploaded images as the site and the server describe them (spec 5 uploads, 9 limits). */

/** Bytes in a megabyte, as the size limits and their messages count them. */
export const MEGABYTE = 1024 * 1024;

/** Spec 5: the answer to a file that is not a JPEG, PNG, GIF or WebP image. */
export const IMAGE_TYPE_MESSAGE = 'Please select a valid image file (JPEG, PNG, GIF, WebP)';
