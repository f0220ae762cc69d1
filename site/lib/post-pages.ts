/**
 * The blog pages of the posts collection, per language (issue 21: English posts under /blog,
 * Chinese ones under /zh/blog). The article routes use articlePages: the site's
 * (site/pages/[...locale]/blog/[slug].astro, in both languages) and the server's article
 * builds' (site/article-pages/). The list routes use publishedPosts and listPages.
 */
import { getCollection } from 'astro:content';
import type { PostDetail } from '../../shared/api/blog.ts';
import { BLOG_PAGE_SIZE } from '../../shared/blog.ts';
import type { Locale } from '../i18n/locales.ts';
import type { routePaths } from '../../shared/pages.ts';
import { byNewest, pageCount } from './blog.ts';

/** The posts written in `locale`, newest published first. */
export async function publishedPosts(locale: Locale): Promise<PostDetail[]> {
  const posts = await getCollection('posts', (entry) => entry.data.locale === locale);
  return posts.map((entry) => entry.data).sort(byNewest);
}

/** One article page per post written in `locale`, the post as its props. */
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
export async function listPages(locale: Locale) {
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
