/** /rss.xml: every published English post, newest first (the Chinese ones: /zh/rss.xml). */
import type { APIContext } from 'astro';
import { blogFeed } from '../lib/blog-feed.ts';

export function GET(context: APIContext): Promise<Response> {
  return blogFeed(context, 'en');
}
