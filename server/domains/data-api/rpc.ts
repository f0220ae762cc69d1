/**
 * `POST /api/rpc/{name}`: an allowlist of named functions, each with TypeBox-typed arguments
 * checked before it runs. A name missing here is a 404, whatever else exists in the database.
 */
import type { TSchema } from 'typebox';
import type { Db } from '../../core/db.ts';
import { AppError, forbidden, notFound, unauthorized } from '../../core/errors.ts';
import type { UserRow } from '../../db/schema.ts';
import {
  IncrementPostViewsArgs,
  UserCreditSummaryArgs,
  type PostViews,
  type UserCreditSummary,
} from '../../contracts/data-api.ts';
import { BLOG_MESSAGES } from '../../../shared/blog.ts';
import type { BlogService } from '../blog/service.ts';
import { checkInput } from './input.ts';
import * as repo from './repository.ts';

export interface RpcCaller {
  user: UserRow | null;
  isAdmin: boolean;
}

interface RpcFunction {
  args: TSchema;
  /** Shown when the arguments do not fit, instead of a schema's wording. */
  usage?: string;
  call(caller: RpcCaller, args: never): Promise<UserCreditSummary | PostViews>;
}

export function createRpcFunctions(deps: { db: Db; blog: BlogService }) {
  const { db, blog } = deps;

  const functions: Record<string, RpcFunction> = {
    /** Own balance and ledger totals; an administrator may ask about any user. */
    user_credit_summary: {
      args: UserCreditSummaryArgs,
      async call(caller: RpcCaller, args: UserCreditSummaryArgs): Promise<UserCreditSummary> {
        if (!caller.user) throw unauthorized('Please sign in to see your credit summary.');
        const userId = args.user_id?.toLowerCase() ?? caller.user.id;
        if (userId !== caller.user.id && !caller.isAdmin) {
          throw forbidden('You can only see your own credit summary.', 'NOT_YOUR_LEDGER');
        }
        const totals = await repo.creditTotals(db, userId);
        if (!totals && !args.user_id) {
          // The operator's own row behind an admin session is not a customer and holds no credits.
          throw notFound(
            "An administrator session has no credits of its own; pass user_id to see a customer's.",
            'USER_NOT_FOUND',
          );
        }
        if (!totals) throw notFound('That user does not exist.', 'USER_NOT_FOUND');
        return {
          user_id: userId,
          balance: totals.balance,
          total_granted: totals.totalGranted,
          total_spent: totals.totalSpent,
          refunds: totals.refunds,
          transaction_count: totals.transactionCount,
          last_transaction_at: totals.lastTransactionAt,
        };
      },
    },

    /** One more reading of a published post, through the blog's own view counter. */
    increment_post_views: {
      args: IncrementPostViewsArgs,
      usage:
        'increment_post_views takes {"slug": "..."} or {"post_id": "<uuid>"} of a published post.',
      async call(_caller: RpcCaller, args: IncrementPostViewsArgs): Promise<PostViews> {
        if ('slug' in args) return { view_count: await blog.recordView(args.slug) };
        // A draft's id answers exactly like a missing one: drafts stay unseen.
        const post = await blog.adminGet(args.post_id).catch((err: unknown) => {
          if (err instanceof AppError && err.statusCode === 404) return null;
          throw err;
        });
        if (!post || post.status !== 'published') {
          throw notFound(BLOG_MESSAGES.notFound, 'POST_NOT_FOUND');
        }
        return { view_count: await blog.recordView(post.slug) };
      },
    },
  };

  const byName = new Map(Object.entries(functions));

  return {
    names: () => [...byName.keys()],

    /** Runs an allowlisted function with checked arguments. */
    async run(caller: RpcCaller, name: string, args: unknown) {
      const fn = byName.get(name);
      if (!fn) {
        throw notFound(
          `There is no function '${name.slice(0, 60)}' in the data API. Functions: ${[...byName.keys()].join(', ')}.`,
          'UNKNOWN_FUNCTION',
        );
      }
      const input = args ?? {};
      if (fn.usage) {
        try {
          checkInput(fn.args, input, `the arguments of ${name}`);
        } catch {
          throw new AppError(400, 'VALIDATION_ERROR', fn.usage);
        }
      } else {
        checkInput(fn.args, input, `the arguments of ${name}`);
      }
      return fn.call(caller, input as never);
    },
  };
}

export type RpcFunctions = ReturnType<typeof createRpcFunctions>;
