/**
 * /rss.xml and /zh/rss.xml: every published post of the language, newest first
 * (site/lib/blog-feed.ts), in each language of its row in shared/pages.ts.
 */
import type { APIContext, GetStaticPaths } from 'astro';
import type { Locale } from '../../i18n/locales.ts';
import { blogFeed } from '../../lib/blog-feed.ts';
import { routePaths } from '../../../shared/pages.ts';

export const getStaticPaths = (() => routePaths('/rss.xml')) satisfies GetStaticPaths;

/** The feed of the route's language. */
export function GET(context: APIContext<{ locale: Locale }>): Promise<Response> {
  return blogFeed(context, context.props.locale);
}
