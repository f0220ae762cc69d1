/**
 * The no-JavaScript category filter of /video-effects (STYLE.md: filters that can be CSS): the
 * chips are radio buttons (CategoryFilter.astro) and one `:has()` rule per category hides the
 * cards of the other categories. The rules belong in the page's <head>.
 */
import type { EffectCategory } from './effects.ts';

/** The radio group's name, shared by the chips and the rules that read them. */
export const FILTER_NAME = 'effect-category';
export const ALL = 'all';

/**
 * One rule per category: with its radio checked, cards of other categories are hidden.
 * `scope` holds both the chips and the cards; each card carries `data-category`.
 * "All" needs no rule: with it checked, nothing is hidden.
 */
export function filterCss(
  categories: readonly EffectCategory[],
  scope: string,
  card: string,
): string {
  return categories
    .map(
      ({ slug }) =>
        `${scope}:has(input[name='${FILTER_NAME}'][value='${slug}']:checked) ` +
        `${card}:not([data-category='${slug}']) { display: none; }`,
    )
    .join('\n');
}
