/**
 * The forms a post takes: the editor's (AdminPost), the reader's (PostDetail), the list's
 * (PublicPost, its excerpt cut once) and the build snapshot's list form.
 */
import type { PostRow } from '../../db/schema.ts';
import type { AdminPost, PostDetail, PostTranslation, PublicPost } from '../../contracts/blog.ts';
import { EXCERPT_LENGTH } from '../../../shared/blog.ts';
import { EXCERPT_SOURCE_CHARS } from './repository.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Spec: list excerpts are cut at 100 characters. */
export function cutExcerpt(text: string, max = EXCERPT_LENGTH): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  return clean.length <= max ? clean : `${clean.slice(0, max - 1).trimEnd()}…`;
}

/** Visible text of sanitized HTML, for "is there content" checks and fallback excerpts. */
export function htmlText(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The reader's form of a post, with its published translations (read apart: translations.ts). */
export function toDetail(row: PostRow, translations: PostTranslation[] = []): PostDetail {
  return {
    id: row.id,
    slug: row.slug,
    locale: row.locale,
    title: row.title,
    excerpt: row.excerpt,
    content: row.content,
    featured_image: row.featuredImage,
    author_name: row.authorName,
    author_avatar: row.authorAvatar,
    published_at: iso(row.publishedAt),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    view_count: row.viewCount,
    tags: row.tags,
    meta_title: row.metaTitle,
    meta_description: row.metaDescription,
    translations,
  };
}

export function toPublic(post: PostDetail): PublicPost {
  return {
    id: post.id,
    slug: post.slug,
    locale: post.locale,
    title: post.title,
    excerpt: cutExcerpt(post.excerpt || htmlText(post.content)),
    featured_image: post.featured_image,
    author_name: post.author_name,
    author_avatar: post.author_avatar,
    published_at: post.published_at,
    created_at: post.created_at,
    view_count: post.view_count,
    meta_title: post.meta_title,
    meta_description: post.meta_description,
  };
}

export function toAdmin(row: PostRow): AdminPost {
  return {
    id: row.id,
    slug: row.slug,
    locale: row.locale,
    translation_of: row.translationOf,
    title: row.title,
    content: row.content,
    excerpt: row.excerpt,
    featured_image: row.featuredImage,
    status: row.status,
    meta_title: row.metaTitle,
    meta_description: row.metaDescription,
    tags: row.tags,
    view_count: row.viewCount,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    published_at: iso(row.publishedAt),
  };
}

/**
 * A post of the public list as the static build reads it: `content` only as much of the body as
 * its excerpt needs (none when it has its own), without a tag cut in half.
 */
export function toListedDetail(row: PostRow, translations: PostTranslation[] = []): PostDetail {
  const head = row.content;
  const open = head.lastIndexOf('<');
  const cut = head.length >= EXCERPT_SOURCE_CHARS && open > head.lastIndexOf('>');
  return toDetail({ ...row, content: cut ? head.slice(0, open) : head }, translations);
}
