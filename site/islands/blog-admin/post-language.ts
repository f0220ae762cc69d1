/**
 * A post's language and translation as the blog admin shows and chooses them (issue 21). The
 * admin stays in English; only a language's own name and short mark are in that language.
 */
import type { AdminPost, PostLocale } from '../../../shared/api/blog.ts';
import { AUTONYMS } from '../../i18n/locales.ts';

interface LanguageLabel {
  /** The badge in the list: the language's own short mark. */
  short: string;
  /** Its English name, for the badge's accessible name ('Language: Chinese'). */
  name: string;
  /** Its own name, for the language choice. */
  autonym: string;
}

export const LANGUAGE_LABELS: Record<PostLocale, LanguageLabel> = {
  en: { short: 'EN', name: 'English', autonym: AUTONYMS.en },
  'zh-CN': { short: '中文', name: 'Chinese', autonym: AUTONYMS['zh-CN'] },
};

/**
 * The posts `self` may translate when written in `locale`: originals (not themselves a
 * translation) in another language, other than `self`. The server checks the same rules and
 * refuses the rest, so a stale list at worst earns a refusal with its reason.
 */
export function translationCandidates(
  posts: readonly AdminPost[],
  locale: PostLocale,
  selfId: string | null,
): AdminPost[] {
  return posts.filter(
    (post) => post.id !== selfId && post.locale !== locale && post.translation_of === null,
  );
}

/**
 * The translation of `original` in `locale` other than `selfId`, if any: the server refuses a
 * second one, so the choice names it.
 */
export function existingTranslation(
  posts: readonly AdminPost[],
  original: string,
  locale: PostLocale,
  selfId: string | null,
): AdminPost | undefined {
  return posts.find(
    (post) => post.translation_of === original && post.locale === locale && post.id !== selfId,
  );
}

/** The posts that translate `id` (the list marks an original that has translations). */
export function translationsOf(posts: readonly AdminPost[], id: string): AdminPost[] {
  return posts.filter((post) => post.translation_of === id);
}
