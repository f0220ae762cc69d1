/**
 * The effects catalogue (content/effects.json) as the /video-effects page uses it: categories in
 * chip order, each with a slug for CSS, and cards with the link they open. A card with `href`
 * opens that page (the kissing and ASMR landing pages); any other card opens the generator with
 * its sample prompt filled in, so the thumbnail shows what the prompt makes.
 * The content is checked at build time: a typo fails the build instead of hiding a card.
 */
import effects from '../../../content/effects.json' with { type: 'json' };
import { generatorPromptHref } from '../../islands/generator/prompt-prefill.ts';
import { fillDeep } from '../landing/placeholders.ts';

export interface EffectCategory {
  label: string;
  /** `hero-villain` for "Hero/Villain": safe in ids, attribute values and CSS selectors. */
  slug: string;
}

export interface EffectCard {
  id: string;
  title: string;
  description: string;
  category: EffectCategory;
  href: string;
  sample: { id: string; prompt: string };
}

interface RawCard {
  id: string;
  title: string;
  description: string;
  category: string;
  href?: string;
  sample: { id: string; prompt: string };
}

/** Lower-case words joined by hyphens: "Horror/Fantasy" → "horror-fantasy". */
export function categorySlug(label: string): string {
  return label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** Builds the catalogue from raw content, or throws naming the first problem. */
export function buildCatalogue(raw: { categories: string[]; cards: RawCard[] }): {
  categories: EffectCategory[];
  cards: EffectCard[];
} {
  const categories = raw.categories.map((label) => ({ label, slug: categorySlug(label) }));
  const byLabel = new Map(categories.map((category) => [category.label, category]));
  const ids = new Set<string>();
  const cards = raw.cards.map((card): EffectCard => {
    const category = byLabel.get(card.category);
    if (!category)
      throw new Error(`effects.json: card ${card.id} has unknown category "${card.category}".`);
    if (ids.has(card.id)) throw new Error(`effects.json: card id ${card.id} is used twice.`);
    ids.add(card.id);
    // Sample ids share /samples/ with the gallery and the landing pages (spec: prefix effect-).
    if (!card.sample.id.startsWith('effect-')) {
      throw new Error(`effects.json: sample id ${card.sample.id} must start with "effect-".`);
    }
    return { ...card, category, href: card.href ?? generatorPromptHref(card.sample.prompt) };
  });
  const sampleIds = new Set(cards.map((card) => card.sample.id));
  if (sampleIds.size !== cards.length) throw new Error('effects.json: a sample id is used twice.');
  for (const category of categories) {
    if (!cards.some((card) => card.category === category)) {
      throw new Error(`effects.json: category "${category.label}" has no cards.`);
    }
  }
  return { categories, cards };
}

export const { categories, cards } = buildCatalogue(effects);

/** The page's own copy (title, intro, how-it-works steps, closing call to action). */
export const page = fillDeep(effects.page, 'content/effects.json');
