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
import type { BlogService } from '../blog/service.ts';
import { checkInput } from './input.ts';
import * as repo from './repository.ts';
import { type ApiText, msg } from '../../core/api-messages.ts';

export interface RpcCaller {
  user: UserRow | null;
  isAdmin: boolean;
}

interface RpcFunction {
  args: TSchema;
  /** Shown when the arguments do not fit, instead of a schema's wording. */
  usage?: ApiText;
  call(caller: RpcCaller, args: never): Promise<UserCreditSummary | PostViews>;
}

export function createRpcFunctions(deps: { db: Db; blog: BlogService }) {
  const { db, blog } = deps;

  const functions: Record<string, RpcFunction> = {
    /** Own balance and ledger totals; an administrator may ask about any user. */
    user_credit_summary: {
      args: UserCreditSummaryArgs,
      async call(caller: RpcCaller, args: UserCreditSummaryArgs): Promise<UserCreditSummary> {
        if (!caller.user) throw unauthorized(msg('data.rpc.sign_in_required'));
        const userId = args.user_id?.toLowerCase() ?? caller.user.id;
        if (userId !== caller.user.id && !caller.isAdmin) {
          throw forbidden(msg('data.rpc.not_your_summary'), 'NOT_YOUR_LEDGER');
        }
        const totals = await repo.creditTotals(db, userId);
        if (!totals && !args.user_id) {
          // The operator's own row behind an admin session is not a customer and holds no credits.
          throw notFound(msg('data.rpc.admin_has_no_credits'), 'USER_NOT_FOUND');
        }
        if (!totals) throw notFound(msg('credits.user_not_found'), 'USER_NOT_FOUND');
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
      usage: msg('data.rpc.increment_post_views_usage'),
      async call(_caller: RpcCaller, args: IncrementPostViewsArgs): Promise<PostViews> {
        if ('slug' in args) return { view_count: await blog.recordView(args.slug) };
        // A draft's id answers exactly like a missing one: drafts stay unseen.
        const post = await blog.adminGet(args.post_id).catch((err: unknown) => {
          if (err instanceof AppError && err.statusCode === 404) return null;
          throw err;
        });
        if (!post || post.status !== 'published') {
          throw notFound(msg('blog.not_found'), 'POST_NOT_FOUND');
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
          msg('data.rpc.unknown_function', {
            name: name.slice(0, 60),
            functions: [...byName.keys()].join(', '),
          }),
          'UNKNOWN_FUNCTION',
        );
      }
      const input = args ?? {};
      if (fn.usage) {
        try {
          checkInput(fn.args, input, msg('data.input.arguments', { name }));
        } catch {
          throw new AppError(400, 'VALIDATION_ERROR', fn.usage);
        }
      } else {
        checkInput(fn.args, input, msg('data.input.arguments', { name }));
      }
      return fn.call(caller, input as never);
    },
  };
}
