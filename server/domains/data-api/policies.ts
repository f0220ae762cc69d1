/**
 * What the generic data API exposes: one declarative policy per table saying which roles may
 * select, insert, update or delete, which columns each role reads or sets, and which rows
 * (own, published, all). A table, column or operation missing here does not exist for the API:
 * identifiers in SQL come only from these lists.
 */
import { Type, type TSchema } from 'typebox';
import { PostInput } from '../../contracts/blog.ts';
import { NAME_MAX_LENGTH } from '../../../shared/auth.ts';
import { POST_STATUSES } from '../../../shared/blog.ts';
import { LOCALES } from '../../../shared/locales.ts';
import { TASK_STATUSES } from '../../../shared/video.ts';
import { msg, type ApiText } from '../../core/api-messages.ts';

/**
 * Roles nest: every caller is anonymous, a signed-in caller is also a user, an editor is a user
 * with can_manage_blog, an admin holds an administrator session. The most privileged role the
 * caller holds that an operation names decides what they get.
 */
type Role = 'anonymous' | 'user' | 'editor' | 'admin';
const ROLES_STRONGEST_FIRST: readonly Role[] = ['admin', 'editor', 'user', 'anonymous'];

export type ColumnType = 'uuid' | 'int' | 'text' | 'timestamp' | 'boolean' | 'text[]';

export interface ColumnSpec {
  type: ColumnType;
  /** Text columns limited to a fixed set of values (the status columns). */
  values?: readonly string[];
}

/** own: rows of the signed-in user; published: status = published; all: every row. */
export type RowScope = 'all' | 'own' | 'published';

interface ReadAccess {
  rows: RowScope;
  columns: readonly string[];
}
interface InsertAccess {
  columns: readonly string[];
}
interface UpdateAccess {
  rows: RowScope;
  columns: readonly string[];
}
interface DeleteAccess {
  rows: RowScope;
}

/**
 * Per operation: the roles that may do it and how much; null when nobody may. A role set to
 * null is refused outright, without falling back to a weaker role it also holds.
 */
type Grants<A> = Partial<Record<Role, A | null>> | null;

export interface TablePolicy {
  /** How a person names the table in messages. */
  label: ApiText;
  /** Every column any role may see, by its public (snake_case) name, which is also its SQL name. */
  columns: Record<string, ColumnSpec>;
  /** The column holding the owner's user id (for `own` rows). */
  owner?: string;
  /** Rows no role ever reaches through this API: column → the value that hides the row. */
  hiddenRows?: Record<string, string>;
  /** Newest first unless the caller asks otherwise; `id` breaks ties so paging is stable. */
  defaultOrder: string;
  select: Grants<ReadAccess>;
  insert: Grants<InsertAccess>;
  update: Grants<UpdateAccess>;
  delete: Grants<DeleteAccess>;
  /**
   * Who applies writes: 'blog' goes through the blog service (sanitizer, slugs, publishing);
   * 'sql' is a plain parameterized UPDATE (the only generic write a policy grants today).
   */
  writer: 'sql' | 'blog';
  /** A column set to now() by every generic update. */
  touches?: string;
  /** Schemas the written values must pass, checked before anything is written. */
  input?: { insert?: TSchema; update?: TSchema };
  /** Appended to a refused write, to say where that change is made instead. */
  writeHint?: ApiText;
}

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

const VIDEO_TASK_COLUMNS = [
  'id',
  'user_id',
  'status',
  'status_message',
  'progress',
  'model',
  'mode',
  'prompt',
  'result_url',
  'poster_url',
  'error_message',
  'created_at',
  'updated_at',
  'completed_at',
] as const;

const LEDGER_COLUMNS = [
  'id',
  'user_id',
  'amount',
  'balance_after',
  'source_type',
  'source_id',
  'description',
  'created_at',
] as const;

/** The article as readers see it (spec 3 "Blog article"), plus its status. */
const PUBLIC_POST_COLUMNS = [
  'id',
  'slug',
  'locale',
  'translation_of',
  'title',
  'excerpt',
  'content',
  'featured_image',
  'status',
  'author_name',
  'author_avatar',
  'published_at',
  'created_at',
  'updated_at',
  'view_count',
  'tags',
  'meta_title',
  'meta_description',
] as const;

/** What an editor sets: the blog admin's fields (spec 7 "POST /api/blog/admin/posts"). */
const POST_INPUT_COLUMNS = Object.keys(PostInput.properties);

/** The safe subset of a user: never the password hash, Google subject or provider details. */
const USER_COLUMNS = [
  'id',
  'email',
  'name',
  'avatar_url',
  'credits',
  'can_manage_blog',
  'created_at',
] as const;

export const policies = {
  video_tasks: {
    label: msg('data.table.video_tasks'),
    owner: 'user_id',
    defaultOrder: 'created_at',
    columns: {
      id: { type: 'uuid' },
      user_id: { type: 'uuid' },
      status: { type: 'text', values: TASK_STATUSES },
      status_message: { type: 'text' },
      progress: { type: 'int' },
      model: { type: 'text' },
      mode: { type: 'text', values: ['text', 'image'] },
      prompt: { type: 'text' },
      result_url: { type: 'text' },
      poster_url: { type: 'text' },
      error_message: { type: 'text' },
      provider: { type: 'text' },
      attempts: { type: 'int' },
      deadline_at: { type: 'timestamp' },
      lease_expires_at: { type: 'timestamp' },
      created_at: { type: 'timestamp' },
      updated_at: { type: 'timestamp' },
      completed_at: { type: 'timestamp' },
    },
    select: {
      user: { rows: 'own', columns: VIDEO_TASK_COLUMNS },
      // Operators also see which provider ran a task and how its queue lease stands.
      admin: {
        rows: 'all',
        columns: [...VIDEO_TASK_COLUMNS, 'provider', 'attempts', 'deadline_at', 'lease_expires_at'],
      },
    },
    insert: null,
    update: null,
    delete: null,
    writer: 'sql',
    writeHint: msg('data.hint.video_tasks'),
  },

  credit_transactions: {
    label: msg('data.table.credit_transactions'),
    owner: 'user_id',
    defaultOrder: 'created_at',
    columns: {
      id: { type: 'uuid' },
      user_id: { type: 'uuid' },
      amount: { type: 'int' },
      balance_after: { type: 'int' },
      source_type: { type: 'text' },
      source_id: { type: 'text' },
      description: { type: 'text' },
      created_at: { type: 'timestamp' },
    },
    select: {
      user: { rows: 'own', columns: LEDGER_COLUMNS },
      admin: { rows: 'all', columns: LEDGER_COLUMNS },
    },
    // The ledger is append-only and written only with the balance it changes.
    insert: null,
    update: null,
    delete: null,
    writer: 'sql',
    writeHint: msg('data.hint.credit_transactions'),
  },

  posts: {
    label: msg('data.table.posts'),
    defaultOrder: 'created_at',
    writer: 'blog',
    columns: {
      id: { type: 'uuid' },
      slug: { type: 'text' },
      locale: { type: 'text', values: LOCALES },
      translation_of: { type: 'uuid' },
      title: { type: 'text' },
      excerpt: { type: 'text' },
      content: { type: 'text' },
      featured_image: { type: 'text' },
      status: { type: 'text', values: POST_STATUSES },
      author_name: { type: 'text' },
      author_avatar: { type: 'text' },
      published_at: { type: 'timestamp' },
      created_at: { type: 'timestamp' },
      updated_at: { type: 'timestamp' },
      view_count: { type: 'int' },
      tags: { type: 'text[]' },
      meta_title: { type: 'text' },
      meta_description: { type: 'text' },
    },
    select: {
      anonymous: { rows: 'published', columns: PUBLIC_POST_COLUMNS },
      editor: { rows: 'all', columns: PUBLIC_POST_COLUMNS },
      admin: { rows: 'all', columns: PUBLIC_POST_COLUMNS },
    },
    insert: {
      editor: { columns: POST_INPUT_COLUMNS },
      admin: { columns: POST_INPUT_COLUMNS },
    },
    update: {
      editor: { rows: 'all', columns: POST_INPUT_COLUMNS },
      admin: { rows: 'all', columns: POST_INPUT_COLUMNS },
    },
    delete: {
      editor: { rows: 'all' },
      admin: { rows: 'all' },
    },
    input: { insert: PostInput, update: Type.Partial(PostInput) },
    writeHint: msg('data.hint.posts'),
  },

  users: {
    label: msg('data.table.users'),
    owner: 'id',
    // The rows behind operators' admin sessions (server/domains/admin/identity.ts) are not
    // customers: no list, count or lookup of the data API shows them.
    hiddenRows: { provider: 'admin' },
    writer: 'sql',
    touches: 'updated_at',
    defaultOrder: 'created_at',
    columns: {
      id: { type: 'uuid' },
      email: { type: 'text' },
      name: { type: 'text' },
      avatar_url: { type: 'text' },
      credits: { type: 'int' },
      can_manage_blog: { type: 'boolean' },
      created_at: { type: 'timestamp' },
    },
    select: {
      user: { rows: 'own', columns: USER_COLUMNS },
      admin: { rows: 'all', columns: USER_COLUMNS },
    },
    insert: null,
    // Only the owner's display name and picture; credits move only through the ledger, and
    // blog rights are granted by an operator (the admin API, which records who did it).
    update: {
      user: { rows: 'own', columns: ['name', 'avatar_url'] },
      admin: null,
    },
    delete: null,
    input: {
      update: Type.Object(
        {
          name: Type.Optional(
            Nullable(Type.String({ minLength: 1, maxLength: NAME_MAX_LENGTH, pattern: '\\S' })),
          ),
          avatar_url: Type.Optional(
            Nullable(Type.String({ maxLength: 2000, pattern: '^https?://[^\\s]+$' })),
          ),
        },
        { additionalProperties: false },
      ),
    },
    writeHint: msg('data.hint.users'),
  },
} satisfies Record<string, TablePolicy>;

export type Operation = 'select' | 'insert' | 'update' | 'delete';

const byName = new Map<string, TablePolicy>(Object.entries(policies));

/** The policy of an exposed table, or null (unknown and never-exposed tables look the same). */
export function policyFor(table: string): TablePolicy | null {
  return byName.get(table) ?? null;
}

export const exposedTables = (): string[] => [...byName.keys()];

/** A column's spec; callers only pass names already checked against the policy's lists. */
export function columnSpec(policy: TablePolicy, column: string): ColumnSpec {
  const spec = Object.hasOwn(policy.columns, column) ? policy.columns[column] : undefined;
  if (!spec) throw new Error(`policy has no column ${column}`);
  return spec;
}

/** The caller as the policies see it. */
export interface Caller {
  userId: string | null;
  isEditor: boolean;
  isAdmin: boolean;
}

function callerRoles(caller: Caller): Set<Role> {
  const roles = new Set<Role>(['anonymous']);
  if (caller.userId) roles.add('user');
  if (caller.userId && caller.isEditor) roles.add('editor');
  if (caller.userId && caller.isAdmin) roles.add('admin');
  return roles;
}

type AccessOf<O extends Operation> = O extends 'select'
  ? ReadAccess
  : O extends 'insert'
    ? InsertAccess
    : O extends 'update'
      ? UpdateAccess
      : DeleteAccess;

/** What the caller may do for `operation` on the table, through their strongest granted role. */
export function accessFor<O extends Operation>(
  policy: TablePolicy,
  operation: O,
  caller: Caller,
): AccessOf<O> | null {
  const grants = policy[operation] as Grants<AccessOf<O>>;
  if (!grants) return null;
  const roles = callerRoles(caller);
  for (const role of ROLES_STRONGEST_FIRST) {
    if (!roles.has(role) || grants[role] === undefined) continue;
    return grants[role] ?? null;
  }
  return null;
}

/** Whether some signed-in role could do `operation` (so an anonymous caller should sign in). */
export function signedInRoleMayDo(policy: TablePolicy, operation: Operation): boolean {
  const grants = policy[operation];
  return (
    !!grants && Object.entries(grants).some(([role, access]) => role !== 'anonymous' && !!access)
  );
}
