/**
 * The generic data API's rules: find the table's policy, decide what the caller's role may do,
 * check columns, where and values, then read or write only the rows the policy allows. Posts
 * are written through the blog service, so the data API keeps the blog's invariants (sanitized
 * content, unique and stable slugs, published_at, cache invalidation, rebuild on publish).
 */
import type { Db } from '../../core/db.ts';
import {
  assertShallowOffset,
  boundedTotal,
  decodeCursor,
  encodeCursor,
  totalCountLimit,
} from '../../core/cursor.ts';
import { badRequest, forbidden, notFound, unauthorized } from '../../core/errors.ts';
import type { UserRow } from '../../db/schema.ts';
import type { PostInput } from '../../contracts/blog.ts';
import type { DataRow, DataSelectQuery } from '../../contracts/data-api.ts';
import { DATA_API_MAX_WRITE_ROWS } from '../../../shared/data-api.ts';
import type { BlogService } from '../blog/service.ts';
import { checkInput } from './input.ts';
import {
  accessFor,
  columnSpec,
  exposedTables,
  policyFor,
  signedInRoleMayDo,
  type Caller,
  type Operation,
  type RowScope,
  type TablePolicy,
} from './policies.ts';
import {
  checkWriteColumns,
  parseColumns,
  parseOrderBy,
  parseWhere,
  type Condition,
} from './query.ts';
import * as repo from './repository.ts';
import { createRpcFunctions } from './rpc.ts';
import { type ApiText, msg } from '../../core/api-messages.ts';

/** Who is asking: the session's user (if any) and whether it is an administrator session. */
export interface DataApiCaller {
  user: UserRow | null;
  isAdmin: boolean;
}

const VERBS: Record<Operation, ApiText> = {
  select: msg('data.verb.select'),
  insert: msg('data.verb.insert'),
  update: msg('data.verb.update'),
  delete: msg('data.verb.delete'),
};

const asPolicyCaller = (caller: DataApiCaller): Caller => ({
  userId: caller.user?.id ?? null,
  isEditor: caller.user?.canManageBlog ?? false,
  isAdmin: caller.isAdmin,
});

function tablePolicy(table: string): TablePolicy {
  const policy = policyFor(table);
  if (!policy) {
    throw notFound(
      msg('data.unknown_table', { table: table.slice(0, 60), tables: exposedTables().join(', ') }),
      'UNKNOWN_TABLE',
    );
  }
  return policy;
}

/** The caller's access for an operation, or 401 (signing in would help) / 403 (it would not). */
function allow<O extends Operation>(policy: TablePolicy, operation: O, caller: DataApiCaller) {
  const access = accessFor(policy, operation, asPolicyCaller(caller));
  if (access) return access;
  if (!caller.user && signedInRoleMayDo(policy, operation)) {
    throw unauthorized(
      msg('data.sign_in_to', { verb: VERBS[operation], table: policy.label }),
      'SIGN_IN_REQUIRED',
    );
  }
  const hint = operation === 'select' ? undefined : policy.writeHint;
  const verb = VERBS[operation];
  throw forbidden(
    hint
      ? msg('data.not_allowed_hint', { verb, table: policy.label, hint })
      : msg('data.not_allowed', { verb, table: policy.label }),
    'NOT_ALLOWED',
  );
}

/** Columns the caller may read (and so filter on) in this table. */
const readable = (policy: TablePolicy, caller: DataApiCaller): readonly string[] =>
  accessFor(policy, 'select', asPolicyCaller(caller))?.columns ?? [];

/** PUT and DELETE never touch every row at once: they need a where with at least one column. */
function requiredWhere(
  raw: unknown,
  policy: TablePolicy,
  columns: readonly string[],
  method: string,
) {
  const conditions = parseWhere(raw, policy, columns);
  if (conditions.length === 0) {
    throw badRequest(msg('data.where_required', { method }), 'WHERE_REQUIRED');
  }
  return conditions;
}

/** The rows an operation may touch: the caller's row scope and their checked where. */
function scopeOf(
  table: string,
  policy: TablePolicy,
  rows: RowScope,
  caller: DataApiCaller,
  conditions: Condition[],
): repo.Scope {
  return { table, policy, rows, userId: caller.user?.id ?? null, conditions };
}

function postInputFrom(current: Awaited<ReturnType<BlogService['adminGet']>>): PostInput {
  return {
    title: current.title,
    content: current.content,
    excerpt: current.excerpt,
    featured_image: current.featured_image,
    status: current.status,
    meta_title: current.meta_title,
    meta_description: current.meta_description,
    tags: current.tags,
  };
}

/**
 * Where a select starts: after the `cursor` (only in the default order, and not with an offset),
 * or at a shallow offset; a deep one is refused with the way forward.
 */
function pageStart(policy: TablePolicy, query: DataSelectQuery, keyed: boolean) {
  const byTime = msg('data.cursor_order', { order: policy.defaultOrder });
  if (query.cursor === undefined) {
    assertShallowOffset(query.offset, keyed ? undefined : byTime);
    return undefined;
  }
  if (!keyed) throw badRequest(byTime, 'CURSOR_ORDER');
  if (query.offset > 0) {
    throw badRequest(msg('data.cursor_with_offset'), 'CURSOR_WITH_OFFSET');
  }
  return decodeCursor(query.cursor);
}

/** `count` of an offset page: exact up to the rows offsets reach, else that bound. */
function countOf(counted: number, limit: number) {
  const { total, total_exact } = boundedTotal(counted, limit);
  return { count: total, count_exact: total_exact };
}

export function createDataApiService(deps: { db: Db; blog: BlogService }) {
  const { db, blog } = deps;
  const rpc = createRpcFunctions(deps);

  /** Ids of the posts a blog write would touch; more than the cap is refused before any change. */
  async function postIdsToWrite(scope: repo.Scope): Promise<string[]> {
    const ids = await repo.matchingIds(db, scope, DATA_API_MAX_WRITE_ROWS + 1);
    if (ids.length > DATA_API_MAX_WRITE_ROWS) {
      throw badRequest(
        msg('data.too_many_rows', { max: DATA_API_MAX_WRITE_ROWS, table: scope.policy.label }),
        'TOO_MANY_ROWS',
      );
    }
    return ids;
  }

  return {
    /**
     * GET /api/db/{table}: a page of rows the caller may see, `has_more`, and where the next page
     * starts. An offset page also counts the matches (up to the rows offsets reach; see
     * boundedTotal); a cursor page, in the default time order only, starts after the last row.
     */
    async select(caller: DataApiCaller, table: string, query: DataSelectQuery) {
      const policy = tablePolicy(table);
      const access = allow(policy, 'select', caller);
      const columns = parseColumns(query.columns, access.columns);
      const conditions = parseWhere(query.where, policy, access.columns);
      const orderBy = parseOrderBy(query.orderBy, policy, access.columns);
      // Without orderBy the default is newest first; with it, ascending unless asked otherwise.
      const ascending = query.ascending ?? !!query.orderBy;
      // Cursors follow the default order only: a timestamp set on insert (never null) plus id.
      const keyed =
        orderBy === policy.defaultOrder && columnSpec(policy, orderBy).type === 'timestamp';
      const after = pageStart(policy, query, keyed);
      const scope = scopeOf(table, policy, access.rows, caller, conditions);
      const { limit, offset } = query;
      const [found, counted] = await Promise.all([
        repo.selectRows(db, scope, {
          ...{ columns, orderBy, ascending, offset, after },
          limit: limit + 1,
          withKeys: keyed,
        }),
        after ? null : repo.countRows(db, scope, totalCountLimit(limit)),
      ]);
      const has_more = found.rows.length > limit;
      const last = has_more && keyed ? found.keys[limit - 1] : undefined;
      return {
        rows: found.rows.slice(0, limit),
        ...(counted === null ? {} : countOf(counted, limit)),
        ...(keyed ? { next_cursor: last ? encodeCursor(last) : null } : {}),
        has_more,
      };
    },

    /** POST /api/db/{table}: the body is the new row. Only posts accept new rows today. */
    async insert(caller: DataApiCaller, table: string, row: Record<string, unknown>) {
      const policy = tablePolicy(table);
      const access = allow(policy, 'insert', caller);
      const columns = readable(policy, caller);
      checkWriteColumns(row, access.columns, columns, policy);
      if (policy.input?.insert) checkInput(policy.input.insert, row, msg('data.input.new_row'));
      if (policy.writer !== 'blog' || !caller.user) {
        // No policy grants a generic insert; reaching here means a policy was changed alone.
        throw new Error(`no insert writer for ${table}`);
      }
      const created = await blog.create(caller.user, row as PostInput);
      return repo.selectByIds(db, { table, policy }, [created.id], columns);
    },

    /** PUT /api/db/{table} { data, where }: changes the matching rows the caller may change. */
    async update(
      caller: DataApiCaller,
      table: string,
      body: { data: Record<string, unknown>; where: unknown },
    ): Promise<DataRow[]> {
      const policy = tablePolicy(table);
      const access = allow(policy, 'update', caller);
      const columns = readable(policy, caller);
      checkWriteColumns(body.data, access.columns, columns, policy);
      if (policy.input?.update) checkInput(policy.input.update, body.data, msg('data.input.data'));
      const conditions = requiredWhere(body.where, policy, columns, 'PUT');
      const scope = scopeOf(table, policy, access.rows, caller, conditions);
      if (policy.writer === 'sql') return repo.updateRows(db, scope, body.data, columns);

      const ids = await postIdsToWrite(scope);
      for (const id of ids) {
        const current = await blog.adminGet(id);
        await blog.update(id, { ...postInputFrom(current), ...(body.data as Partial<PostInput>) });
      }
      return repo.selectByIds(db, scope, ids, columns);
    },

    /** DELETE /api/db/{table} { where }: deletes the matching rows and returns them. */
    async remove(caller: DataApiCaller, table: string, body: { where: unknown }) {
      const policy = tablePolicy(table);
      const access = allow(policy, 'delete', caller);
      const columns = readable(policy, caller);
      const conditions = requiredWhere(body.where, policy, columns, 'DELETE');
      const scope = scopeOf(table, policy, access.rows, caller, conditions);
      if (policy.writer !== 'blog') {
        // No policy grants a generic delete; reaching here means a policy was changed alone.
        throw new Error(`no delete writer for ${table}`);
      }
      const ids = await postIdsToWrite(scope);
      const rows = await repo.selectByIds(db, scope, ids, columns);
      for (const id of ids) await blog.remove(id);
      return rows;
    },

    /** POST /api/rpc/{name}. */
    rpc: (caller: DataApiCaller, name: string, args: unknown) => rpc.run(caller, name, args),
  };
}

export type DataApiService = ReturnType<typeof createDataApiService>;
