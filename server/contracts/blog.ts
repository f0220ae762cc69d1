/**
 * Blog shapes (spec 3 "Blog post (public list)", "Blog article (detail)", "Blog post (admin)",
 * "Upload responses"). Paging, limits and statuses come from shared/blog.ts.
 */
import { Type, type Static } from 'typebox';
import {
  BLOG_PAGE_SIZE,
  POST_CONTENT_MAX,
  POST_EXCERPT_MAX,
  POST_IMAGE_URL_MAX,
  POST_META_DESCRIPTION_MAX,
  POST_META_TITLE_MAX,
  POST_STATUSES,
  POST_TAG_MAX,
  POST_TAGS_MAX,
  POST_TITLE_MAX,
} from '../../shared/blog.ts';
import { LOCALES } from '../../shared/locales.ts';
import { LiteralUnion, Nullable, Ok } from './common.ts';

export const PostStatus = LiteralUnion(POST_STATUSES);
export type PostStatus = Static<typeof PostStatus>;

/** The language a post is written in (issue 21): its list and address follow it. */
export const PostLocale = LiteralUnion(LOCALES);
export type PostLocale = Static<typeof PostLocale>;

/** A published translation of an article: the page links to it and names it as an alternate. */
export const PostTranslation = Type.Object({
  locale: PostLocale,
  slug: Type.String(),
  title: Type.String(),
});
export type PostTranslation = Static<typeof PostTranslation>;

/** A published post in the list (excerpt cut at 100 characters). */
export const PublicPost = Type.Object({
  id: Type.String(),
  slug: Type.String(),
  locale: PostLocale,
  title: Type.String(),
  excerpt: Type.String(),
  featured_image: Nullable(Type.String()),
  author_name: Type.String(),
  author_avatar: Nullable(Type.String()),
  published_at: Nullable(Type.String()),
  created_at: Type.String(),
  view_count: Type.Integer(),
  meta_title: Nullable(Type.String()),
  meta_description: Nullable(Type.String()),
});
export type PublicPost = Static<typeof PublicPost>;

export const PostListQuery = Type.Object(
  {
    page: Type.Integer({ minimum: 1, maximum: 100_000, default: 1 }),
    limit: Type.Integer({ minimum: 1, maximum: 50, default: BLOG_PAGE_SIZE }),
    /** The list of one language: English unless asked. */
    locale: Type.Optional(PostLocale),
  },
  { additionalProperties: false },
);

export const PostListResponse = Ok(
  Type.Object({
    posts: Type.Array(PublicPost),
    pagination: Type.Object({
      page: Type.Integer(),
      pages: Type.Integer(),
      total: Type.Integer(),
      limit: Type.Integer(),
    }),
  }),
);
export type PostListResponse = Static<typeof PostListResponse>;

/** The article page's data (spec 3 "Blog article (detail, under data)"). */
export const PostDetail = Type.Object({
  id: Type.String(),
  slug: Type.String(),
  locale: PostLocale,
  title: Type.String(),
  excerpt: Type.String(),
  content: Type.String(),
  featured_image: Nullable(Type.String()),
  author_name: Type.String(),
  author_avatar: Nullable(Type.String()),
  published_at: Nullable(Type.String()),
  created_at: Type.String(),
  updated_at: Type.String(),
  view_count: Type.Integer(),
  tags: Type.Array(Type.String()),
  meta_title: Nullable(Type.String()),
  meta_description: Nullable(Type.String()),
  /** Its published translations, in the other languages. */
  translations: Type.Array(PostTranslation),
});
export type PostDetail = Static<typeof PostDetail>;

export const PostDetailResponse = Ok(PostDetail);
export type PostDetailResponse = Static<typeof PostDetailResponse>;

/** Editor view of a post (spec 3 "Blog post (admin)"), plus slug and dates. */
export const AdminPost = Type.Object({
  id: Type.String(),
  slug: Type.String(),
  locale: PostLocale,
  /** The post this one translates (in another language), or null. */
  translation_of: Nullable(Type.String()),
  title: Type.String(),
  content: Type.String(),
  excerpt: Type.String(),
  featured_image: Nullable(Type.String()),
  status: PostStatus,
  meta_title: Nullable(Type.String()),
  meta_description: Nullable(Type.String()),
  tags: Type.Array(Type.String()),
  view_count: Type.Integer(),
  created_at: Type.String(),
  updated_at: Type.String(),
  published_at: Nullable(Type.String()),
});
export type AdminPost = Static<typeof AdminPost>;

export const AdminPostListQuery = Type.Object(
  { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })) },
  { additionalProperties: false },
);

/** `data` is the array of posts, no paging (spec 7). */
export const AdminPostListResponse = Ok(Type.Array(AdminPost));
export type AdminPostListResponse = Static<typeof AdminPostListResponse>;

/** Create and update payload (spec 7 "POST /api/blog/admin/posts"). */
export const PostInput = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: POST_TITLE_MAX }),
    content: Type.String({ minLength: 1, maxLength: POST_CONTENT_MAX }),
    excerpt: Type.Optional(Type.String({ maxLength: POST_EXCERPT_MAX })),
    featured_image: Type.Optional(Nullable(Type.String({ maxLength: POST_IMAGE_URL_MAX }))),
    status: Type.Optional(PostStatus),
    /** English unless given; a new post without one is English. */
    locale: Type.Optional(PostLocale),
    /** The id of the post this one translates (another language's), or null for none. */
    translation_of: Type.Optional(Nullable(Type.String({ format: 'uuid' }))),
    meta_title: Type.Optional(Nullable(Type.String({ maxLength: POST_META_TITLE_MAX }))),
    meta_description: Type.Optional(
      Nullable(Type.String({ maxLength: POST_META_DESCRIPTION_MAX })),
    ),
    tags: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: POST_TAG_MAX }), {
        maxItems: POST_TAGS_MAX,
      }),
    ),
  },
  { additionalProperties: false },
);
export type PostInput = Static<typeof PostInput>;

export const AdminPostResponse = Type.Object({
  success: Type.Literal(true),
  data: AdminPost,
  message: Type.String(),
});
export type AdminPostResponse = Static<typeof AdminPostResponse>;

/** Inline image upload answer (spec 3 "Upload responses"). */
export const InlineUploadResponse = Type.Object({
  success: Type.Literal(true),
  imageUrl: Type.String(),
  message: Type.String(),
});
export type InlineUploadResponse = Static<typeof InlineUploadResponse>;

/** Featured image upload answer: data.url (spec 3). */
export const AdminUploadResponse = Ok(Type.Object({ url: Type.String() }));
export type AdminUploadResponse = Static<typeof AdminUploadResponse>;

/** Where publishing stands (the admin shows 'Live' or 'Publishing…'). */
export const BuildStatus = Type.Object({
  state: Type.Union([Type.Literal('queued'), Type.Literal('building'), Type.Literal('live')]),
  startedAt: Nullable(Type.String()),
  finishedAt: Nullable(Type.String()),
  durationMs: Nullable(Type.Integer()),
  error: Nullable(Type.String()),
  releaseId: Nullable(Type.String()),
});
export type BuildStatus = Static<typeof BuildStatus>;
export const BuildStatusResponse = Ok(BuildStatus);
export type BuildStatusResponse = Static<typeof BuildStatusResponse>;

/**
 * The published-posts snapshot the server writes for the static build (Astro never opens the
 * database): every published post with its rendered-safe HTML.
 */
export interface PostsSnapshot {
  generatedAt: string;
  posts: PostDetail[];
  /** Old slugs of republished posts → their current slug (pages that redirect). */
  redirects: Record<string, string>;
}
