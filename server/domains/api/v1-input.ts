/**
 * The images of a /v1 video request (issue 36): given by URL, fetched through the guarded fetcher
 * every provider download uses (public addresses only, each redirect hop checked again, a byte
 * cap, a time limit), or inline as strict base64. Which fields fit which mode is checked here,
 * before anything is fetched; the bytes then go to the video service, which checks and re-encodes
 * them as it does the site's uploads.
 */
import {
  guardedFetch,
  OutboundRefusedError,
  OutboundTooLargeError,
  readCapped,
  type OutboundPolicy,
} from '../../core/outbound.ts';
import { AppError } from '../../core/errors.ts';
import { msg, type ApiText } from '../../core/api-messages.ts';
import type { CreateVideoBody } from '../../contracts/public-api.ts';
import { MEGABYTE } from '../../../shared/images.ts';
import { MAX_IMAGE_BYTES } from '../../../shared/video.ts';

/** The whole fetch of one image URL, redirects and body included. */
const FETCH_TIMEOUT_MS = 20_000;
/** Redirects followed per image URL (as the providers' downloads). */
const MAX_REDIRECTS = 3;
/** The longest base64 text of an image of MAX_IMAGE_BYTES. */
const MAX_BASE64_CHARS = Math.ceil(MAX_IMAGE_BYTES / 3) * 4;
const DATA_URI = /^data:image\/[a-z0-9.+-]+;base64,/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** A /v1 refusal about one field of the request: the error's `param` (v1-frame.ts shows it). */
type ParamError = AppError & { param: string };

export function paramError(status: number, code: string, text: ApiText, param: string) {
  return Object.assign(new AppError(status, code, text), { param }) as ParamError;
}

const tooLarge = (param: string) =>
  paramError(
    413,
    'IMAGE_TOO_LARGE',
    msg('images.too_large', { megabytes: MAX_IMAGE_BYTES / MEGABYTE }),
    param,
  );
const refused = (param: string) =>
  paramError(400, 'IMAGE_URL_REFUSED', msg('v1_videos.image_url_refused', { param }), param);
const unreachable = (param: string, reason: string) =>
  paramError(
    400,
    'IMAGE_URL_UNREACHABLE',
    msg('v1_videos.image_url_unreachable', { param, reason }),
    param,
  );

/** The bytes at an image URL someone gave us, through the guarded fetcher. */
async function fetchImage(url: string, param: string, policy: OutboundPolicy): Promise<Buffer> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw paramError(
      400,
      'IMAGE_URL_INVALID',
      msg('v1_videos.image_url_invalid', { param }),
      param,
    );
  }
  const fetcher = guardedFetch(policy);
  const signal = AbortSignal.timeout(FETCH_TIMEOUT_MS);
  try {
    // Redirects are followed by hand: each hop goes through the guard again.
    for (let hop = 0; ; hop += 1) {
      if (target.protocol !== 'https:' && target.protocol !== 'http:') throw refused(param);
      if (hop > MAX_REDIRECTS) throw unreachable(param, 'too many redirects');
      const res = await fetcher(target, { method: 'GET', redirect: 'manual', signal });
      if (res.status >= 300 && res.status < 400) {
        const location = res.headers.get('location');
        await res.body?.cancel();
        if (!location) throw unreachable(param, `HTTP ${res.status} without a Location`);
        target = new URL(location, target);
        continue;
      }
      if (!res.ok) {
        await res.body?.cancel();
        throw unreachable(param, `HTTP ${res.status}`);
      }
      const bytes = await readCapped(res, MAX_IMAGE_BYTES);
      if (bytes.length === 0) throw unreachable(param, 'an empty answer');
      return bytes;
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof OutboundRefusedError) throw refused(param);
    if (error instanceof OutboundTooLargeError) throw tooLarge(param);
    throw unreachable(param, signal.aborted ? 'no answer in 20 s' : 'the connection failed');
  }
}

/** An image sent inline: base64 (standard alphabet, padded), a data: URI prefix allowed. */
function decodeBase64Image(text: string, param: string): Buffer {
  const data = text.replace(DATA_URI, '');
  if (data.length > MAX_BASE64_CHARS) throw tooLarge(param);
  if (data.length === 0 || data.length % 4 !== 0 || !BASE64.test(data)) {
    throw paramError(
      400,
      'IMAGE_BASE64_INVALID',
      msg('v1_videos.base64_invalid', { param }),
      param,
    );
  }
  return Buffer.from(data, 'base64');
}

type ImageFields = Pick<
  CreateVideoBody,
  | 'image_url'
  | 'image_base64'
  | 'last_frame_url'
  | 'last_frame_base64'
  | 'reference_image_urls'
  | 'reference_images_base64'
>;

/** Each image input: its URL field and its base64 field, and the mode it belongs to. */
const INPUTS = [
  { url: 'image_url', base64: 'image_base64', mode: 'image' },
  { url: 'last_frame_url', base64: 'last_frame_base64', mode: 'image' },
  { url: 'reference_image_urls', base64: 'reference_images_base64', mode: 'text' },
] as const;

/**
 * Refuses image fields that do not fit the mode, or an input given both ways, before anything is
 * priced or fetched. Returns what the price depends on: an end frame, how many reference images.
 */
export function checkImageFields(body: ImageFields, mode: 'text' | 'image') {
  for (const input of INPUTS) {
    const url = body[input.url];
    const base64 = body[input.base64];
    if (url !== undefined && base64 !== undefined) {
      const text = msg('v1_videos.image_both', { url: input.url, base64: input.base64 });
      throw paramError(400, 'IMAGE_INPUT_CONFLICT', text, input.base64);
    }
    const given = url !== undefined ? input.url : base64 !== undefined ? input.base64 : null;
    if (given && input.mode !== mode) {
      const code = input.mode === 'image' ? 'OPTION_NEEDS_IMAGE_MODE' : 'OPTION_NEEDS_TEXT_MODE';
      const text = msg('v1_videos.field_needs_mode', { param: given, mode: input.mode });
      throw paramError(400, code, text, given);
    }
  }
  if (mode === 'image' && body.image_url === undefined && body.image_base64 === undefined) {
    throw paramError(400, 'IMAGE_REQUIRED', msg('v1_videos.image_required'), 'image_url');
  }
  return {
    lastFrame: body.last_frame_url !== undefined || body.last_frame_base64 !== undefined,
    referenceImages: (body.reference_image_urls ?? body.reference_images_base64 ?? []).length,
  };
}

/** Reads one image input: its URL fetched or its base64 decoded (undefined when not given). */
function readOne(
  url: string | undefined,
  base64: string | undefined,
  param: string[],
  policy: OutboundPolicy,
) {
  if (url !== undefined) return fetchImage(url, param[0]!, policy);
  if (base64 !== undefined) return Promise.resolve(decodeBase64Image(base64, param[1]!));
  return Promise.resolve(undefined);
}

/** The images of a request (checked by checkImageFields), fetched at once. */
export async function readImages(body: ImageFields, policy: OutboundPolicy) {
  const urls = body.reference_image_urls;
  const inline = body.reference_images_base64;
  const [image, lastFrame, ...referenceImages] = await Promise.all([
    readOne(body.image_url, body.image_base64, ['image_url', 'image_base64'], policy),
    readOne(
      body.last_frame_url,
      body.last_frame_base64,
      ['last_frame_url', 'last_frame_base64'],
      policy,
    ),
    ...(urls ?? []).map((u, i) => fetchImage(u, `reference_image_urls[${i}]`, policy)),
    ...(inline ?? []).map(async (b, i) => decodeBase64Image(b, `reference_images_base64[${i}]`)),
  ]);
  return { image, lastFrame, referenceImages: referenceImages as Buffer[] };
}
