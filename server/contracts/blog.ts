/**
 * Blog schemas (spec 3 "Blog post (public list)", "Blog article (detail)", "Blog post (admin)",
 * "Upload responses"). The types the blog pages and the editor use are in shared/api/blog.ts;
 * paging, limits and statuses come from shared/blog.ts.
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
import type * as api from '../../shared/api/blog.ts';
import { LOCALES } from '../../shared/locales.ts';
import { LiteralUnion, Nullable, Ok, schemaFor } from './common.ts';

const PostStatus = schemaFor<api.PostStatus>()(LiteralUnion(POST_STATUSES));
type PostStatus = api.PostStatus;

/** The language a post is written in (issue 21): its list and address follow it. */
const PostLocale = schemaFor<api.PostLocale>()(LiteralUnion(LOCALES));
type PostLocale = api.PostLocale;

/** A published translation of an article: the page links to it and names it as an alternate. */
export const PostTranslation = schemaFor<api.PostTranslation>()(
  Type.Object({ locale: PostLocale, slug: Type.String(), title: Type.String() }),
);
export type PostTranslation = api.PostTranslation;

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
export const PostDetail = schemaFor<api.PostDetail>()(
  Type.Object({
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
  }),
);
export type PostDetail = api.PostDetail;

export const PostDetailResponse = schemaFor<api.PostDetailResponse>()(Ok(PostDetail));
export type PostDetailResponse = api.PostDetailResponse;

/** Editor view of a post (spec 3 "Blog post (admin)"), plus slug and dates. */
export const AdminPost = schemaFor<api.AdminPost>()(
  Type.Object({
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
  }),
);
export type AdminPost = api.AdminPost;

export const AdminPostListQuery = Type.Object(
  { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })) },
  { additionalProperties: false },
);

/** `data` is the array of posts, no paging (spec 7). */
export const AdminPostListResponse = schemaFor<api.AdminPostListResponse>()(
  Ok(Type.Array(AdminPost)),
);
export type AdminPostListResponse = api.AdminPostListResponse;

/** Create and update payload (spec 7 "POST /api/blog/admin/posts"). */
export const PostInput = schemaFor<api.PostInput>()(
  Type.Object(
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
  ),
);
export type PostInput = api.PostInput;

export const AdminPostResponse = schemaFor<api.AdminPostResponse>()(
  Type.Object({ success: Type.Literal(true), data: AdminPost, message: Type.String() }),
);
export type AdminPostResponse = api.AdminPostResponse;

/** Inline image upload answer (spec 3 "Upload responses"). */
export const InlineUploadResponse = schemaFor<api.InlineUploadResponse>()(
  Type.Object({ success: Type.Literal(true), imageUrl: Type.String(), message: Type.String() }),
);
export type InlineUploadResponse = api.InlineUploadResponse;

/** Featured image upload answer: data.url (spec 3). */
export const AdminUploadResponse = schemaFor<api.AdminUploadResponse>()(
  Ok(Type.Object({ url: Type.String() })),
);
export type AdminUploadResponse = api.AdminUploadResponse;

/** Where publishing stands (the admin shows 'Live' or 'Publishing…'). */
export const BuildStatus = schemaFor<api.BuildStatus>()(
  Type.Object({
    state: Type.Union([Type.Literal('queued'), Type.Literal('building'), Type.Literal('live')]),
    startedAt: Nullable(Type.String()),
    finishedAt: Nullable(Type.String()),
    durationMs: Nullable(Type.Integer()),
    error: Nullable(Type.String()),
    releaseId: Nullable(Type.String()),
  }),
);
export type BuildStatus = api.BuildStatus;
export const BuildStatusResponse = schemaFor<api.BuildStatusResponse>()(Ok(BuildStatus));
export type BuildStatusResponse = api.BuildStatusResponse;

/** The published-posts snapshot for the static build (no schema: only our own code writes it). */
export type PostsSnapshot = api.PostsSnapshot;
