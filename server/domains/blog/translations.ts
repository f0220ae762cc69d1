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

/** The group a post belongs to: its original's id (an original's own). */
export const groupOf = (post: Pick<TranslationRow, 'id' | 'translationOf'>) =>
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

export const TRANSLATION_MESSAGES = {
  self: 'An article cannot be a translation of itself. Choose another article or none.',
  missing:
    'The article this one should translate does not exist (it may have been deleted). Choose another article or none.',
  sameLanguage:
    'A translation must be in another language than the article it translates. Change the language or choose another article.',
  ofTranslation:
    'That article is itself a translation. Choose the original article it translates instead.',
  hasTranslations:
    'This article has translations of its own, so it cannot also be a translation. Unlink its translations first.',
  taken:
    'That article already has a translation in this language. Edit that translation, or unlink it first.',
  languageTaken:
    'This article already has a translation in the language you chose, so it cannot be written in it too. Choose another language or unlink that translation.',
} as const;

const taken = () => conflict(TRANSLATION_MESSAGES.taken, 'TRANSLATION_TAKEN');

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
    throw badRequest(TRANSLATION_MESSAGES.self, 'INVALID_TRANSLATION');
  }
  const locked = await repo.lockPosts(
    tx,
    [id, translationOf].filter((v): v is string => !!v),
  );
  const own = id ? await repo.translationsOf(tx, id) : [];
  if (!translationOf) {
    // An original: none of its translations may be in its own language.
    if (own.some((row) => row.locale === locale))
      throw conflict(TRANSLATION_MESSAGES.languageTaken, 'TRANSLATION_TAKEN');
    return;
  }
  const original = locked.find((row) => row.id === translationOf);
  if (!original) throw badRequest(TRANSLATION_MESSAGES.missing, 'INVALID_TRANSLATION');
  if (original.locale === locale) {
    throw badRequest(TRANSLATION_MESSAGES.sameLanguage, 'INVALID_TRANSLATION');
  }
  if (original.translationOf) {
    throw badRequest(TRANSLATION_MESSAGES.ofTranslation, 'INVALID_TRANSLATION');
  }
  if (own.length > 0) throw badRequest(TRANSLATION_MESSAGES.hasTranslations, 'INVALID_TRANSLATION');
  const others = await repo.translationsOf(tx, translationOf);
  if (others.some((row) => row.id !== id && row.locale === locale)) throw taken();
}

/** The refusal for a save that lost the one-per-language race at the unique index. */
export function translationRaceLost(error: unknown): never {
  if (repo.isTranslationTaken(error)) throw taken();
  throw error;
}
