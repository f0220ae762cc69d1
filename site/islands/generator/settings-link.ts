/**
 * Links that open the generator with a finished task's settings (issue 35): "Generate again with
 * these settings" (prompt, mode and options) and "Extend by 7 s" (the source video, its prompt).
 * The settings travel in the address, as the API names them (`?type=text&prompt=…&aspect_ratio=
 * 9:16&seed=42&extend_task_id=…`); both directions live here so the link and the reader cannot
 * drift apart. Files cannot travel: `images` says how many the user has to add again.
 */
import type { VideoOptionsData } from '../../../shared/api/video.ts';
import { IMAGE_MODEL } from '../../../shared/video.ts';
import {
  ASPECT_RATIOS,
  OPTION_FIELDS,
  RESOLUTIONS,
  TIERS,
  MAX_NEGATIVE_PROMPT_LENGTH,
} from '../../../shared/video-options.ts';
import { generatorHref } from '../../lib/site.ts';
import type { GeneratorMode } from './generation-rules.ts';
import {
  choiceOf,
  DEFAULT_CHOICE,
  optionFields,
  optionsOf,
  type OptionChoice,
} from './video-choice.ts';

const IMAGES_PARAM = 'images';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What a generator link carries besides `?type=` and `?prompt=`. */
export interface LinkedSettings {
  choice: OptionChoice;
  /** The video to continue, or null. */
  extendTaskId: string | null;
  /** Images the original video was made with, which the user has to choose again. */
  images: number;
}

/** A finished task as the status and the history describe it. */
export interface TaskSettings {
  id: string;
  prompt: string;
  model: string;
  mode?: GeneratorMode;
  options?: Partial<VideoOptionsData> | null;
  source_task_id?: string | null;
}

const modeOf = (task: TaskSettings): GeneratorMode =>
  task.mode ?? (task.model === IMAGE_MODEL ? 'image' : 'text');

function href(mode: GeneratorMode, prompt: string, fields: [string, string][]): string {
  const query = new URLSearchParams([['prompt', prompt.trim()], ...fields]);
  return `${generatorHref(mode)}&${query}`;
}

/**
 * The generator with this task's prompt, mode and options (an extension continues the same
 * source again); the images it had are counted, not carried.
 */
export function againHref(task: TaskSettings): string {
  const mode = modeOf(task);
  const options = task.options ?? {};
  const extend = task.source_task_id ?? null;
  const context = { mode, lastFrame: false, referenceImages: 0, extend: null };
  const fields = optionFields(optionsOf(choiceOf(options), context), extend);
  const images =
    (mode === 'image' ? 1 : 0) + (options.last_frame ? 1 : 0) + (options.reference_images ?? 0);
  if (images > 0) fields.push([IMAGES_PARAM, String(images)]);
  return href(mode, task.prompt, fields);
}

/** The generator continuing this finished video, its prompt filled in to be edited. */
export function extendHref(task: Pick<TaskSettings, 'id' | 'prompt'>): string {
  return href('text', task.prompt, [[OPTION_FIELDS.extend, task.id]]);
}

function pick<T extends string>(value: string | null, allowed: readonly T[], fallback: T): T {
  return (allowed as readonly string[]).includes(value ?? '') ? (value as T) : fallback;
}

/** The settings a generator address (`location.search`) asks for; anything unknown is ignored. */
export function settingsFromSearch(search: string): LinkedSettings {
  const params = new URLSearchParams(search);
  const get = (name: string) => params.get(name);
  const seed = (get(OPTION_FIELDS.seed) ?? '').trim();
  const extend = (get(OPTION_FIELDS.extend) ?? '').trim();
  const images = Number(get(IMAGES_PARAM));
  return {
    choice: {
      aspectRatio: pick(get(OPTION_FIELDS.aspectRatio), ASPECT_RATIOS, DEFAULT_CHOICE.aspectRatio),
      resolution: pick(get(OPTION_FIELDS.resolution), RESOLUTIONS, DEFAULT_CHOICE.resolution),
      tier: pick(get(OPTION_FIELDS.tier), TIERS, DEFAULT_CHOICE.tier),
      negativePrompt: (get(OPTION_FIELDS.negativePrompt) ?? '').slice(
        0,
        MAX_NEGATIVE_PROMPT_LENGTH,
      ),
      seed: /^\d{1,10}$/.test(seed) ? seed : '',
    },
    extendTaskId: UUID.test(extend) ? extend.toLowerCase() : null,
    images: Number.isInteger(images) && images > 0 && images < 10 ? images : 0,
  };
}
