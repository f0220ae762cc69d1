/**
 * /rss.xml and /zh/rss.xml: every published post of the language, newest first
 * (site/lib/blog-feed.ts), in each language of its row in shared/pages.ts. The server's builds
 * render them with the blog's other pages (site/article-pages/).
 */
import type { APIContext, GetStaticPaths } from 'astro';
import type { Locale } from '../../i18n/locales.ts';
import { blogFeed } from '../../lib/blog-feed.ts';
import { blogPagesApart } from '../../lib/post-pages.ts';
import { routePaths } from '../../../shared/pages.ts';

export const getStaticPaths = (() =>
  blogPagesApart() ? [] : routePaths('/rss.xml')) satisfies GetStaticPaths;

/** The feed of the route's language. */
export function GET(context: APIContext<{ locale: Locale }>): Promise<Response> {
  return blogFeed(context, context.props.locale);
}
