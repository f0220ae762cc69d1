/**
 * An editor's save, checked: the fields of a post as they are stored (sanitized, trimmed, tags
 * cleaned, language and translation link resolved against the post as it was), and the write
 * that checks the translation link in the same transaction.
 */
import type { DbOrTx } from '../../core/db.ts';
import { badRequest } from '../../core/errors.ts';
import type { PostRow } from '../../db/schema.ts';
import type { PostInput } from '../../contracts/blog.ts';
import { isFeaturedImageUrl } from '../../../shared/blog.ts';
import { DEFAULT_LOCALE, type Locale } from '../../../shared/locales.ts';
import { htmlText } from './post-forms.ts';
import { sanitizePostHtml } from './sanitizer.ts';
import { checkTranslation, translationRaceLost } from './translations.ts';
import { msg } from '../../core/api-messages.ts';

const cleanTags = (tags: string[] | undefined) =>
  [...new Set((tags ?? []).map((t) => t.trim().replace(/^#/, '')).filter(Boolean))].slice(0, 20);

export function prepare(input: PostInput, before: PostRow | null) {
  const title = input.title.trim();
  if (!title) throw badRequest(msg('blog.title_required'), 'TITLE_REQUIRED');
  const content = sanitizePostHtml(input.content);
  if (!htmlText(content) && !/<(img|iframe)\b/i.test(content)) {
    throw badRequest(msg('blog.content_required'), 'CONTENT_REQUIRED');
  }
  const featuredImage = input.featured_image?.trim() || null;
  if (featuredImage && !isFeaturedImageUrl(featuredImage)) {
    throw badRequest(msg('blog.featured_image'), 'INVALID_FEATURED_IMAGE');
  }
  return {
    title,
    content,
    excerpt: (input.excerpt ?? '').trim(),
    featuredImage,
    metaTitle: input.meta_title?.trim() || null,
    metaDescription: input.meta_description?.trim() || null,
    tags: cleanTags(input.tags),
    locale: input.locale ?? before?.locale ?? DEFAULT_LOCALE,
    translationOf:
      input.translation_of === undefined ? (before?.translationOf ?? null) : input.translation_of,
  };
}

/** The translation link checked and the row written, in the save's transaction. */
export async function linked<T>(
  tx: DbOrTx,
  id: string | null,
  fields: { locale: Locale; translationOf: string | null },
  write: () => Promise<T>,
): Promise<T> {
  await checkTranslation(tx, { id, ...fields });
  try {
    return await write();
  } catch (error) {
    return translationRaceLost(error);
  }
}
