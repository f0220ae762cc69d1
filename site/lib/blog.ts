/**
 * Blog helpers shared by the pre-rendered pages and the browser islands (spec 2 "Blog list",
 * "Blog article"; 9 paging), in both languages (issue 21: English posts under /blog, Chinese
 * ones under /zh/blog). Paging, excerpt length and addresses come from shared/blog.ts; the
 * types from shared/api/blog.ts; the words are messages (messages/blog/).
 */
import type { PostDetail } from '../../shared/api/blog.ts';
import {
  articleAddress,
  BLOG_PAGE_SIZE,
  blogPath,
  EXCERPT_LENGTH,
  postPath,
} from '../../shared/blog.ts';
import { DEFAULT_LOCALE, LOCALES, type Alternate, type Locale } from '../i18n/locales.ts';
import { PATH_PREFIXES } from '../../shared/locales.ts';
import { blog_views_one, blog_views_other } from '../i18n/messages.ts';
import { formatNumber } from './format.ts';
import { BRAND } from './site.ts';

export { blogPath, postPath } from '../../shared/blog.ts';

/** Spec 9: the blog pager shows up to 5 page buttons. */
const PAGER_WINDOW = 5;

/** The fields a card, a feed item or a page head needs. */
export type PostSummary = Pick<
  PostDetail,
  'slug' | 'locale' | 'title' | 'excerpt' | 'content' | 'published_at' | 'created_at'
>;

/** A post's own address: `/blog/{slug}` in English, `/zh/blog/{slug}` in Chinese. */
export function articlePath(post: Pick<PostDetail, 'slug' | 'locale'>): string {
  return postPath(post.slug, post.locale);
}

/** The list's page `page` in `locale`: `/blog` (`/zh/blog`) for page 1, `…/page/{n}` after it. */
export function blogPageHref(page: number, locale: Locale = DEFAULT_LOCALE): string {
  const list = blogPath(locale);
  return page <= 1 ? list : `${list}/page/${page}`;
}

/** Each language's feed: `/rss.xml` lists the English posts, `/zh/rss.xml` the Chinese ones. */
export function feedPath(locale: Locale): string {
  return `${PATH_PREFIXES[locale]}/rss.xml`;
}

/**
 * The hreflang alternates of an article: itself and its published translations, in the order of
 * LOCALES (English first, as x-default takes it). None when it has no translation: a post in one
 * language is not the same page as the other language's blog.
 */
export function articleAlternates(
  post: Pick<PostDetail, 'slug' | 'locale' | 'translations'>,
): Alternate[] {
  if (post.translations.length === 0) return [];
  const versions = [post, ...post.translations].map((version) => ({
    locale: version.locale,
    path: postPath(version.slug, version.locale),
  }));
  return LOCALES.flatMap((locale) => versions.find((version) => version.locale === locale) ?? []);
}

/** How many list pages `count` posts fill (at least 1: the empty page). */
export function pageCount(count: number): number {
  return Math.max(1, Math.ceil(count / BLOG_PAGE_SIZE));
}

/** The page numbers to show: a window of up to 5 around `page`, kept inside 1…pages. */
export function pageWindow(page: number, pages: number, size = PAGER_WINDOW): number[] {
  if (pages < 1) return [];
  const count = Math.min(size, pages);
  const start = Math.max(1, Math.min(page - Math.floor(size / 2), pages - count + 1));
  return Array.from({ length: count }, (_, index) => start + index);
}

/** The date a post counts as published: published_at, else created_at (spec 2). */
export function publishedDate(post: Pick<PostDetail, 'published_at' | 'created_at'>): string {
  return post.published_at || post.created_at;
}

/** Spec 2: 'Updated' shows only when updated_at differs from created_at. */
export function wasUpdated(post: Pick<PostDetail, 'updated_at' | 'created_at'>): boolean {
  const updated = Date.parse(post.updated_at);
  const created = Date.parse(post.created_at);
  if (Number.isNaN(updated) || Number.isNaN(created)) return post.updated_at !== post.created_at;
  return updated !== created;
}

/** Newest published first; ties by slug so every build orders them the same way. */
export function byNewest(a: PostSummary, b: PostSummary): number {
  const diff = Date.parse(publishedDate(b)) - Date.parse(publishedDate(a));
  return diff || a.slug.localeCompare(b.slug);
}

// Spec 2: Chinese long format with hour and minute, one formatter per time zone.
const dateFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * e.g. `2025年3月14日 09:30` in `timeZone`; an unreadable date prints as given. Pages call it
 * through site/lib/post-dates.ts, which picks the zone (UTC on the server, the reader's in the
 * browser) and says which in the markup.
 */
export function formatPostDate(value: string, timeZone: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  let format = dateFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('zh-CN', {
      year: 'numeric',
      month: 'long',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      timeZone,
    });
    dateFormats.set(timeZone, format);
  }
  return format.format(date);
}

/** Spec 2: '{n} views', and '1 view' (issue 20); '{n} 次浏览' in Chinese. */
export function viewsLabel(count: number, locale: Locale = DEFAULT_LOCALE): string {
  const params = { count: formatNumber(count, locale) };
  return count === 1 ? blog_views_one(locale, params) : blog_views_other(locale, params);
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

/** The text of sanitized post HTML: tags dropped, common entities decoded, spaces collapsed. */
function htmlToText(html: string): string {
  return html
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<\/?(p|div|h[1-6]|li|br|blockquote|pre|tr)\b[^>]*>/gi, ' ')
    .replace(/<[^>]+>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
      if (name.startsWith('#')) {
        const code =
          name[1] === 'x' || name[1] === 'X'
            ? parseInt(name.slice(2), 16)
            : parseInt(name.slice(1), 10);
        return Number.isFinite(code) && code > 0 && code <= 0x10ffff
          ? String.fromCodePoint(code)
          : ' ';
      }
      return ENTITIES[name.toLowerCase()] ?? entity;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

/** Cuts `text` at `length` characters (whole code points) and marks the cut with '…'. */
function truncate(text: string, length = EXCERPT_LENGTH): string {
  const chars = Array.from(text.trim());
  if (chars.length <= length) return chars.join('');
  return `${chars.slice(0, length).join('').trimEnd()}…`;
}

/** The card excerpt (spec 9: 100 characters): the post's excerpt, else the start of its body. */
export function cardExcerpt(post: Pick<PostDetail, 'excerpt' | 'content'>): string {
  return truncate(post.excerpt.trim() || htmlToText(post.content));
}

/** Search/social description: meta_description, else the excerpt, else the start of the body. */
export function postDescription(
  post: Pick<PostDetail, 'meta_description' | 'excerpt' | 'content'>,
): string {
  const text = post.meta_description?.trim() || post.excerpt.trim() || htmlToText(post.content);
  return truncate(text, 160);
}

/** The document title: meta_title as written, else `{title} | {brand}`. */
export function postDocumentTitle(post: Pick<PostDetail, 'meta_title' | 'title'>): string {
  return post.meta_title?.trim() || `${post.title} | ${BRAND}`;
}

/**
 * The slug an article address names (`/blog/{slug}` or `/zh/blog/{slug}`), or null. The article
 * shell reads it from location.pathname (with articleAddress, for the language too), because the
 * server answers article paths that have no page with the shell.
 */
export function slugFromPath(pathname: string): string | null {
  return articleAddress(pathname)?.slug ?? null;
}

/** A featured image usable as an absolute link (og:image, JSON-LD, RSS), or null for data: URLs. */
export function absoluteImageUrl(src: string | null, site: URL | string): string | null {
  if (!src || src.startsWith('data:')) return null;
  try {
    return new URL(src, site).href;
  } catch {
    return null;
  }
}
