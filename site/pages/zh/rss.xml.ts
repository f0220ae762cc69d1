/** /zh/rss.xml: every published Chinese post, newest first (site/lib/blog-feed.ts). */
import type { APIContext } from 'astro';
import { blogFeed } from '../../lib/blog-feed.ts';

export function GET(context: APIContext): Promise<Response> {
  return blogFeed(context, 'zh-CN');
}
