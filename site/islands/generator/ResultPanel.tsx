/**
 * The result side of the generator (spec 2 "Generator", 4 "Generation"): idle placeholder,
 * progress while generating, the video with Download and Generate New, or the error with
 * Try Again and the next step that fits it. Issue 35: the task's length, options and source,
 * and "Generate again with these settings" and "Extend by 7 s" under a finished video.
 */
import {
  createContext,
  lazy,
  Suspense,
  useContext,
  useEffect,
  useState,
  type RefObject,
} from 'react';
import { localizePath, type Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import * as icons from '../../lib/icons/index.ts';
import type { GenerationState } from './generation.ts';
import { generationErrorText, nextStepFor, type GenerationError } from './generation-rules.ts';
import DownloadButton from '../shared/DownloadButton.tsx';
import Icon from '../shared/Icon.tsx';
import SignInLink from '../shared/SignInLink.tsx';
import type { TaskFactsData } from './TaskFacts.tsx';

const ResultDetails = lazy(() => import('./ResultDetails.tsx'));

interface KnownSource {
  id: string;
  prompt: string;
}

const KnownSourceContext = createContext<KnownSource | null>(null);

const HISTORY_PATH = '/video-history';

interface ResultPanelProps {
  state: GenerationState;
  locale: Locale;
  /** Try Again and Generate New: back to the form. */
  onReset: () => void;
  /** Refill the form from a settings link (Generate again, Extend). */
  onUseSettings: (href: string) => void;
  /** The video being extended on this page, to name an extension's source by its prompt. */
  knownSource?: KnownSource | null;
  panelRef?: RefObject<HTMLElement | null>;
}

type PanelState = 'idle' | 'generating' | 'success' | 'error';

function panelState(state: GenerationState): PanelState {
  return state.phase === 'submitting' ? 'generating' : state.phase;
}

/** 83 → "1:23". */
function formatElapsed(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  return `${minutes}:${String(seconds % 60).padStart(2, '0')}`;
}

function statusText(state: GenerationState, locale: Locale): string {
  if (state.phase === 'submitting') {
    return state.mode === 'image'
      ? m.generator_status_uploading(locale)
      : m.generator_status_sending(locale);
  }
  if (state.phase !== 'generating') return '';
  // The server's own status line, in the page's language (it reads Accept-Language).
  if (state.statusMessage) return state.statusMessage;
  return state.status === 'processing'
    ? m.generator_status_processing(locale)
    : m.generator_status_queued(locale);
}

/** What the polite live region says: state changes, not every percent. */
function announcement(state: GenerationState, locale: Locale): string {
  if (state.phase === 'success') return m.generator_ready_announcement(locale);
  return statusText(state, locale);
}

/** "History" linked, inside a sentence of the page's language. */
function HistoryLink({ locale }: { locale: Locale }) {
  return <a href={localizePath(HISTORY_PATH, locale)}>{m.generator_history(locale)}</a>;
}

function Elapsed({ startedAt }: { startedAt: number }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, []);
  const seconds = Math.max(0, Math.floor((now - startedAt) / 1000));
  return <span className="gen-elapsed">{formatElapsed(seconds)}</span>;
}

function Idle({ locale }: { locale: Locale }) {
  return (
    <div className="gen-result__idle">
      <span className="icon-circle">
        <Icon icon={icons.film} />
      </span>
      <p className="gen-result__title">{m.generator_idle_title(locale)}</p>
      <p className="gen-result__text">{m.generator_idle_text(locale)}</p>
    </div>
  );
}

/** The task's length, options and source, once the server has described it. */
function Facts({ task, locale }: { task: TaskFactsData | null; locale: Locale }) {
  const known = useContext(KnownSourceContext);
  if (!task) return null;
  const label = known && known.id === task.source_task_id ? known.prompt : null;
  return (
    <Suspense fallback={null}>
      <ResultDetails task={task} part="facts" sourceLabel={label} locale={locale} />
    </Suspense>
  );
}

function Generating({
  state,
  locale,
}: {
  state: Extract<GenerationState, { phase: 'submitting' | 'generating' }>;
  locale: Locale;
}) {
  const progress = state.phase === 'generating' ? state.progress : null;
  return (
    <div className="gen-result__generating">
      <div className="gen-stage" aria-hidden="true">
        <span className="spinner" />
      </div>
      <p className="gen-result__title">{m.generator_generating_title(locale)}</p>
      <p className="gen-status">{statusText(state, locale)}</p>
      <div
        className={`gen-progress${progress === null ? ' is-indeterminate' : ''}`}
        role="progressbar"
        aria-label={m.generator_progress_label(locale)}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={progress ?? undefined}
        aria-valuetext={progress === null ? m.generator_progress_starting(locale) : `${progress}%`}
        data-testid="progress"
      >
        <span className="gen-progress__bar" style={{ width: `${progress ?? 0}%` }} />
      </div>
      <dl className="gen-facts">
        <div>
          <dt>{m.generator_progress(locale)}</dt>
          <dd>{progress === null ? '…' : `${progress}%`}</dd>
        </div>
        <div>
          <dt>{m.generator_elapsed(locale)}</dt>
          <dd>
            <Elapsed startedAt={state.startedAt} />
          </dd>
        </div>
        <div>
          <dt>{m.generator_estimated_time_label(locale)}</dt>
          <dd>{m.generator_estimated_time(locale)}</dd>
        </div>
      </dl>
      {state.prompt && <p className="gen-result__prompt">“{state.prompt}”</p>}
      {state.phase === 'generating' && <Facts task={state.task} locale={locale} />}
      <p className="gen-result__note">
        {m.generator_progress_note_before(locale)}
        <HistoryLink locale={locale} />
        {m.generator_progress_note_after(locale)}
      </p>
    </div>
  );
}

function Success({
  state,
  onReset,
  onUseSettings,
  locale,
}: {
  state: Extract<GenerationState, { phase: 'success' }>;
  onReset: () => void;
  onUseSettings: (href: string) => void;
  locale: Locale;
}) {
  return (
    <div className="gen-result__success">
      <video
        key={state.videoUrl}
        className="gen-video"
        src={state.videoUrl}
        poster={state.posterUrl ?? undefined}
        controls
        playsInline
        preload="metadata"
        data-testid="result-video"
        data-aspect={state.task?.options?.aspect_ratio}
        aria-label={m.generator_video_label(locale)}
      />
      {state.prompt && <p className="gen-result__prompt">“{state.prompt}”</p>}
      <Facts task={state.task} locale={locale} />
      <div className="gen-result__actions">
        <DownloadButton
          url={state.videoUrl}
          prompt={state.prompt}
          className="btn btn-primary"
          locale={locale}
        />
        <button
          type="button"
          className="btn btn-secondary"
          onClick={onReset}
          data-testid="generate-new"
        >
          <Icon icon={icons.plus} />
          {m.generator_generate_new(locale)}
        </button>
      </div>
      {state.task && (
        <div className="gen-result__actions gen-result__actions--more">
          <Suspense fallback={null}>
            <ResultDetails
              task={{ ...state.task, prompt: state.task.prompt || state.prompt }}
              part="actions"
              onUse={onUseSettings}
              locale={locale}
            />
          </Suspense>
        </div>
      )}
      <p className="gen-result__note">
        {m.generator_saved_before(locale)}
        <HistoryLink locale={locale} />
        {m.generator_saved_after(locale)}
      </p>
    </div>
  );
}

/** The next step after a failure besides Try Again (nextStepFor says which). */
function NextStep({ error, locale }: { error: GenerationError; locale: Locale }) {
  const next = nextStepFor(error);
  if (next === 'buyCredits') {
    return (
      <a
        className="btn btn-secondary"
        href={localizePath('/pricing', locale)}
        data-testid="failure-next-step"
      >
        {m.generator_buy_credits(locale)}
      </a>
    );
  }
  if (next === 'signIn') {
    return (
      <SignInLink className="btn btn-secondary" data-testid="failure-next-step" locale={locale}>
        {m.generator_log_in(locale)}
      </SignInLink>
    );
  }
  if (next === 'history') {
    return (
      <p className="gen-result__note" data-testid="failure-next-step">
        {m.generator_may_finish_before(locale)}
        <HistoryLink locale={locale} />
        {m.generator_may_finish_after(locale)}
      </p>
    );
  }
  return null;
}

function Failure({
  error,
  onReset,
  locale,
}: {
  error: GenerationError;
  onReset: () => void;
  locale: Locale;
}) {
  return (
    <div className="gen-result__error">
      <div className="gen-result__alert" role="alert">
        <span className="icon-circle gen-result__icon--error">
          <Icon icon={icons.alert} />
        </span>
        <p className="gen-result__title">{m.generator_error_title(locale)}</p>
        <p className="gen-result__text" data-testid="result-error">
          {generationErrorText(error, locale) || m.generator_error_fallback(locale)}
        </p>
      </div>
      <button type="button" className="btn btn-primary" onClick={onReset} data-testid="try-again">
        <Icon icon={icons.retry} />
        {m.generator_try_again(locale)}
      </button>
      <NextStep error={error} locale={locale} />
    </div>
  );
}

export default function ResultPanel({
  state,
  onReset,
  onUseSettings,
  knownSource = null,
  panelRef,
  locale,
}: ResultPanelProps) {
  const current = panelState(state);
  return (
    <KnownSourceContext value={knownSource}>
      <section
        ref={panelRef}
        className={`gen-card gen-result gen-result--${current}`}
        data-testid="result-panel"
        data-state={current}
        aria-labelledby="gen-result-heading"
        tabIndex={-1}
      >
        <h2 id="gen-result-heading" className="gen-card__heading">
          {m.generator_result_heading(locale)}
        </h2>
        <p className="sr-only" aria-live="polite">
          {announcement(state, locale)}
        </p>
        {state.phase === 'idle' && <Idle locale={locale} />}
        {(state.phase === 'submitting' || state.phase === 'generating') && (
          <Generating state={state} locale={locale} />
        )}
        {state.phase === 'success' && (
          <Success state={state} onReset={onReset} onUseSettings={onUseSettings} locale={locale} />
        )}
        {state.phase === 'error' && (
          <Failure error={state.error} onReset={onReset} locale={locale} />
        )}
      </section>
    </KnownSourceContext>
  );
}
