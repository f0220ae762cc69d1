/**
 * The blog's tables, re-exported by schema.ts so they are part of the one drizzle schema: posts
 * (each in one language, possibly translating an original) and the redirects of old slugs.
 */
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  check,
  index,
  integer,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { at, createdAt } from './columns.ts';
import { DEFAULT_LOCALE, LOCALES } from '../../shared/locales.ts';
import { users } from './users-schema.ts';

/** Blog posts. `slug` is unique and stays stable once published (see post_redirects). */
export const posts = pgTable(
  'posts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    slug: text('slug').notNull().unique(),
    /** The language it is written in (issue 21): its list and its address (/blog, /zh/blog). */
    locale: text('locale', { enum: LOCALES }).notNull().default(DEFAULT_LOCALE),
    /**
     * The original this post translates (in another language), or null. Translations point at
     * originals only, one per language: the set of an original and its translations is one
     * article in every language it exists in.
     */
    translationOf: uuid('translation_of').references((): AnyPgColumn => posts.id, {
      onDelete: 'set null',
    }),
    title: text('title').notNull(),
    /** Sanitized HTML (server/domains/blog/sanitizer.ts runs on every save). */
    content: text('content').notNull(),
    excerpt: text('excerpt').notNull().default(''),
    featuredImage: text('featured_image'),
    status: text('status', { enum: ['draft', 'published', 'archived'] })
      .notNull()
      .default('draft'),
    metaTitle: text('meta_title'),
    metaDescription: text('meta_description'),
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    viewCount: integer('view_count').notNull().default(0),
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
    authorName: text('author_name').notNull(),
    authorAvatar: text('author_avatar'),
    publishedAt: at('published_at'),
    createdAt: createdAt(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('posts_status_published_idx').on(t.status, t.publishedAt),
    // Each language's public list: its published posts, newest first.
    index('posts_locale_published_idx')
      .on(t.locale, t.publishedAt)
      .where(sql`${t.status} = 'published'`),
    // One translation per language of an original; also finds an original's translations.
    uniqueIndex('posts_translation_locale_unique').on(t.translationOf, t.locale),
    check('posts_locale_known', sql`${t.locale} in ('en', 'zh-CN')`),
    check('posts_not_own_translation', sql`${t.translationOf} is distinct from ${t.id}`),
  ],
);

/** Old slugs of republished posts; /blog/{old} answers 301 to the post's current slug. */
export const postRedirects = pgTable('post_redirects', {
  slug: text('slug').primaryKey(),
  postId: uuid('post_id')
    .notNull()
    .references(() => posts.id, { onDelete: 'cascade' }),
  createdAt: createdAt(),
});

export type PostRow = typeof posts.$inferSelect;
