/**
 * The effects catalogue (content/effects.json; content/zh-CN/effects.json in Chinese) as the
 * /video-effects page uses it: categories in chip order, each with a slug for CSS and a label from
 * messages/effects, and cards with the link they open. A card with `href` opens that page (the
 * kissing and ASMR landing pages); any other card opens the generator with its sample prompt
 * filled in, so the thumbnail shows what the prompt makes. Links lead to the page's language.
 * The content is checked at build time: a typo fails the build instead of hiding a card.
 */
import effects from '../../../content/effects.json' with { type: 'json' };
import effectsZh from '../../../content/zh-CN/effects.json' with { type: 'json' };
import { localizePath, type Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import { generatorPromptHref } from '../../islands/generator/prompt-prefill.ts';
import { fillDeep } from '../landing/placeholders.ts';

export interface EffectCategory {
  /** The chip's text in the page's language. */
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
  /** `guide`: the effect's own landing page; `generator`: the generator with the prompt. */
  opens: 'guide' | 'generator';
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

type RawCatalogue = { categories: string[]; cards: RawCard[] };

/** Lower-case words joined by hyphens: "Horror/Fantasy" → "horror-fantasy". */
export function categorySlug(label: string): string {
  return label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** The chips' texts by category slug (messages/effects); "all" is the page's own chip. */
const CATEGORY_LABELS: Readonly<Record<string, (locale: Locale) => string>> = {
  all: m.effects_category_all,
  interaction: m.effects_category_interaction,
  appearance: m.effects_category_appearance,
  emotions: m.effects_category_emotions,
  entertainment: m.effects_category_entertainment,
  'hero-villain': m.effects_category_hero_villain,
  'horror-fantasy': m.effects_category_horror_fantasy,
  xmas: m.effects_category_xmas,
  others: m.effects_category_others,
};

/** A chip's text; a category without a message fails the build instead of showing English. */
export function categoryLabel(slug: string, locale: Locale): string {
  const label = CATEGORY_LABELS[slug];
  if (!label) throw new Error(`effects: category "${slug}" has no effects_category_… message.`);
  return label(locale);
}

/** Builds the catalogue from raw content, or throws naming the first problem. */
export function buildCatalogue(
  raw: RawCatalogue,
  locale: Locale = 'en',
): { categories: EffectCategory[]; cards: EffectCard[] } {
  const keyed = raw.categories.map((key) => {
    const slug = categorySlug(key);
    return { key, category: { label: categoryLabel(slug, locale), slug } };
  });
  const categories = keyed.map(({ category }) => category);
  const byKey = new Map(keyed.map(({ key, category }) => [key, category]));
  const ids = new Set<string>();
  const cards = raw.cards.map((card): EffectCard => {
    const category = byKey.get(card.category);
    if (!category)
      throw new Error(`effects.json: card ${card.id} has unknown category "${card.category}".`);
    if (ids.has(card.id)) throw new Error(`effects.json: card id ${card.id} is used twice.`);
    ids.add(card.id);
    // Sample ids share /samples/ with the gallery and the landing pages (spec: prefix effect-).
    if (!card.sample.id.startsWith('effect-')) {
      throw new Error(`effects.json: sample id ${card.sample.id} must start with "effect-".`);
    }
    const href = card.href ?? generatorPromptHref(card.sample.prompt);
    const opens = card.href ? 'guide' : 'generator';
    return { ...card, category, href: localizePath(href, locale), opens };
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

/**
 * A translation must hold the same catalogue: the same categories and, in the same order, the
 * same cards in the same category, linking the same page and showing the same sample clip.
 */
function checkTranslation(english: RawCatalogue, translated: RawCatalogue, file: string) {
  const fail = (problem: string): never => {
    throw new Error(`${file}: ${problem}`);
  };
  if (translated.categories.join() !== english.categories.join()) {
    fail('categories must be the English ones, in the same order.');
  }
  if (translated.cards.length !== english.cards.length) fail('has a different number of cards.');
  english.cards.forEach((card, i) => {
    const other = translated.cards[i]!;
    if (other.id !== card.id) fail(`card ${i} is "${other.id}", not "${card.id}".`);
    if (other.category !== card.category) fail(`card ${card.id} is in another category.`);
    if (other.href !== card.href) fail(`card ${card.id} links another page.`);
    if (other.sample.id !== card.sample.id) fail(`card ${card.id} shows another sample.`);
  });
}

export interface EffectsContent {
  categories: EffectCategory[];
  cards: EffectCard[];
  /** The page's own copy (title, intro, how-it-works steps, closing call to action). */
  page: typeof effects.page;
}

checkTranslation(effects, effectsZh, 'content/zh-CN/effects.json');

const CONTENT: Record<Locale, EffectsContent> = {
  en: { ...buildCatalogue(effects), page: fillDeep(effects.page, 'content/effects.json') },
  'zh-CN': {
    ...buildCatalogue(effectsZh, 'zh-CN'),
    page: fillDeep(effectsZh.page, 'content/zh-CN/effects.json', 'zh-CN'),
  },
};

/** The catalogue and the page's copy in a language. */
export function effectsFor(locale: Locale): EffectsContent {
  return CONTENT[locale];
}

export const { categories, cards } = CONTENT.en;
