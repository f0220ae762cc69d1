/**
 * Posts in several languages (issue 21). A post may translate an original written in another
 * language, one translation per language; an original and its translations are one article,
 * and each of its published pages links to the others. Translations point at originals only,
 * never at another translation, so a group is one original's id.
 */
import type { DbOrTx } from '../../core/db.ts';
import { badRequest, conflict } from '../../core/errors.ts';
import type { PostTranslation } from '../../contracts/blog.ts';
import type { Locale } from '../../../shared/locales.ts';
import * as repo from './repository.ts';
import type { TranslationRow } from './repository.ts';
import { msg } from '../../core/api-messages.ts';

/** The group a post belongs to: its original's id (an original's own). */
const groupOf = (post: Pick<TranslationRow, 'id' | 'translationOf'>) =>
  post.translationOf ?? post.id;

/**
 * post id → its published translations, for `posts` among `published` (the published members
 * of their groups, which may include `posts` themselves). Ordered by language, so a page and
 * its digest come out the same on every build.
 */
export function translationsByPost(
  posts: Pick<TranslationRow, 'id' | 'translationOf'>[],
  published: TranslationRow[],
): Map<string, PostTranslation[]> {
  const members = new Map<string, TranslationRow[]>();
  for (const row of published) {
    const group = groupOf(row);
    const list = members.get(group);
    if (list) list.push(row);
    else members.set(group, [row]);
  }
  const result = new Map<string, PostTranslation[]>();
  for (const post of posts) {
    const others = (members.get(groupOf(post)) ?? [])
      .filter((row) => row.id !== post.id)
      .sort((a, b) => a.locale.localeCompare(b.locale))
      .map(({ locale, slug, title }) => ({ locale, slug, title }));
    result.set(post.id, others);
  }
  return result;
}

/** The published translations of these posts, read by their groups (two indexed lookups). */
export async function readTranslations(
  db: DbOrTx,
  posts: Pick<TranslationRow, 'id' | 'translationOf'>[],
): Promise<Map<string, PostTranslation[]>> {
  const groups = [...new Set(posts.map(groupOf))];
  return translationsByPost(posts, await repo.publishedInGroups(db, groups));
}

const taken = () => conflict(msg('blog.translation_taken'), 'TRANSLATION_TAKEN');

/**
 * Checks, inside the save's transaction, that a post (`id`, null when new) in `locale` may
 * translate `translationOf`: the rows involved are locked first, so two saves cannot both pass
 * and leave a translation of a translation or two translations in one language.
 */
export async function checkTranslation(
  tx: DbOrTx,
  post: { id: string | null; locale: Locale; translationOf: string | null },
): Promise<void> {
  const { id, locale, translationOf } = post;
  if (translationOf && translationOf === id) {
    throw badRequest(msg('blog.translation_self'), 'INVALID_TRANSLATION');
  }
  const locked = await repo.lockPosts(
    tx,
    [id, translationOf].filter((v): v is string => !!v),
  );
  const own = id ? await repo.translationsOf(tx, id) : [];
  if (!translationOf) {
    // An original: none of its translations may be in its own language.
    if (own.some((row) => row.locale === locale))
      throw conflict(msg('blog.translation_language_taken'), 'TRANSLATION_TAKEN');
    return;
  }
  const original = locked.find((row) => row.id === translationOf);
  if (!original) throw badRequest(msg('blog.translation_missing'), 'INVALID_TRANSLATION');
  if (original.locale === locale) {
    throw badRequest(msg('blog.translation_same_language'), 'INVALID_TRANSLATION');
  }
  if (original.translationOf) {
    throw badRequest(msg('blog.translation_of_translation'), 'INVALID_TRANSLATION');
  }
  if (own.length > 0)
    throw badRequest(msg('blog.translation_has_translations'), 'INVALID_TRANSLATION');
  const others = await repo.translationsOf(tx, translationOf);
  if (others.some((row) => row.id !== id && row.locale === locale)) throw taken();
}

/** The refusal for a save that lost the one-per-language race at the unique index. */
export function translationRaceLost(error: unknown): never {
  if (repo.isTranslationTaken(error)) throw taken();
  throw error;
}
