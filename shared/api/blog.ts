/**
 * Blog shapes (spec 3 "Blog post (public list)", "Blog article (detail)", "Blog post (admin)",
 * "Upload responses") the blog pages and the editor read and send. Paging, limits and statuses
 * are in shared/blog.ts; the schemas in server/contracts/blog.ts.
 */
import type { POST_STATUSES } from '../blog.ts';
import type { Locale } from '../locales.ts';
import type { Ok } from './common.ts';

export type PostStatus = (typeof POST_STATUSES)[number];

/** The language a post is written in (issue 21): its list and address follow it. */
export type PostLocale = Locale;

/** A published translation of an article: the page links to it and names it as an alternate. */
export type PostTranslation = {
  locale: PostLocale;
  slug: string;
  title: string;
};

/** The article page's data (spec 3 "Blog article (detail, under data)"). */
export type PostDetail = {
  id: string;
  slug: string;
  locale: PostLocale;
  title: string;
  excerpt: string;
  /** HTML the server sanitized. */
  content: string;
  featured_image: string | null;
  author_name: string;
  author_avatar: string | null;
  published_at: string | null;
  created_at: string;
  updated_at: string;
  view_count: number;
  tags: string[];
  meta_title: string | null;
  meta_description: string | null;
  /** Its published translations, in the other languages. */
  translations: PostTranslation[];
};

export type PostDetailResponse = Ok<PostDetail>;

/** Editor view of a post (spec 3 "Blog post (admin)"), plus slug and dates. */
export type AdminPost = {
  id: string;
  slug: string;
  locale: PostLocale;
  /** The post this one translates (in another language), or null. */
  translation_of: string | null;
  title: string;
  content: string;
  excerpt: string;
  featured_image: string | null;
  status: PostStatus;
  meta_title: string | null;
  meta_description: string | null;
  tags: string[];
  view_count: number;
  created_at: string;
  updated_at: string;
  published_at: string | null;
};

/** `data` is the array of posts, no paging (spec 7). */
export type AdminPostListResponse = Ok<AdminPost[]>;

export type AdminPostResponse = {
  success: true;
  data: AdminPost;
  message: string;
};

/** Create and update payload (spec 7 "POST /api/blog/admin/posts"); limits in shared/blog.ts. */
export type PostInput = {
  title: string;
  content: string;
  excerpt?: string;
  featured_image?: string | null;
  status?: PostStatus;
  /** English unless given; a new post without one is English. */
  locale?: PostLocale;
  /** The id of the post this one translates (another language's), or null for none. */
  translation_of?: string | null;
  meta_title?: string | null;
  meta_description?: string | null;
  tags?: string[];
};

/** Inline image upload answer (spec 3 "Upload responses"). */
export type InlineUploadResponse = {
  success: true;
  imageUrl: string;
  message: string;
};

/** Featured image upload answer: data.url (spec 3). */
export type AdminUploadResponse = Ok<{ url: string }>;

/** Where publishing stands (the admin shows 'Live' or 'Publishing…'). */
export type BuildStatus = {
  state: 'queued' | 'building' | 'live';
  startedAt: string | null;
  finishedAt: string | null;
  durationMs: number | null;
  error: string | null;
  releaseId: string | null;
};

export type BuildStatusResponse = Ok<BuildStatus>;

/**
 * The published-posts snapshot the server writes for the static build (Astro never opens the
 * database): every published post with its rendered-safe HTML.
 */
export type PostsSnapshot = {
  generatedAt: string;
  posts: PostDetail[];
  /** Old slugs of republished posts → their current slug (pages that redirect). */
  redirects: Record<string, string>;
};
