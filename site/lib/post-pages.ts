/**
 * The /blog/{slug} pages of the posts collection: one per post, the post as its props. Both
 * article routes use it: the site's (site/pages/blog/[slug].astro) and the server's article
 * builds' (site/article-pages/).
 */
import { getCollection } from 'astro:content';

export async function postPages() {
  const posts = await getCollection('posts');
  return posts.map((entry) => ({ params: { slug: entry.id }, props: { post: entry.data } }));
}
