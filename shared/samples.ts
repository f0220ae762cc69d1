/**
 * The sample clips the site content declares (the home gallery, the landing pages, the effects
 * cards): which ids exist and what each one renders. Pure, so the site's /embed/{id} pages and
 * the server's sample renderer (server/domains/site-build/samples.ts) read the same list.
 */

export type SampleClip = {
  /** File name stem: `samples/{id}.mp4`, `samples/{id}.jpg`, page `/embed/{id}`. */
  id: string;
  /** The text the renderer renders. */
  prompt: string;
  /** A human title for the embed page, when the content gives one. */
  title?: string;
  /** Where the clip was declared, for error messages. */
  source: string;
};

const ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A declared sample we render: it has a prompt and no embed elsewhere (an operator's URL). */
function localSample(value: unknown, source: string, fallbackTitle?: unknown): SampleClip | null {
  if (!isObject(value) || typeof value.prompt !== 'string' || value.prompt.trim() === '') {
    return null;
  }
  if (typeof value.embedUrl === 'string' && !value.embedUrl.startsWith('/')) return null;
  const { id } = value;
  if (typeof id !== 'string' || !ID.test(id)) {
    throw new Error(
      `${source}: sample id ${JSON.stringify(id)} must be lowercase words joined by "-".`,
    );
  }
  const title = [value.title, fallbackTitle].find(
    (t): t is string => typeof t === 'string' && t !== '',
  );
  return { id, prompt: value.prompt, ...(title ? { title } : {}), source };
}

/**
 * The sample clips the site content declares, from already-parsed content: gallery entries with
 * a prompt and a local embed, every landing file's `samples`, and effect cards' `sample`.
 * Throws on an id declared twice, since both would write the same file.
 */
export function sampleClipsFromContent(content: {
  gallery?: unknown;
  /** Landing files by name, e.g. `{ 'asmr-video.json': {...} }`. */
  landings?: Readonly<Record<string, unknown>>;
  effects?: unknown;
}): SampleClip[] {
  const clips: SampleClip[] = [];
  if (Array.isArray(content.gallery)) {
    content.gallery.forEach((entry, i) => {
      const clip = localSample(entry, `content/gallery.json entry ${i}`);
      if (clip) clips.push(clip);
    });
  }
  for (const [name, landing] of Object.entries(content.landings ?? {}).sort(([a], [b]) =>
    a.localeCompare(b),
  )) {
    const samples = isObject(landing) ? landing.samples : undefined;
    if (!Array.isArray(samples)) continue;
    samples.forEach((sample, i) => {
      const clip = localSample(sample, `content/landings/${name} sample ${i}`);
      if (clip) clips.push(clip);
    });
  }
  const cards = isObject(content.effects) ? content.effects.cards : undefined;
  if (Array.isArray(cards)) {
    cards.forEach((card, i) => {
      if (!isObject(card)) return;
      const clip = localSample(card.sample, `content/effects.json card ${i}`, card.title);
      if (clip) clips.push(clip);
    });
  }

  const seen = new Map<string, string>();
  for (const clip of clips) {
    const first = seen.get(clip.id);
    if (first) {
      throw new Error(
        `Sample id "${clip.id}" is declared twice (${first} and ${clip.source}); ids name files in /samples, so each must be unique.`,
      );
    }
    seen.set(clip.id, clip.source);
  }
  return clips;
}
