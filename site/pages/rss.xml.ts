/** /rss.xml: every published post, newest first, with its excerpt as the description. */
import rss from '@astrojs/rss';
import type { APIContext } from 'astro';
import { getCollection } from 'astro:content';
import { byNewest, cardExcerpt, postPath, publishedDate } from '../lib/blog.ts';
import { BRAND } from '../lib/site.ts';

export async function GET(context: APIContext): Promise<Response> {
  const posts = (await getCollection('posts')).map((entry) => entry.data).sort(byNewest);
  return rss({
    title: `${BRAND} Blog`,
    description: `Guides, prompt tips and news about making AI videos with sound with ${BRAND}.`,
    site: context.site ?? context.url.origin,
    trailingSlash: false,
    items: posts.map((post) => ({
      title: post.title,
      link: postPath(post.slug),
      pubDate: new Date(publishedDate(post)),
      description: cardExcerpt(post),
      ...(post.tags.length ? { categories: post.tags } : {}),
    })),
  });
}
