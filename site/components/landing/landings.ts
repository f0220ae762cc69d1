/**
 * The landing pages (content/landings/*.json, one file per page, the file name is the path;
 * content/zh-CN/landings/ in Chinese), checked at build time with their `{{name}}` placeholders
 * filled (see placeholders.ts). Sample prompts are left alone: the build renders the English ones
 * into clips as written, and a translation shows the same clips.
 */
import type { Locale } from '../../i18n/locales.ts';
import { fillDeep } from './placeholders.ts';

export interface LandingSample {
  id: string;
  title: string;
  description: string;
  prompt: string;
}

export interface LandingSection {
  id: string;
  heading: string;
  /** `steps` is an ordered how-to; `cards` a grid of independent points. */
  style: 'cards' | 'steps';
  items: { title: string; text: string }[];
}

export interface Landing {
  slug: string;
  /** Short name of the effect (VideoObject names, the share image's alt text). */
  title: string;
  metaTitle: string;
  metaDescription: string;
  h1: string;
  intro: string;
  /** When the sample clips were published (VideoObject.uploadDate), YYYY-MM-DD. */
  uploadDate: string;
  samples: LandingSample[];
  sections: LandingSection[];
  faq: { question: string; answer: string }[];
  /** The closing call to action; `prompt` is prefilled in the generator it opens. */
  cta: { heading: string; label: string; text: string; prompt: string };
}

/** Checks one landing file and fills its copy; throws naming the file and the problem. */
export function prepareLanding(raw: Landing, file: string, locale: Locale = 'en'): Landing {
  const fail = (problem: string): never => {
    throw new Error(`${file}: ${problem}`);
  };
  if (`${raw.slug}.json` !== file.split('/').pop())
    fail(`slug "${raw.slug}" must match the file name.`);
  if (raw.samples.length !== 3) fail(`needs 3 samples, has ${raw.samples.length}.`);
  if (raw.faq.length < 5 || raw.faq.length > 6) fail(`needs 5-6 FAQ items, has ${raw.faq.length}.`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(raw.uploadDate)) fail('uploadDate must be YYYY-MM-DD.');
  for (const sample of raw.samples) {
    if (/\{\{/.test(sample.prompt)) fail(`sample ${sample.id}: prompts are rendered as written.`);
    if (sample.id.startsWith('effect-')) fail(`sample ${sample.id}: effect- belongs to effects.`);
  }
  // Sample prompts hold no placeholder (checked above), so filling leaves them as written.
  const landing = fillDeep(raw, file, locale);

  // Search results cut descriptions at about 155 characters.
  if (landing.metaDescription.length > 155) {
    fail(`metaDescription is ${landing.metaDescription.length} characters (max 155).`);
  }
  return landing;
}

const FILES: Record<Locale, Record<string, Landing>> = {
  en: import.meta.glob<Landing>('../../../content/landings/*.json', {
    eager: true,
    import: 'default',
  }),
  'zh-CN': import.meta.glob<Landing>('../../../content/zh-CN/landings/*.json', {
    eager: true,
    import: 'default',
  }),
};

/**
 * A translated page must show what the English one shows: the same samples (the clips are made
 * from the English prompts), copy sections and upload date.
 */
function checkTranslation(english: Landing, translated: Landing, file: string): void {
  const fail = (problem: string): never => {
    throw new Error(`${file}: ${problem}`);
  };
  const ids = (landing: Landing) => landing.samples.map((sample) => sample.id).join();
  if (ids(translated) !== ids(english)) fail('samples must be the English ones, in order.');
  const sections = (landing: Landing) =>
    landing.sections.map((s) => `${s.id}:${s.style}:${s.items.length}`).join();
  if (sections(translated) !== sections(english)) fail('sections differ from the English page.');
  if (translated.uploadDate !== english.uploadDate) fail('uploadDate differs from English.');
}

/** Every landing page in a language, checked, with sample ids unique across pages. */
export function loadLandings(locale: Locale = 'en'): Landing[] {
  const landings = Object.entries(FILES[locale]).map(([file, raw]) =>
    prepareLanding(raw, file, locale),
  );
  const ids = landings.flatMap((landing) => landing.samples.map((sample) => sample.id));
  const duplicate = ids.find((id, index) => ids.indexOf(id) !== index);
  if (duplicate) throw new Error(`content/landings: sample id ${duplicate} is used twice.`);
  if (locale !== 'en') {
    const english = new Map(loadLandings('en').map((landing) => [landing.slug, landing]));
    if (landings.length !== english.size) throw new Error(`${locale} landings: not one per page.`);
    for (const landing of landings) {
      const original = english.get(landing.slug);
      const file = `content/${locale}/landings/${landing.slug}.json`;
      if (!original) throw new Error(`${file}: no English page with this slug.`);
      checkTranslation(original, landing, file);
    }
  }
  return landings;
}
