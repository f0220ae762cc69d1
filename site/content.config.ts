/**
 * Content collections. Astro never opens the database (ARCHITECTURE "Data rules → Blog"): the
 * server writes a snapshot of the published posts (`PostsSnapshot`, shared/api/blog.ts) and runs
 * `astro build` with BLOG_SNAPSHOT_PATH pointing at it; the blog pages read the posts from here.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { defineCollection } from 'astro:content';
import type { Loader, LoaderContext } from 'astro/loaders';
import { z } from 'astro/zod';
import type { PostsSnapshot } from '../shared/api/blog.ts';
import { LOCALES } from '../shared/locales.ts';
import { blogPagesApart, postsSnapshotFile } from './lib/posts-snapshot-file.ts';

/**
 * The snapshot, or null when there is none yet (a fresh install has no posts) or the build shows
 * no post (the server's build of the site without the blog's pages).
 */
async function readSnapshot({ config, logger }: LoaderContext): Promise<PostsSnapshot | null> {
  if (blogPagesApart()) return null;
  const file = postsSnapshotFile(config.root);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      logger.info(`No posts snapshot at ${file}: the blog has no posts.`);
      return null;
    }
    throw error;
  }
  // A snapshot that is not valid JSON fails the build, so the previous release stays live.
  const snapshot = JSON.parse(text) as Partial<PostsSnapshot>;
  return {
    generatedAt: snapshot.generatedAt ?? '',
    posts: Array.isArray(snapshot.posts) ? snapshot.posts : [],
    redirects: snapshot.redirects ?? {},
  };
}

/** Mirrors `PostDetail` in shared/api/blog.ts. `content` is HTML the server sanitized. */
const postSchema = z.object({
  id: z.string(),
  slug: z.string().min(1),
  locale: z.enum(LOCALES),
  title: z.string(),
  excerpt: z.string(),
  content: z.string(),
  featured_image: z.string().nullable(),
  author_name: z.string(),
  author_avatar: z.string().nullable(),
  published_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  view_count: z.number().int(),
  tags: z.array(z.string()),
  meta_title: z.string().nullable(),
  meta_description: z.string().nullable(),
  translations: z.array(
    z.object({ locale: z.enum(LOCALES), slug: z.string().min(1), title: z.string() }),
  ),
});

/** Key of a placeholder entry that is set and deleted at once; see below. */
const EMPTY_MARKER = '\u0000empty';

/**
 * Published posts keyed by slug. Each entry keeps a digest of its snapshot record: an unchanged
 * post is neither validated nor written again, and posts gone from the snapshot are deleted.
 * The store lives in Astro's cacheDir between builds. The snapshot's `redirects` are not read
 * here: the server answers old slugs with a 301 (server/app.ts), which a static page would
 * shadow.
 */
const postsLoader: Loader = {
  name: 'posts-snapshot',
  async load(context) {
    const { store, parseData, generateDigest, logger, config, watcher } = context;
    const sync = async () => {
      const snapshot = await readSnapshot(context);
      const seen = new Set<string>();
      let changed = 0;
      let skipped = 0;
      for (const post of snapshot?.posts ?? []) {
        const id = post?.slug;
        if (typeof id !== 'string' || id === '' || seen.has(id)) {
          logger.error(`Skipped a snapshot post without a slug, or with a repeated one: ${id}`);
          skipped++;
          continue;
        }
        seen.add(id);
        const raw = post as unknown as Record<string, unknown>;
        const digest = generateDigest(raw);
        if (store.get(id)?.digest === digest) continue;
        try {
          const data = await parseData({ id, data: raw });
          store.set({ id, data, digest });
          changed++;
        } catch (error) {
          // One malformed post must not block every other post from publishing; the server
          // still answers its address with the article shell, which reads it from the API.
          logger.error(`Skipped post "${id}": ${(error as Error).message}`);
          store.delete(id);
          skipped++;
        }
      }
      let removed = 0;
      for (const id of store.keys()) {
        if (!seen.has(id)) {
          store.delete(id);
          removed++;
        }
      }
      if (store.keys().length === 0) {
        // Leaves an empty collection rather than none, so an empty blog builds without Astro's
        // "collection does not exist or is empty" warning on every page that lists posts.
        store.set({ id: EMPTY_MARKER, data: {} });
        store.delete(EMPTY_MARKER);
      }
      logger.info(
        `${store.keys().length} posts: ${changed} new or changed, ${removed} removed, ${skipped} skipped`,
      );
    };
    await sync();
    // `astro dev`: reload when the server writes a new snapshot.
    const file = postsSnapshotFile(config.root);
    watcher?.add(file);
    watcher?.on('change', (changedPath) => {
      if (path.resolve(changedPath) === file) void sync();
    });
  },
};

export const collections = {
  posts: defineCollection({ loader: postsLoader, schema: postSchema }),
};
