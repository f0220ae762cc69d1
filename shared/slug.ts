/**
 * Post slugs (spec 5 "Slug preview"). Pure and dependency-light because the same function runs in
 * the editor's URL preview (browser island) and on the server when a post is saved, so the preview
 * always shows the URL the server will store.
 */
// Named import of the one function we use: pinyin-pro is `sideEffects: false` ESM, so the bundler
// drops its segmentation/matching/HTML helpers from the island.
import { pinyin } from 'pinyin-pro';

/** Longest slug we store or preview (spec 5: truncated to 100 characters). */
export const SLUG_MAX_LENGTH = 100;

/** What an empty or all-symbol title becomes (spec 5). */
export const FALLBACK_SLUG = 'untitled-post';

// Latin letters that NFKD does not decompose into a base letter plus combining marks; without this
// table they would simply be removed ("Straße" → "strae").
const UNDECOMPOSABLE_LATIN: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ł: 'l',
  ı: 'i',
};
const UNDECOMPOSABLE_LATIN_RE = /[ßæœøđðþłı]/g;
const HAN_RE = /\p{Script=Han}/u;

/** Cuts to `max` characters without leaving a hyphen dangling at the end. */
function truncateSlug(slug: string, max: number): string {
  return slug.slice(0, max).replace(/-+$/, '');
}

/**
 * Title → URL slug: lower-case; every Chinese character becomes its toneless pinyin syllable as its
 * own word; accented Latin letters lose their accents (é → e, ß → ss); anything that is not a-z,
 * 0-9, underscore, whitespace or hyphen is removed (not replaced, so "what's" → "whats"); runs of
 * whitespace, underscores and hyphens become one hyphen; edges trimmed; at most 100 characters;
 * 'untitled-post' when nothing is left.
 */
export function slugify(title: string): string {
  // NFKD splits accented letters into base + combining mark (and folds full-width ＡＢＣ１２３),
  // so dropping the marks transliterates instead of deleting the letter.
  const folded = title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(UNDECOMPOSABLE_LATIN_RE, (letter) => UNDECOMPOSABLE_LATIN[letter] ?? '');

  // pinyin-pro's dictionary covers all of CJK Unified Ideographs (not a short word list) and picks
  // readings of polyphonic characters from context (重庆 → chong qing, 重要 → zhong yao). Each
  // syllable is one array item and each non-Chinese run one item, so joining with a space makes
  // every syllable its own word. `v: true` writes ü as v (绿 → lv), the usual convention in URLs.
  const words = HAN_RE.test(folded)
    ? pinyin(folded, { toneType: 'none', type: 'array', nonZh: 'consecutive', v: true }).join(' ')
    : folded;

  const slug = words
    .toLowerCase()
    .replace(/[^a-z0-9_\s-]+/g, '')
    .replace(/[\s_-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return truncateSlug(slug, SLUG_MAX_LENGTH) || FALLBACK_SLUG;
}

// A `taken` predicate that never says no would otherwise spin forever.
const MAX_SUFFIX = 100_000;

/**
 * The start every candidate of `uniqueSlug(base)` shares: `base` cut for the longest suffix. A
 * long base is cut shorter for `-2`, `-3`…, so the slugs it may collide with are found by this
 * prefix, not by `base` itself.
 */
export function slugStem(base: string): string {
  const root = truncateSlug(base, SLUG_MAX_LENGTH) || FALLBACK_SLUG;
  return truncateSlug(root, SLUG_MAX_LENGTH - `-${MAX_SUFFIX}`.length) || FALLBACK_SLUG;
}

/**
 * First free slug among `base`, `base-2`, `base-3`…, shortening `base` so the suffixed slug stays
 * within SLUG_MAX_LENGTH. `base` is expected to come from `slugify`.
 */
export function uniqueSlug(base: string, taken: (slug: string) => boolean): string {
  const root = truncateSlug(base, SLUG_MAX_LENGTH) || FALLBACK_SLUG;
  if (!taken(root)) return root;
  for (let n = 2; n <= MAX_SUFFIX; n++) {
    const suffix = `-${n}`;
    const candidate = `${truncateSlug(root, SLUG_MAX_LENGTH - suffix.length) || FALLBACK_SLUG}${suffix}`;
    if (!taken(candidate)) return candidate;
  }
  throw new Error(`No free slug for "${root}" after ${MAX_SUFFIX} attempts`);
}
