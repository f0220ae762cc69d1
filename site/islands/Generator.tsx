/**
 * The generator (spec 2 "Generator", 4 "Generation", 5 "Generate"): mode tabs that follow
 * `?type=`, the prompt, the image in image mode, the button area that depends on the user and
 * credits, and the result panel. The fixed settings and cost line arrive as static children.
 * Issue 35: the Advanced options, priced; a link may fill them in ("Generate again with these
 * settings") or name a video to extend. With none chosen the form is the spec's.
 * Every text is a message in the page's language (`locale`, messages/generator/).
 */
import {
  lazy,
  Suspense,
  useEffect,
  useId,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
  type SubmitEvent,
} from 'react';
import { localizePath, type Locale } from '../i18n/locales.ts';
import * as m from '../i18n/messages.ts';
import { formatNumber } from '../lib/format.ts';
import { $authReady, $authToken, $user } from '../stores/auth.ts';
import { $credits } from '../stores/credits.ts';
import AdvancedDisclosure from './generator/AdvancedDisclosure.tsx';
import ButtonArea from './generator/ButtonArea.tsx';
import {
  $generation,
  resetGeneration,
  stopPolling,
  submitGeneration,
  syncGenerationUser,
} from './generator/generation.ts';
import { validateGeneration, type GeneratorMode } from './generator/generation-rules.ts';
import { MAX_SEED } from '../../shared/video-options.ts';
import { VIDEO_SECONDS } from '../../shared/video.ts';
import ImageUpload, { type ImageChoice } from './generator/ImageUpload.tsx';
import ModeTabs, { tabId } from './generator/ModeTabs.tsx';
import { PROMPT_MAX_LENGTH, promptFromSearch } from './generator/prompt-prefill.ts';
import ResultPanel from './generator/ResultPanel.tsx';
import { useVideoChoice, withoutExtend } from './generator/use-video-choice.ts';
import { setUrl, subscribeToUrl } from './shared/url-state.ts';
import { useHydratedStore } from './shared/use-hydrated-store.ts';

// Shown only with options chosen or a video to extend: loaded then, not up front.
const ExtendBanner = lazy(() =>
  import('./generator/ChoiceNotes.tsx').then((module) => ({ default: module.ExtendBanner })),
);
const ChosenOptions = lazy(() =>
  import('./generator/ChoiceNotes.tsx').then((module) => ({ default: module.ChosenOptions })),
);
const OptionSettings = lazy(() =>
  import('./generator/ChoiceNotes.tsx').then((module) => ({ default: module.OptionSettings })),
);

/** Below this width the result panel sits under the form, so it is scrolled into view. */
const ONE_COLUMN_QUERY = '(max-width: 899px)';

const PLACEHOLDERS: Record<GeneratorMode, (locale: Locale) => string> = {
  text: m.generator_placeholder_text,
  image: m.generator_placeholder_image,
};

// ---------- The mode lives in the URL (spec 2: `?type=text|image`, default text) ----------

function modeFromUrl(): GeneratorMode {
  return new URLSearchParams(window.location.search).get('type') === 'image' ? 'image' : 'text';
}

/** The prompt a link asked for (`?prompt=`, from effect cards and landing pages). */
function promptFromUrl(): string {
  return promptFromSearch(window.location.search);
}

/**
 * Switching tabs rewrites `?type=` in place, keeping the other parameters but a video to extend
 * (an extension is made from a prompt, in text mode).
 */
function writeModeToUrl(mode: GeneratorMode): void {
  const url = new URL(window.location.href);
  url.searchParams.set('type', mode);
  const href = url.pathname + url.search + url.hash;
  setUrl(mode === 'image' ? withoutExtend(href) : href, 'replace');
}

// ---------- The island ----------

interface GeneratorProps {
  /** Static HTML from the page: the fixed settings line, cost and estimated time. */
  children?: ReactNode;
  /** The page's language. */
  locale?: Locale;
}

type ErrorField = 'prompt' | 'image' | null;

export default function Generator({ children, locale = 'en' }: GeneratorProps) {
  const ready = useHydratedStore($authReady);
  const token = useHydratedStore($authToken);
  const user = useHydratedStore($user);
  const credits = useHydratedStore($credits);
  const generation = useHydratedStore($generation);
  const mode = useSyncExternalStore<GeneratorMode>(subscribeToUrl, modeFromUrl, () => 'text');

  const linkedPrompt = useSyncExternalStore(subscribeToUrl, promptFromUrl, () => '');
  // Until the user edits it, the prompt is the one the link asked for. Read through the URL
  // store (not an effect) so hydration matches the empty server render and then fills in.
  const [typedPrompt, setPrompt] = useState<string | null>(null);
  const prompt = typedPrompt ?? linkedPrompt;
  const [image, setImage] = useState<ImageChoice | null>(null);
  const [formError, setFormError] = useState<{ message: string; field: ErrorField } | null>(null);

  const idPrefix = useId();
  const panelId = `${idPrefix}-panel`;
  const promptId = `${idPrefix}-prompt`;
  const imageId = `${idPrefix}-image`;
  const errorId = `${idPrefix}-error`;
  const promptRef = useRef<HTMLTextAreaElement>(null);
  const resultRef = useRef<HTMLElement>(null);
  // Every preview URL this form made, so the ones still alive can be freed on unmount.
  const [previewUrls] = useState(() => new Set<string>());

  const signedIn = ready && Boolean(token && user);
  const busy = generation.phase === 'submitting' || generation.phase === 'generating';
  const userId = ready ? (signedIn && user ? user.id : null) : undefined;
  const video = useVideoChoice(mode, signedIn ? user : null, mode === 'image' && image !== null, {
    keep: (images) => images.forEach((i) => previewUrls.add(i.previewUrl)),
    drop: (images) =>
      images.forEach((i) => {
        URL.revokeObjectURL(i.previewUrl);
        previewUrls.delete(i.previewUrl);
      }),
  });

  useEffect(() => {
    return () => {
      // Spec: stop polling when the generator goes away.
      stopPolling();
      for (const url of previewUrls) URL.revokeObjectURL(url);
      previewUrls.clear();
    };
  }, [previewUrls]);

  useEffect(() => {
    // Text typed into the server-rendered textarea before this island went live is the user's
    // prompt: keep it rather than losing it to the empty initial state (slow phones).
    const early = promptRef.current?.value ?? '';
    if (early !== '' && early !== promptFromUrl())
      setPrompt((current) => current ?? early.slice(0, PROMPT_MAX_LENGTH));
  }, []);

  useEffect(() => {
    // Wait for the stored session; then follow it (and resume a task after a reload).
    if (userId !== undefined) syncGenerationUser(userId);
  }, [userId]);

  const changeMode = (next: GeneratorMode) => {
    if (next === mode) return;
    writeModeToUrl(next);
    setFormError(null);
  };

  const changeImage = (next: ImageChoice | null) => {
    if (image && image.previewUrl !== next?.previewUrl) {
      URL.revokeObjectURL(image.previewUrl);
      previewUrls.delete(image.previewUrl);
    }
    if (next) previewUrls.add(next.previewUrl);
    setImage(next);
    setFormError(null);
  };

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const input = {
      mode,
      prompt,
      image: image?.file ?? null,
      options: video.options,
      extendTaskId: video.extendTaskId,
      lastFrame: video.lastFrame?.file ?? null,
      referenceImages: video.references.map((i) => i.file),
    };
    const signedInUser = signedIn ? user : null;
    // The spec's checks first, in its order; then the seed the Advanced panel already flags.
    const problem =
      validateGeneration(input, signedInUser, credits, locale, video.price) ??
      (video.seedInvalid
        ? m.generator_seed_invalid(locale, { max: formatNumber(MAX_SEED, locale) })
        : null);
    if (problem) {
      const field: ErrorField =
        prompt.trim() === '' ? 'prompt' : mode === 'image' && !image ? 'image' : null;
      setFormError({ message: problem, field });
      if (field === 'prompt') promptRef.current?.focus();
      if (field === 'image') document.getElementById(imageId)?.focus();
      return;
    }
    setFormError(null);
    void submitGeneration(input);
    // One column: the progress is below the form; bring it into view.
    if (window.matchMedia(ONE_COLUMN_QUERY).matches) {
      resultRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
    }
  };

  const onReset = () => {
    resetGeneration();
    promptRef.current?.focus();
  };

  /** "Generate again with these settings" and "Extend by 7 s" from the result: refill the form. */
  const applySettings = (href: string) => {
    setUrl(localizePath(href, locale), 'push');
    setPrompt(null);
    changeImage(null);
    video.clear();
    resetGeneration();
    promptRef.current?.focus({ preventScroll: true });
    promptRef.current?.closest('.gen-form-card')?.scrollIntoView({ block: 'start' });
  };

  const stopExtending = () => {
    setUrl(withoutExtend(window.location.href), 'replace');
  };

  const promptError = formError?.field === 'prompt';

  return (
    <div className="gen-layout">
      <div className="gen-card gen-form-card">
        <ModeTabs
          mode={mode}
          onChange={changeMode}
          panelId={panelId}
          idPrefix={idPrefix}
          locale={locale}
        />
        <form
          id={panelId}
          className="gen-form"
          role="tabpanel"
          aria-labelledby={tabId(idPrefix, mode)}
          onSubmit={onSubmit}
          noValidate
          data-mode={mode}
          data-options={video.custom || undefined}
        >
          {video.source && (
            <Suspense fallback={null}>
              <ExtendBanner
                source={video.source}
                seconds={video.seconds}
                onCancel={stopExtending}
                locale={locale}
              />
            </Suspense>
          )}

          {mode === 'image' && (
            <ImageUpload
              id={imageId}
              image={image}
              onChange={changeImage}
              onReject={(message) => setFormError({ message, field: 'image' })}
              errorId={formError?.field === 'image' ? errorId : undefined}
              locale={locale}
            />
          )}

          <div className="gen-field">
            <label htmlFor={promptId} className="gen-label">
              {mode === 'image'
                ? m.generator_prompt_label_image(locale)
                : m.generator_prompt_label(locale)}
            </label>
            <textarea
              ref={promptRef}
              id={promptId}
              className="input gen-textarea"
              name="prompt"
              rows={6}
              maxLength={PROMPT_MAX_LENGTH}
              placeholder={PLACEHOLDERS[mode](locale)}
              value={prompt}
              onChange={(event) => {
                setPrompt(event.target.value);
                if (formError?.field === 'prompt') setFormError(null);
              }}
              aria-invalid={promptError || undefined}
              aria-describedby={`${idPrefix}-count${promptError ? ` ${errorId}` : ''}`}
              data-testid="prompt"
            />
            <p className="gen-counter" id={`${idPrefix}-count`}>
              <span className="sr-only">{m.generator_characters_used(locale)}</span>
              {formatNumber(prompt.length, locale)}/{formatNumber(PROMPT_MAX_LENGTH, locale)}
            </p>
          </div>

          <AdvancedDisclosure
            open={video.advancedOpen}
            onOpenChange={video.setAdvancedOpen}
            chosen={
              video.custom ? (
                <Suspense fallback={null}>
                  <ChosenOptions options={video.options} locale={locale} />
                </Suspense>
              ) : null
            }
            idPrefix={idPrefix}
            mode={mode}
            choice={video.choice}
            onChoice={video.setChoice}
            extending={video.extendTaskId !== null}
            lastFrame={video.lastFrame}
            onLastFrame={video.setLastFrame}
            references={video.references}
            onReferences={video.setReferences}
            onReject={(message) => setFormError({ message, field: null })}
            seedInvalid={video.seedInvalid}
            locale={locale}
          />

          {video.missingImages > 0 && (
            <p className="gen-note" data-testid="images-not-kept">
              {m.generator_images_not_kept(locale)}
            </p>
          )}

          {children}
          {video.custom && (
            <Suspense fallback={null}>
              <OptionSettings
                options={video.options}
                seconds={video.seconds ?? VIDEO_SECONDS}
                price={video.price}
                locale={locale}
              />
            </Suspense>
          )}

          <div className="gen-form__alert" role="alert">
            {formError && (
              <p className="gen-alert" id={errorId} data-testid="form-error">
                {formError.message}
              </p>
            )}
          </div>

          <div className="gen-actions">
            <ButtonArea
              ready={ready}
              signedIn={signedIn}
              credits={credits}
              busy={busy}
              price={video.price}
              priced={video.custom}
              quote={video.quote}
              locale={locale}
            />
          </div>
        </form>
      </div>

      <ResultPanel
        state={generation}
        onReset={onReset}
        onUseSettings={applySettings}
        knownSource={
          video.source?.state === 'ready'
            ? { id: video.source.task.id, prompt: video.source.task.prompt }
            : null
        }
        panelRef={resultRef}
        locale={locale}
      />
    </div>
  );
}
