/**
 * The blog: editors' CRUD (sanitized on every save, slugs unique and stable once published),
 * public reads served from an in-process cache of published posts, views, uploads, the
 * published-posts snapshot the static build reads, and the sample articles of local mode.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import site from '../../../content/site.json' with { type: 'json' };
import type { Db, DbOrTx } from '../../core/db.ts';
import { notFound } from '../../core/errors.ts';
import { checkImage, reencodeImage } from '../../core/images.ts';
import { MEDIA_KEYS, type MediaStore } from '../../core/media-store/types.ts';
import type { UserRow } from '../../db/schema.ts';
import type { PostDetail, PostInput, PostsSnapshot, PublicPost } from '../../contracts/blog.ts';
import { BLOG_UPLOADS_PREFIX, MAX_UPLOAD_BYTES } from '../../../shared/blog.ts';
import { cutExcerpt, htmlText, toAdmin, toDetail, toListedDetail, toPublic } from './post-forms.ts';
import * as repo from './repository.ts';
import { withFreeSlug } from './slug-allocation.ts';
import { linked, prepare } from './post-input.ts';
import { readTranslations, translationsByPost } from './translations.ts';
import type { PageDigest } from '../site-build/service.ts';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '../../../shared/locales.ts';
import { fillCopyDeep } from '../../../shared/plan-copy.ts';
import { msg } from '../../core/api-messages.ts';

/**
 * Published-posts cache: public lists never touch the database while it is fresh. It holds the
 * list form of each post (its excerpt cut once per load), never the bodies: an article is read
 * by its slug and kept among the last DETAILS_KEPT read (`details`), so memory does not grow
 * with the blog.
 */
interface PublishedCache {
  generation: number;
  /** Each language's list, newest first. */
  listed: Record<Locale, PublicPost[]>;
  bySlug: Map<string, PublicPost>;
  loadedAt: number;
}

/** Articles kept whole in memory, the most recently read. */
const DETAILS_KEPT = 200;

export { BLOG_UPLOADS_PREFIX, cutExcerpt, htmlText };

/**
 * View counts in cached answers, and posts published by another instance, may lag this long
 * (plus one request: a stale cache answers while it reloads); publishing here refreshes at once.
 */
const CACHE_TTL_MS = 10_000;

export function createBlogService(deps: {
  db: Db;
  /** Editors' images go to `uploads/blog/…` in the media store, public at /uploads/blog/. */
  store: MediaStore;
  /** Called after every change that alters public content (publish, unpublish, edit, delete). */
  onPublicChange: () => void;
}) {
  const { db } = deps;
  let cache: PublishedCache | null = null;
  let generation = 0;
  /** View counts recorded into the cached posts: part of every public ETag. */
  let views = 0;
  let loading: Promise<PublishedCache> | null = null;
  /** The last articles read, by slug, each with the cache generation it was read under. */
  const details = new Map<string, { generation: number; post: PostDetail }>();
  /** Bumped by every public change: a load that started before one must not be kept. */
  let changes = 0;

  function load(): Promise<PublishedCache> {
    const startedAt = changes;
    const job: Promise<PublishedCache> = repo
      .listPublishedSummaries(db)
      .then((rows) => {
        const all = rows.map((row) => toPublic(toListedDetail(row)));
        const listed = Object.fromEntries(
          LOCALES.map((locale) => [locale, all.filter((post) => post.locale === locale)]),
        ) as Record<Locale, PublicPost[]>;
        const fresh: PublishedCache = {
          generation: ++generation,
          listed,
          bySlug: new Map(all.map((post) => [post.slug, post])),
          loadedAt: Date.now(),
        };
        if (changes === startedAt) cache = fresh;
        return fresh;
      })
      .finally(() => {
        if (loading === job) loading = null;
      });
    loading = job;
    return job;
  }

  async function published(): Promise<PublishedCache> {
    if (cache && Date.now() - cache.loadedAt < CACHE_TTL_MS) return cache;
    const reload = loading ?? load();
    if (!cache) return reload;
    // Stale, not invalidated: answer from it while it reloads (a failed reload is retried next time).
    reload.catch(() => {});
    return cache;
  }

  /** Drops the cache and any load already under way, which may predate the change. */
  function invalidate() {
    changes += 1;
    cache = null;
    loading = null;
    details.clear();
  }

  /**
   * A published article, whole: from `details` when read under the current cache generation,
   * else by its slug from the database (one indexed row).
   */
  async function article(slug: string, current: PublishedCache): Promise<PostDetail | null> {
    const kept = details.get(slug);
    if (kept && kept.generation === current.generation) {
      details.delete(slug); // re-inserted: the most recently read go last
      details.set(slug, kept);
      return kept.post;
    }
    const row = await repo.findPublishedBySlug(db, slug);
    if (!row) return null;
    const post = toDetail(row, (await readTranslations(db, [row])).get(row.id));
    if (cache === current) {
      details.set(slug, { generation: current.generation, post });
      if (details.size > DETAILS_KEPT) details.delete(details.keys().next().value!);
    }
    return post;
  }

  function publicChanged() {
    invalidate();
    deps.onPublicChange();
  }

  return {
    /** One language's public list page (12 per page by default), newest published first. */
    async list(page: number, limit: number, locale: Locale = DEFAULT_LOCALE) {
      const { listed: lists, generation: gen } = await published();
      const listed = lists[locale];
      const pages = Math.max(1, Math.ceil(listed.length / limit));
      return {
        etag: `W/"posts-${gen}.${views}-${locale}-${page}-${limit}"`,
        data: {
          posts: listed.slice((page - 1) * limit, page * limit),
          pagination: { page, pages, total: listed.length, limit },
        },
      };
    },

    async detail(slug: string) {
      const current = await published();
      const gen = current.generation;
      const post = current.bySlug.has(slug) ? await article(slug, current) : null;
      if (!post) throw notFound(msg('blog.not_found'), 'POST_NOT_FOUND');
      return { etag: `W/"post-${gen}.${views}-${post.id}"`, data: post };
    },

    /** Counts one reading (the page calls it once per browser session) and returns the total. */
    async recordView(slug: string): Promise<number> {
      const count = await repo.incrementViews(db, slug);
      if (count === null) throw notFound(msg('blog.not_found'), 'POST_NOT_FOUND');
      const cached = cache?.bySlug.get(slug);
      if (cached) {
        cached.view_count = count;
        const kept = details.get(slug)?.post;
        if (kept) kept.view_count = count;
        // The answers changed: new ETags, so nothing serialized before this view is served again.
        views += 1;
      }
      return count;
    },

    /**
     * What an article address's slug names: a published post (its static page may still be
     * building) in its language, or an old slug's post, or nothing.
     */
    async resolveSlug(slug: string): Promise<{
      published: { locale: Locale } | null;
      redirectTo: { slug: string; locale: Locale } | null;
    }> {
      const post = (await published()).bySlug.get(slug);
      if (post) return { published: { locale: post.locale }, redirectTo: null };
      return { published: null, redirectTo: await repo.findRedirect(db, slug) };
    },

    async adminList(limit?: number) {
      return (await repo.listAll(db, limit)).map(toAdmin);
    },

    async adminGet(id: string) {
      const row = await repo.findById(db, id);
      if (!row) throw notFound(msg('blog.article_missing'), 'POST_NOT_FOUND');
      return toAdmin(row);
    },

    async create(author: UserRow, input: PostInput) {
      const fields = prepare(input, null);
      const status = input.status ?? 'draft';
      const row = await withFreeSlug(db, fields.title, null, (tx, slug) =>
        linked(tx, null, fields, () =>
          repo.insertPost(tx, {
            ...fields,
            slug,
            status,
            authorId: author.id,
            authorName: author.name || author.email.split('@')[0] || 'Editor',
            authorAvatar: author.picture ?? author.avatarUrl,
            publishedAt: status === 'published' ? new Date() : null,
          }),
        ),
      );
      if (status === 'published') publicChanged();
      return toAdmin(row);
    },

    /**
     * Saves an edit. A post's slug follows its title until first published; after that it stays,
     * unless the title changes in a save that (re)publishes it: then the old slug redirects.
     */
    async update(id: string, input: PostInput) {
      const before = await repo.findById(db, id);
      if (!before) throw notFound(msg('blog.article_missing'), 'POST_NOT_FOUND');
      const fields = prepare(input, before);
      const status = input.status ?? before.status;
      const write = async (tx: DbOrTx, slug: string) => {
        if (slug !== before.slug) {
          await repo.removeRedirect(tx, slug);
          if (before.publishedAt) await repo.addRedirect(tx, before.slug, before.id);
        }
        return linked(tx, id, fields, () =>
          repo.updatePost(tx, id, {
            ...fields,
            slug,
            status,
            publishedAt: before.publishedAt ?? (status === 'published' ? new Date() : null),
          }),
        );
      };
      const titleChanged = fields.title !== before.title;
      const row =
        titleChanged && (!before.publishedAt || status === 'published')
          ? await withFreeSlug(db, fields.title, before.slug, write)
          : await db.transaction((tx) => write(tx, before.slug));
      // A published translation's pages link to each other: a draft's link changes none.
      if (before.status === 'published' || status === 'published') publicChanged();
      return toAdmin(row!);
    },

    async remove(id: string) {
      const row = await repo.deletePost(db, id);
      if (!row) throw notFound(msg('blog.article_missing'), 'POST_NOT_FOUND');
      if (row.status === 'published') publicChanged();
    },

    /** Stores an uploaded image (checked, re-encoded) under /uploads/blog/ and returns its URL. */
    async saveImage(bytes: Buffer): Promise<string> {
      const type = checkImage(bytes, MAX_UPLOAD_BYTES);
      const encoded = await reencodeImage(bytes, type);
      const ext = type === 'jpeg' ? 'jpg' : type;
      const name = `${randomBytes(16).toString('hex')}.${ext}`;
      await deps.store.put(`${MEDIA_KEYS.blogUploads}${name}`, encoded, {
        contentType: `image/${type}`,
        cacheControl: 'public, max-age=31536000, immutable',
      });
      return `${BLOG_UPLOADS_PREFIX}${name}`;
    },

    /**
     * The published-posts snapshot the static build reads (Astro never opens the database). The
     * server's builds read the `list` form of every post, for the list pages, feed and sitemap,
     * and build the article pages apart, from `pageDigests` and `pagePosts`, only for the posts
     * that changed. `astro dev` (`npm run dev`) renders every page from the `whole` posts.
     */
    async snapshot(form: 'list' | 'whole' = 'list'): Promise<PostsSnapshot> {
      const rows =
        form === 'list' ? await repo.listPublishedSummaries(db) : await repo.listPublished(db);
      // Every published post is here: their translations come from these rows, not a query.
      const translations = translationsByPost(rows, rows);
      const posts = rows.map((row) =>
        (form === 'list' ? toListedDetail : toDetail)(row, translations.get(row.id)),
      );
      return {
        generatedAt: new Date().toISOString(),
        posts,
        redirects: await repo.publishedRedirects(db),
      };
    },

    /**
     * slug → digest of what each published post's page shows (not its view count), with the
     * links to its translations, and the post's language (the folder of its page).
     */
    async pageDigests(): Promise<Map<string, PageDigest>> {
      const rows = await repo.publishedPageDigests(db);
      const translations = translationsByPost(rows, rows);
      return new Map(
        rows.map((row) => {
          const links = JSON.stringify(translations.get(row.id));
          const digest = createHash('sha256').update(`${row.digest}\n${links}`).digest('hex');
          return [row.slug, { digest: digest.slice(0, 32), locale: row.locale }];
        }),
      );
    },

    /** The published posts of these slugs, whole: one batch of article pages to render. */
    async pagePosts(slugs: string[]): Promise<PostDetail[]> {
      const rows = await repo.listPublishedBySlugs(db, slugs);
      const translations = await readTranslations(db, rows);
      return rows.map((row) => toDetail(row, translations.get(row.id)));
    },

    /** Local mode's first start: the sample articles of content/blog-seed, published. */
    async seedSamples(seedDir: string): Promise<number> {
      if ((await repo.countPosts(db)) > 0) return 0;
      let files: string[];
      try {
        files = (await readdir(seedDir)).filter((f) => f.endsWith('.json')).sort();
      } catch {
        return 0;
      }
      let seeded = 0;
      const seededIds = new Map<string, string>();
      for (const [i, file] of files.entries()) {
        // Prices, counts and the video's cost and length are {{placeholders}}, filled here.
        const seed = fillCopyDeep(
          JSON.parse(await readFile(path.join(seedDir, file), 'utf8')),
          `content/blog-seed/${file}`,
        ) as PostInput & {
          featured_image?: string;
          /** The seed file of the original a translation translates. */
          translation_of_seed?: string;
        };
        let image: string | null = null;
        if (seed.featured_image) {
          image = await this.saveImage(
            await readFile(path.join(seedDir, 'images', seed.featured_image)),
          );
        }
        const { translation_of_seed: original, ...input } = seed;
        const fields = prepare(
          {
            ...input,
            featured_image: image,
            translation_of: original ? (seededIds.get(original) ?? null) : null,
          },
          null,
        );
        // Spread the samples over the last days so the list has an order.
        const publishedAt = new Date(Date.now() - (files.length - i) * 86_400_000);
        const row = await withFreeSlug(db, fields.title, null, (tx, slug) =>
          repo.insertPost(tx, {
            ...fields,
            slug,
            status: 'published',
            authorName: fields.locale === 'zh-CN' ? `${site.brand} 团队` : `${site.brand} Team`,
            publishedAt,
            createdAt: publishedAt,
            updatedAt: publishedAt,
          }),
        );
        seededIds.set(file, row.id);
        seeded += 1;
      }
      // The caller writes the snapshot and builds before serving; only the cache is stale.
      invalidate();
      return seeded;
    },
  };
}

export type BlogService = ReturnType<typeof createBlogService>;
