/**
 * The public API's schemas (/v1, issue 36): bodies, queries and answers, built from the values in
 * shared/public-api.ts and shared/video-options.ts. Every body is closed (`additionalProperties:
 * false`): a misspelt option is a 400 naming it, never a default video that is then charged. These
 * schemas are also the /v1 reference at /api/docs (OpenAPI 3.1), so they carry descriptions and
 * examples.
 */
import { Type, type Static } from 'typebox';
import {
  IDEMPOTENCY_KEY_MAX,
  IDEMPOTENCY_TTL_HOURS,
  MAX_METADATA_KEY,
  MAX_METADATA_PAIRS,
  MAX_METADATA_VALUE,
  type ApiVideo as ApiVideoType,
} from '../../shared/public-api.ts';
import { MAX_IMAGE_BYTES, MAX_PROMPT_LENGTH, TASK_STATUSES } from '../../shared/video.ts';
import {
  ASPECT_RATIOS,
  MAX_NEGATIVE_PROMPT_LENGTH,
  MAX_REFERENCE_IMAGES,
  MAX_SEED,
  RESOLUTIONS,
  TIERS,
} from '../../shared/video-options.ts';
import { MEGABYTE } from '../../shared/images.ts';
import { LiteralUnion, Nullable, schemaFor } from './common.ts';
import { VideoOptionsData } from './video.ts';

/** Every /v1 error: a stable code, a sentence, and the field it is about when there is one. */
export const ApiErrorResponse = Type.Object(
  {
    error: Type.Object({
      code: Type.String({ examples: ['INSUFFICIENT_CREDITS'] }),
      message: Type.String(),
      param: Type.Optional(Type.String({ description: 'The request field the error is about.' })),
    }),
  },
  { description: 'An error (see docs/api.md for every code)' },
);

/** The error answers every /v1 route may give besides its own (key, scope, rate limit). */
export const commonErrors = {
  400: ApiErrorResponse,
  401: ApiErrorResponse,
  403: ApiErrorResponse,
  429: ApiErrorResponse,
};

const MODES = ['text', 'image'] as const;
const IMAGE_MB = MAX_IMAGE_BYTES / MEGABYTE;

/** `metadata`: the caller's own string pairs, returned as given on the video and its events. */
const Metadata = Type.Record(Type.String(), Type.String({ maxLength: MAX_METADATA_VALUE }), {
  maxProperties: MAX_METADATA_PAIRS,
  propertyNames: { minLength: 1, maxLength: MAX_METADATA_KEY },
  description: `Up to ${MAX_METADATA_PAIRS} string pairs (keys ≤ ${MAX_METADATA_KEY} characters, values ≤ ${MAX_METADATA_VALUE}), returned as given.`,
  examples: [{ order: '1234' }],
});

export const ApiVideo = schemaFor<ApiVideoType>()(
  Type.Object(
    {
      id: Type.String({ format: 'uuid' }),
      object: Type.Literal('video'),
      status: LiteralUnion(TASK_STATUSES),
      mode: LiteralUnion(MODES),
      model: Type.String(),
      prompt: Nullable(Type.String()),
      options: VideoOptionsData,
      duration_seconds: Type.Integer(),
      credits_charged: Type.Integer(),
      extends_video_id: Nullable(Type.String()),
      progress: Type.Integer({ minimum: 0, maximum: 100 }),
      result_url: Nullable(Type.String({ description: 'An MP4 on our origin, once completed.' })),
      poster_url: Nullable(Type.String()),
      error: Nullable(Type.Object({ code: Type.String(), message: Type.String() })),
      metadata: Type.Record(Type.String(), Type.String()),
      created_at: Type.String(),
      completed_at: Nullable(Type.String()),
      deleted: Type.Boolean(),
    },
    { description: 'A video' },
  ),
);

/** The option fields of a body, with the values the site's form allows. */
const optionFields = {
  aspect_ratio: Type.Optional(LiteralUnion(ASPECT_RATIOS)),
  resolution: Type.Optional(LiteralUnion(RESOLUTIONS)),
  tier: Type.Optional(LiteralUnion(TIERS)),
  negative_prompt: Type.Optional(Type.String({ maxLength: MAX_NEGATIVE_PROMPT_LENGTH })),
  seed: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_SEED })),
};

/** What a body adds besides the video: where its events go, and the caller's metadata. */
const callerFields = {
  webhook_url: Type.Optional(
    Type.String({
      maxLength: 2000,
      description:
        "This video's events also go here, signed with your request secret (create it on /account/api). https in production; public addresses only.",
    }),
  ),
  metadata: Type.Optional(Metadata),
};

/** Base64 of the largest image, with room for a `data:image/…;base64,` prefix. */
const MAX_BASE64_CHARS = Math.ceil(MAX_IMAGE_BYTES / 3) * 4 + 100;

const base64Image = (what: string) =>
  Type.String({
    minLength: 1,
    maxLength: MAX_BASE64_CHARS,
    description: `${what} as base64 (a data: URI prefix is accepted), at most ${IMAGE_MB} MB decoded. Prefer a URL for large images.`,
  });
const imageUrl = (what: string) =>
  Type.String({
    minLength: 1,
    maxLength: 2000,
    description: `${what} at a public http(s) URL (at most ${IMAGE_MB} MB; fetched at once, 20 s, up to 3 redirects).`,
  });

export const CreateVideoBody = Type.Object(
  {
    prompt: Type.String({ minLength: 1, maxLength: MAX_PROMPT_LENGTH }),
    mode: Type.Optional(LiteralUnion(MODES)),
    image_url: Type.Optional(imageUrl('Image mode: the first frame')),
    image_base64: Type.Optional(base64Image('Image mode: the first frame')),
    last_frame_url: Type.Optional(imageUrl('Image mode, optional: the frame the video ends on')),
    last_frame_base64: Type.Optional(
      base64Image('Image mode, optional: the frame the video ends on'),
    ),
    reference_image_urls: Type.Optional(
      Type.Array(imageUrl('Text mode: a reference image'), {
        minItems: 1,
        maxItems: MAX_REFERENCE_IMAGES,
      }),
    ),
    reference_images_base64: Type.Optional(
      Type.Array(base64Image('Text mode: a reference image'), {
        minItems: 1,
        maxItems: MAX_REFERENCE_IMAGES,
      }),
    ),
    ...optionFields,
    ...callerFields,
  },
  {
    additionalProperties: false,
    examples: [{ prompt: 'A red fox running through fresh snow at dawn', aspect_ratio: '16:9' }],
  },
);
export type CreateVideoBody = Static<typeof CreateVideoBody>;

/** An extension keeps its source's shape and resolution, so it takes only these. */
export const ExtendVideoBody = Type.Object(
  {
    prompt: Type.String({ minLength: 1, maxLength: MAX_PROMPT_LENGTH }),
    negative_prompt: optionFields.negative_prompt,
    seed: optionFields.seed,
    tier: optionFields.tier,
    ...callerFields,
  },
  { additionalProperties: false, examples: [{ prompt: 'The fox stops and looks back' }] },
);
export type ExtendVideoBody = Static<typeof ExtendVideoBody>;

export const VideoParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

/** `Idempotency-Key` on every POST. */
export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: IDEMPOTENCY_KEY_MAX,
      description: `Retries with the same key and body get the first answer for ${IDEMPOTENCY_TTL_HOURS} h (header idempotent-replayed: true), never a second charge.`,
    }),
  ),
});

export const ListVideosQuery = Type.Object(
  {
    status: Type.Optional(LiteralUnion(TASK_STATUSES)),
    limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
    cursor: Type.Optional(
      Type.String({ minLength: 1, maxLength: 512, description: 'A page’s next_cursor' }),
    ),
  },
  { additionalProperties: false },
);
export type ListVideosQuery = Static<typeof ListVideosQuery>;

export const VideoList = Type.Object({
  data: Type.Array(ApiVideo),
  has_more: Type.Boolean(),
  next_cursor: Nullable(Type.String()),
});

/** GET /v1/quote: the options of a POST /v1/videos, files as a flag and a count. */
export const QuoteQuery = Type.Object(
  {
    mode: Type.Optional(LiteralUnion(MODES)),
    ...optionFields,
    last_frame: Type.Optional(Type.Boolean({ description: 'An end frame will be given' })),
    reference_images: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_REFERENCE_IMAGES })),
    extend: Type.Optional(Type.Boolean({ description: 'Price an extension of a video' })),
  },
  { additionalProperties: false },
);
export type QuoteQuery = Static<typeof QuoteQuery>;

export const QuoteAnswer = Type.Object({
  credits: Type.Integer({ minimum: 1 }),
  options: VideoOptionsData,
  balance: Type.Integer(),
  affordable: Type.Boolean(),
});

export const CreditsAnswer = Type.Object({
  balance: Type.Integer(),
  transactions: Type.Array(
    Type.Object({
      id: Type.String(),
      amount: Type.Integer(),
      balance_after: Type.Integer(),
      source_type: Type.String(),
      description: Type.String(),
      created_at: Type.String(),
    }),
  ),
});
