/**
 * /v1's account answers (issue 36): what a video would cost and whether the caller can pay, and
 * the balance with the newest ledger rows. Both come from the services the site uses (the quote
 * is the one price function of shared/video-options.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { currentUser } from '../../core/auth.ts';
import {
  commonErrors,
  CreditsAnswer,
  QuoteAnswer,
  QuoteQuery,
} from '../../contracts/public-api.ts';
import { IMAGE_MODEL, TEXT_MODEL } from '../../../shared/video.ts';
import { OPTION_FIELDS, toOptionsData } from '../../../shared/video-options.ts';
import type { CreditsService } from '../credits/service.ts';
import type { VideoService } from '../video/service.ts';

/** Ledger rows GET /v1/credits answers with. */
const CREDITS_ROWS = 20;
/**
 * A quote prices an extension without looking its source up (the video service's quote): any
 * well-formed id makes it one.
 */
const QUOTED_EXTENSION = '00000000-0000-0000-0000-000000000000';

export async function v1AccountRoutes(
  fastify: FastifyInstance,
  opts: { video: VideoService; credits: CreditsService },
) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { video, credits } = opts;
  const tags = ['v1'];

  app.get(
    '/v1/quote',
    {
      // Any valid key may ask a price: it reads nothing but the caller's balance.
      config: { access: 'api-key' },
      schema: {
        tags,
        summary: 'The price of a video with these options, and whether you can pay it',
        description:
          'The same options as POST /v1/videos; last_frame=true and reference_images=N stand for the images, extend=true prices an extension. 400 when no video service here can make it.',
        querystring: QuoteQuery,
        response: { 200: QuoteAnswer, ...commonErrors },
      },
    },
    async (request) => {
      const query = request.query;
      const fields: Record<string, string> = {};
      const set = (name: string, value: string | number | boolean | undefined) => {
        if (value !== undefined) fields[name] = String(value);
      };
      set(OPTION_FIELDS.aspectRatio, query.aspect_ratio);
      set(OPTION_FIELDS.resolution, query.resolution);
      set(OPTION_FIELDS.tier, query.tier);
      set(OPTION_FIELDS.negativePrompt, query.negative_prompt);
      set(OPTION_FIELDS.seed, query.seed);
      set(OPTION_FIELDS.lastFrame, query.last_frame);
      set(OPTION_FIELDS.referenceImages, query.reference_images);
      if (query.extend) fields[OPTION_FIELDS.extend] = QUOTED_EXTENSION;
      const model = query.mode === 'image' ? IMAGE_MODEL : TEXT_MODEL;
      const quoted = video.quote(model, fields);
      const balance = currentUser(request).credits;
      return {
        credits: quoted.credits,
        options: toOptionsData(quoted.options),
        balance,
        affordable: balance >= quoted.credits,
      };
    },
  );

  app.get(
    '/v1/credits',
    {
      config: { access: 'api-key', scope: 'credits:read' },
      schema: {
        tags,
        summary: `Your balance and the newest ${CREDITS_ROWS} ledger rows`,
        response: { 200: CreditsAnswer, ...commonErrors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const rows = await credits.recentTransactions(user.id, CREDITS_ROWS);
      return {
        balance: user.credits,
        transactions: rows.map((row) => ({
          id: row.id,
          amount: row.amount,
          balance_after: row.balance_after,
          source_type: row.source_type,
          description: row.description,
          created_at: row.created_at,
        })),
      };
    },
  );
}
