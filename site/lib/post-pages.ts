/**
 * The blog pages of the published posts, per language (issue 21: English posts under /blog,
 * Chinese ones under /zh/blog). The article routes use articlePages: the site's
 * (site/pages/[...locale]/blog/[slug].astro, in both languages) and the server's builds of the
 * blog's pages (site/article-pages/). The list routes and the feeds use publishedPosts and
 * laterListPages. The server's build of the rest of the site renders none of them
 * (blogPagesApart).
 */
import { readFile } from 'node:fs/promises';
import { getCollection } from 'astro:content';
import type { PostDetail, PostsSnapshot } from '../../shared/api/blog.ts';
import { BLOG_PAGE_SIZE } from '../../shared/blog.ts';
import type { Locale } from '../i18n/locales.ts';
import type { routePaths } from '../../shared/pages.ts';
import { byNewest, pageCount } from './blog.ts';
import { listSnapshotFile } from './posts-snapshot-file.ts';

export { blogPagesApart } from './posts-snapshot-file.ts';

let listed: Promise<PostDetail[]> | null = null;

/**
 * Every published post in its list form, read once per build from BLOG_LIST_SNAPSHOT_PATH (the
 * server wrote it from the database; a file that is not a snapshot fails the build, so the
 * previous release stays live). Null when the build has none: the posts collection is all.
 */
function listedPosts(): Promise<PostDetail[]> | null {
  const file = listSnapshotFile();
  if (!file) return null;
  listed ??= readFile(file, 'utf8').then((text) => {
    const snapshot = JSON.parse(text) as Partial<PostsSnapshot>;
    if (!Array.isArray(snapshot.posts)) throw new Error(`${file} is not a posts snapshot.`);
    return snapshot.posts;
  });
  return listed;
}

/** The posts written in `locale`, newest published first. */
export async function publishedPosts(locale: Locale): Promise<PostDetail[]> {
  const posts = (await listedPosts()) ?? (await getCollection('posts')).map((entry) => entry.data);
  return posts.filter((post) => post.locale === locale).sort(byNewest);
}

/** The list's first page in `locale` (/blog, /zh/blog): its posts, its number and the page count. */
export async function firstListPage(locale: Locale) {
  const posts = await publishedPosts(locale);
  return { posts: posts.slice(0, BLOG_PAGE_SIZE), page: 1, pages: pageCount(posts.length) };
}

/** One article page per post written in `locale` (in the posts collection), the post as its props. */
async function postPages(locale: Locale) {
  const posts = await getCollection('posts', (entry) => entry.data.locale === locale);
  return posts.map((entry) => ({ params: { slug: entry.id }, props: { post: entry.data } }));
}

/**
 * Every article page in the given languages (a route's `routePaths('/blog/[slug]')`, so the page
 * table decides them): the `[...locale]` parameter of its language and the post's slug.
 */
export async function articlePages(languages: ReturnType<typeof routePaths>) {
  const pages = await Promise.all(
    languages.map(async ({ params, props }) =>
      (await postPages(props.locale)).map((page) => ({
        params: { ...params, ...page.params },
        props: page.props,
      })),
    ),
  );
  return pages.flat();
}

/** The list's pages after the first (`…/page/{n}`, n ≥ 2), 12 posts each, newest first. */
async function listPages(locale: Locale) {
  const posts = await publishedPosts(locale);
  const pages = pageCount(posts.length);
  return Array.from({ length: pages - 1 }, (_, index) => {
    const page = index + 2;
    const start = (page - 1) * BLOG_PAGE_SIZE;
    return {
      params: { page: String(page) },
      props: { posts: posts.slice(start, start + BLOG_PAGE_SIZE), page, pages },
    };
  });
}

/** The later list pages in the given languages (`routePaths('/blog/page/[page]')`). */
export async function laterListPages(languages: ReturnType<typeof routePaths>) {
  const pages = await Promise.all(
    languages.map(async ({ params, props }) =>
      (await listPages(props.locale)).map((page) => ({
        params: { ...params, ...page.params },
        props: { ...props, ...page.props },
      })),
    ),
  );
  return pages.flat();
}
