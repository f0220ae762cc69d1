/**
 * A language's blog feed (issue 21): /rss.xml lists the English posts, /zh/rss.xml the Chinese
 * ones, each newest first with its excerpt as the description and its own address as the link.
 */
import rss from '@astrojs/rss';
import type { APIContext } from 'astro';
import { INTL_LOCALES, type Locale } from '../i18n/locales.ts';
import { blog_feed_description, blog_name } from '../i18n/messages.ts';
import { articlePath, cardExcerpt, publishedDate } from './blog.ts';
import { publishedPosts } from './post-pages.ts';
import { BRAND } from './site.ts';

export async function blogFeed(context: APIContext, locale: Locale): Promise<Response> {
  const posts = await publishedPosts(locale);
  return rss({
    title: blog_name(locale, { brand: BRAND }),
    description: blog_feed_description(locale, { brand: BRAND }),
    site: context.site ?? context.url.origin,
    trailingSlash: false,
    customData: `<language>${INTL_LOCALES[locale]}</language>`,
    items: posts.map((post) => ({
      title: post.title,
      link: articlePath(post),
      pubDate: new Date(publishedDate(post)),
      description: cardExcerpt(post),
      ...(post.tags.length ? { categories: post.tags } : {}),
    })),
  });
}
