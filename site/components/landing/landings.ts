/**
 * The landing pages (content/landings/*.json, one file per page, the file name is the path),
 * checked at build time with their `{{name}}` placeholders filled (see placeholders.ts).
 * Sample prompts are left alone: the build renders them into clips as written.
 */
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
export function prepareLanding(raw: Landing, file: string): Landing {
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
  const landing = fillDeep(raw, file);

  // Search results cut descriptions at about 155 characters.
  if (landing.metaDescription.length > 155) {
    fail(`metaDescription is ${landing.metaDescription.length} characters (max 155).`);
  }
  return landing;
}

/** Every landing page, checked, with sample ids unique across pages. */
export function loadLandings(): Landing[] {
  const files = import.meta.glob<Landing>('../../../content/landings/*.json', {
    eager: true,
    import: 'default',
  });
  const landings = Object.entries(files).map(([file, raw]) => prepareLanding(raw, file));
  const ids = landings.flatMap((landing) => landing.samples.map((sample) => sample.id));
  const duplicate = ids.find((id, index) => ids.indexOf(id) !== index);
  if (duplicate) throw new Error(`content/landings: sample id ${duplicate} is used twice.`);
  return landings;
}
