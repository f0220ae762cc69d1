/**
 * Blog values the site and the server both use (spec 3 blog entities, 5 validation, 6 roles,
 * 9 paging and limits). Plain values only: the schemas are in server/contracts/blog.ts.
 */
import { MEGABYTE } from './images.ts';
import { DEFAULT_LOCALE, PATH_PREFIXES, type Locale } from './locales.ts';

/** Spec 9: blog pages hold 12 posts. */
export const BLOG_PAGE_SIZE = 12;
/** Spec 9: excerpts are cut at 100 characters. */
export const EXCERPT_LENGTH = 100;
/** Spec 9: an uploaded image is at most 10 MB. */
export const MAX_UPLOAD_BYTES = 10 * MEGABYTE;

export const POST_STATUSES = ['draft', 'published', 'archived'] as const;

/** Longest fields of a post the editor may send (the server refuses longer ones). */
export const POST_TITLE_MAX = 200;
export const POST_CONTENT_MAX = 2_000_000;
export const POST_EXCERPT_MAX = 1000;
export const POST_IMAGE_URL_MAX = 2000;
export const POST_META_TITLE_MAX = 200;
export const POST_META_DESCRIPTION_MAX = 500;
export const POST_TAG_MAX = 40;
export const POST_TAGS_MAX = 20;

/** Public URL prefix of editors' uploaded images: the upload answers `/uploads/blog/<name>`. */
export const BLOG_UPLOADS_PREFIX = '/uploads/blog/';

const UPLOADED_IMAGE = /^\/uploads\/blog\/[\w-]+\.[a-z0-9]+$/i;
// Characters that never belong in an address the pages put in `src` as is.
const ADDRESS = /^https?:\/\/[^\s\p{Cc}\\"'<>`]+$/iu;

/**
 * Whether `value` may be a post's featured image: an image uploaded here, or an http(s) address
 * with a host and no credentials. Pages and feeds put it in `src` and `og:image`, so no other
 * scheme (`javascript:`, `data:`…) and no relative path outside the uploads.
 */
export function isFeaturedImageUrl(value: string): boolean {
  if (UPLOADED_IMAGE.test(value)) return true;
  if (!ADDRESS.test(value)) return false;
  try {
    const url = new URL(value);
    return url.hostname !== '' && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

/** Texts the server answers and the blog pages show (spec 6, 8). */
export const BLOG_MESSAGES = {
  notFound: 'Article not found',
  /** Spec 6: the blog manager's right; the admin page alerts with exactly this text on 403. */
  noPermission: 'You do not have blog management permissions',
  featuredImage:
    "'featured_image' must be an http:// or https:// address or an image uploaded here (/uploads/blog/…). Upload the image or paste its web address.",
} as const;

/**
 * Blog addresses per language (issue 21): English posts at /blog/{slug}, Chinese ones at
 * /zh/blog/{slug}; each language has its own list (/blog, /zh/blog). Slugs are unique across
 * languages, so an article's address in the wrong language is a redirect, never another post.
 */
export function blogPath(locale: Locale): string {
  return `${PATH_PREFIXES[locale]}/blog`;
}

/** `/blog/{slug}` for an English post, `/zh/blog/{slug}` for a Chinese one. */
export function postPath(slug: string, locale: Locale = DEFAULT_LOCALE): string {
  return `${blogPath(locale)}/${encodeURIComponent(slug)}`;
}

/** The slug and language an article address names (`/blog/{slug}`, `/zh/blog/{slug}`), or null. */
export function articleAddress(pathname: string): { slug: string; locale: Locale } | null {
  const match = /^(\/zh)?\/blog\/([^/]+)\/?$/.exec(pathname);
  if (!match?.[2]) return null;
  try {
    return { slug: decodeURIComponent(match[2]), locale: match[1] ? 'zh-CN' : DEFAULT_LOCALE };
  } catch {
    return null;
  }
}
