/**
 * The generator's creative options as one piece of state (issue 35): what the Advanced panel
 * chose (or a link asked for, until the user changes it), the extra images, the video being
 * extended, and what follows from them: the options, their price, whether they differ from the
 * default, and the quote that says whether a video service can make them.
 */
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import type { PublicUser } from '../../../shared/api/auth.ts';
import { VIDEO_SECONDS } from '../../../shared/video.ts';
import {
  EXTEND_SECONDS,
  hasOptions,
  OPTION_FIELDS,
  videoPrice,
  type VideoOptions,
} from '../../../shared/video-options.ts';
import { subscribeToUrl } from '../shared/url-state.ts';
import { modelFor, type GeneratorMode } from './generation-rules.ts';
import type { ImageChoice } from './ImageUpload.tsx';
import { settingsFromSearch } from './settings-link.ts';
import { useQuote, type QuoteState } from './use-quote.ts';
import { useSourceTask, type SourceTask } from './use-source-task.ts';
import {
  DEFAULT_CHOICE,
  optionsOf,
  quoteQuery,
  seedValue,
  type OptionChoice,
} from './video-choice.ts';

const searchOfUrl = () => window.location.search;

export interface VideoChoice {
  choice: OptionChoice;
  setChoice: (next: OptionChoice) => void;
  lastFrame: ImageChoice | null;
  setLastFrame: (image: ImageChoice | null) => void;
  references: ImageChoice[];
  setReferences: (images: ImageChoice[]) => void;
  /** The video being continued (text mode only), and its status. */
  extendTaskId: string | null;
  source: SourceTask | null;
  options: VideoOptions;
  /** Some option differs from the spec's clip. */
  custom: boolean;
  price: number;
  /** Length of the clip this choice makes; null while an extension's source is loading. */
  seconds: number | null;
  quote: QuoteState;
  seedInvalid: boolean;
  /** Images the linked video was made with that are not chosen again yet. */
  missingImages: number;
  advancedOpen: boolean;
  setAdvancedOpen: (open: boolean) => void;
  /** Forget what was typed and chosen (a link's settings take over again). */
  clear: () => void;
}

/** The form's record of image previews: kept ones are freed on unmount, dropped ones at once. */
export interface Previews {
  keep: (images: ImageChoice[]) => void;
  drop: (images: ImageChoice[]) => void;
}

/**
 * The options of the form in `mode` for `user`. `mainImage` is image mode's first frame (counted
 * against the images a link could not carry).
 */
export function useVideoChoice(
  mode: GeneratorMode,
  user: PublicUser | null,
  mainImage: boolean,
  previews: Previews,
): VideoChoice {
  const search = useSyncExternalStore(subscribeToUrl, searchOfUrl, () => '');
  const linked = useMemo(() => settingsFromSearch(search), [search]);
  const [typed, setTyped] = useState<OptionChoice | null>(null);
  const [lastFrame, setLastFrameState] = useState<ImageChoice | null>(null);
  const [references, setReferencesState] = useState<ImageChoice[]>([]);
  const [advancedOpen, setAdvancedOpen] = useState(false);
  const choice = typed ?? linked.choice;

  const linkedCustom = (Object.keys(DEFAULT_CHOICE) as (keyof OptionChoice)[]).some(
    (key) => linked.choice[key] !== DEFAULT_CHOICE[key],
  );
  const linkedKey = linkedCustom ? JSON.stringify(linked.choice) : '';
  useEffect(() => {
    // A link with settings ("Generate again with these settings") shows them, once per link
    // (switching tabs keeps the panel as the user left it).
    if (linkedKey) setAdvancedOpen(true);
  }, [linkedKey]);

  const extendTaskId = mode === 'text' ? linked.extendTaskId : null;
  const source = useSourceTask(extendTaskId, user);
  const sourceTask = source?.state === 'ready' ? source.task : null;
  const extend = extendTaskId
    ? { taskId: extendTaskId, options: sourceTask?.options ?? null }
    : null;
  const options = optionsOf(choice, {
    mode,
    lastFrame: lastFrame !== null,
    referenceImages: references.length,
    extend,
  });
  const custom = hasOptions(options);
  const seedInvalid = Number.isNaN(seedValue(choice.seed));
  const quote = useQuote(
    custom && !seedInvalid ? quoteQuery(modelFor(mode), options, extendTaskId) : null,
  );
  const seconds = !extendTaskId
    ? VIDEO_SECONDS
    : sourceTask
      ? (sourceTask.duration_seconds ?? VIDEO_SECONDS) + EXTEND_SECONDS
      : null;
  const chosenImages = (mainImage ? 1 : 0) + (lastFrame ? 1 : 0) + references.length;

  const setLastFrame = (image: ImageChoice | null) => {
    if (lastFrame && lastFrame !== image) previews.drop([lastFrame]);
    if (image) previews.keep([image]);
    setLastFrameState(image);
  };
  const setReferences = (images: ImageChoice[]) => {
    previews.drop(references.filter((image) => !images.includes(image)));
    previews.keep(images);
    setReferencesState(images);
  };

  return {
    choice,
    setChoice: setTyped,
    lastFrame,
    setLastFrame,
    references,
    setReferences,
    extendTaskId,
    source,
    options,
    custom,
    price: videoPrice(options),
    seconds,
    quote,
    seedInvalid,
    missingImages: Math.max(0, linked.images - chosenImages),
    advancedOpen,
    setAdvancedOpen,
    clear: () => {
      setTyped(null);
      setLastFrame(null);
      setReferences([]);
    },
  };
}

/** The address without the video to extend (Don't extend, or a switch to image mode). */
export function withoutExtend(href: string): string {
  const url = new URL(href, window.location.href);
  url.searchParams.delete(OPTION_FIELDS.extend);
  return url.pathname + url.search + url.hash;
}
