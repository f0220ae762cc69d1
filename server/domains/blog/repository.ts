/** SQL for blog posts and slug redirects. Every function takes `db | tx` first. */
import { and, desc, eq, getTableColumns, inArray, like, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db.ts';
import { postRedirects, posts, type PostRow } from '../../db/schema.ts';

export type NewPost = typeof posts.$inferInsert;

const newestPublished = [desc(posts.publishedAt), desc(posts.createdAt), desc(posts.id)];

/** Every published post, whole (`astro dev` renders each page from them). */
export async function listPublished(db: DbOrTx): Promise<PostRow[]> {
  return db
    .select()
    .from(posts)
    .where(eq(posts.status, 'published'))
    .orderBy(...newestPublished);
}

/**
 * Enough of a post's body for its list excerpt: only posts without an excerpt of their own need
 * it, and 4,000 characters hold far more than the 160 of text any excerpt shows. The public list
 * never loads every post's whole content.
 */
export const EXCERPT_SOURCE_CHARS = 4000;

/** Every published post for the public list: no body beyond its excerpt's source. */
export async function listPublishedSummaries(db: DbOrTx): Promise<PostRow[]> {
  const { content: _content, ...columns } = getTableColumns(posts);
  const rows = await db
    .select({
      ...columns,
      content: sql<string>`case when ${posts.excerpt} = '' then left(${posts.content}, ${EXCERPT_SOURCE_CHARS}) else '' end`,
    })
    .from(posts)
    .where(eq(posts.status, 'published'))
    .orderBy(...newestPublished);
  return rows;
}

/** What links one post to its translations: enough to group them and to name each. */
export interface TranslationRow {
  id: string;
  translationOf: string | null;
  locale: PostRow['locale'];
  slug: string;
  title: string;
}

const translationColumns = {
  id: posts.id,
  translationOf: posts.translationOf,
  locale: posts.locale,
  slug: posts.slug,
  title: posts.title,
};

/**
 * Every published post with a digest of what its static page shows of itself: the site build
 * renders again only the pages whose digest (with their translations' links) changed
 * (site-build/article-pages.ts). The view count is left out: the page's counter reads the live
 * one, so a view never makes a page stale. The hashing runs in the database, so no post body is
 * read for it.
 */
export async function publishedPageDigests(
  db: DbOrTx,
): Promise<(TranslationRow & { digest: string })[]> {
  return db
    .select({
      ...translationColumns,
      digest: sql<string>`md5(row(${posts.id}, ${posts.slug}, ${posts.locale}, ${posts.title},
        ${posts.excerpt}, ${posts.content}, ${posts.featuredImage}, ${posts.authorName},
        ${posts.authorAvatar}, ${posts.publishedAt}, ${posts.createdAt}, ${posts.updatedAt},
        ${posts.tags}, ${posts.metaTitle}, ${posts.metaDescription})::text)`,
    })
    .from(posts)
    .where(eq(posts.status, 'published'));
}

/**
 * The published posts of these translation groups (an original's id names its group): the
 * originals by primary key, their translations through posts_translation_locale_unique.
 */
export async function publishedInGroups(db: DbOrTx, groups: string[]): Promise<TranslationRow[]> {
  if (groups.length === 0) return [];
  return db
    .select(translationColumns)
    .from(posts)
    .where(
      and(
        eq(posts.status, 'published'),
        or(inArray(posts.id, groups), inArray(posts.translationOf, groups)),
      ),
    );
}

/** The translations of an original (every status), with their languages. */
export async function translationsOf(db: DbOrTx, id: string): Promise<TranslationRow[]> {
  return db.select(translationColumns).from(posts).where(eq(posts.translationOf, id));
}

/**
 * Locks these posts' rows until the transaction ends, in id order (two saves that name each
 * other cannot deadlock), and returns them: a translation link is checked against rows no
 * other save can change meanwhile.
 */
export async function lockPosts(tx: DbOrTx, ids: string[]): Promise<TranslationRow[]> {
  if (ids.length === 0) return [];
  return tx
    .select(translationColumns)
    .from(posts)
    .where(inArray(posts.id, ids))
    .orderBy(posts.id)
    .for('update');
}

/** Whether `error` is the unique violation of one translation per language of an original. */
export function isTranslationTaken(error: unknown): boolean {
  return uniqueViolationOf(error) === 'posts_translation_locale_unique';
}

/** The published posts of these slugs (a batch of pages to render), whole. */
export async function listPublishedBySlugs(db: DbOrTx, slugs: string[]): Promise<PostRow[]> {
  if (slugs.length === 0) return [];
  return db
    .select()
    .from(posts)
    .where(and(eq(posts.status, 'published'), inArray(posts.slug, slugs)));
}

export async function findPublishedBySlug(db: DbOrTx, slug: string): Promise<PostRow | null> {
  const [row] = await db
    .select()
    .from(posts)
    .where(and(eq(posts.slug, slug), eq(posts.status, 'published')))
    .limit(1);
  return row ?? null;
}

export async function findById(db: DbOrTx, id: string): Promise<PostRow | null> {
  const [row] = await db.select().from(posts).where(eq(posts.id, id)).limit(1);
  return row ?? null;
}

export async function listAll(db: DbOrTx, limit: number | undefined): Promise<PostRow[]> {
  const query = db.select().from(posts).orderBy(desc(posts.createdAt), desc(posts.id));
  return limit ? query.limit(limit) : query;
}

/** Slugs in use by posts or reserved by redirects that start with `base`. */
export async function slugsLike(db: DbOrTx, base: string): Promise<Set<string>> {
  const pattern = `${base.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const [a, b] = await Promise.all([
    db.select({ slug: posts.slug }).from(posts).where(like(posts.slug, pattern)),
    db
      .select({ slug: postRedirects.slug })
      .from(postRedirects)
      .where(like(postRedirects.slug, pattern)),
  ]);
  return new Set([...a, ...b].map((r) => r.slug));
}

/**
 * Serializes slug choices that start with `stem` until the transaction ends (across processes):
 * two saves of one title would otherwise both pick the same free slug.
 */
export async function lockSlugStem(tx: DbOrTx, stem: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`post-slug:${stem}`}))`);
}

/** The constraint a unique violation (23505) in `error` or its causes names, or null. */
function uniqueViolationOf(error: unknown): unknown {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const { code, constraint, constraint_name } = e as Record<string, unknown>;
    if (code === '23505') return constraint ?? constraint_name;
  }
  return null;
}

/** Whether `error` is the unique violation of posts.slug (another save took the slug first). */
export function isSlugTaken(error: unknown): boolean {
  return uniqueViolationOf(error) === 'posts_slug_unique';
}

export async function insertPost(db: DbOrTx, post: NewPost): Promise<PostRow> {
  const [row] = await db.insert(posts).values(post).returning();
  return row!;
}

export async function updatePost(
  db: DbOrTx,
  id: string,
  changes: Partial<NewPost>,
): Promise<PostRow | null> {
  const [row] = await db
    .update(posts)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(eq(posts.id, id))
    .returning();
  return row ?? null;
}

export async function deletePost(db: DbOrTx, id: string): Promise<PostRow | null> {
  const [row] = await db.delete(posts).where(eq(posts.id, id)).returning();
  return row ?? null;
}

export async function addRedirect(db: DbOrTx, slug: string, postId: string): Promise<void> {
  await db
    .insert(postRedirects)
    .values({ slug, postId })
    .onConflictDoUpdate({ target: postRedirects.slug, set: { postId } });
}

/** Drops redirects that would shadow a slug now in use again. */
export async function removeRedirect(db: DbOrTx, slug: string): Promise<void> {
  await db.delete(postRedirects).where(eq(postRedirects.slug, slug));
}

/** The published post an old slug now names (its current slug and language), or null. */
export async function findRedirect(
  db: DbOrTx,
  slug: string,
): Promise<{ slug: string; locale: PostRow['locale'] } | null> {
  const [row] = await db
    .select({ slug: posts.slug, locale: posts.locale })
    .from(postRedirects)
    .innerJoin(posts, eq(posts.id, postRedirects.postId))
    .where(and(eq(postRedirects.slug, slug), eq(posts.status, 'published')))
    .limit(1);
  return row ?? null;
}

/** Old slug → current slug of a published post. */
export async function publishedRedirects(db: DbOrTx): Promise<Record<string, string>> {
  const rows = await db
    .select({ from: postRedirects.slug, to: posts.slug })
    .from(postRedirects)
    .innerJoin(posts, eq(posts.id, postRedirects.postId))
    .where(eq(posts.status, 'published'));
  return Object.fromEntries(rows.map((r) => [r.from, r.to]));
}

export async function incrementViews(db: DbOrTx, slug: string): Promise<number | null> {
  const [row] = await db
    .update(posts)
    .set({ viewCount: sql`${posts.viewCount} + 1` })
    .where(and(eq(posts.slug, slug), eq(posts.status, 'published')))
    .returning({ viewCount: posts.viewCount });
  return row?.viewCount ?? null;
}

export async function countPosts(db: DbOrTx): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(posts);
  return row?.n ?? 0;
}
