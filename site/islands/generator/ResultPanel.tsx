/**
 * The result side of the generator (spec 2 "Generator", 4 "Generation"): idle placeholder,
 * progress while generating, the video with Download and Generate New, or the error with
 * Try Again and the next step that fits it.
 */
import { useEffect, useState, type RefObject } from 'react';
import * as icons from '../../lib/icons/index.ts';
import { GENERATE_MESSAGES } from '../../../shared/video.ts';
import type { GenerationState } from './generation.ts';
import { GENERATION_MESSAGES } from './generation-rules.ts';
import DownloadButton from '../shared/DownloadButton.tsx';
import Icon from '../shared/Icon.tsx';
import SignInLink from '../shared/SignInLink.tsx';

/** Spec 2: the estimated generation time shown to the user. */
export const ESTIMATED_TIME = '5-8 minutes';
const ERROR_TITLE = 'Video Generation Failed';
const ERROR_FALLBACK = 'Something went wrong. Please try again.';

interface ResultPanelProps {
  state: GenerationState;
  /** Try Again and Generate New: back to the form. */
  onReset: () => void;
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

function statusText(state: GenerationState): string {
  if (state.phase === 'submitting') {
    return state.mode === 'image' ? 'Uploading your image…' : 'Sending your prompt…';
  }
  if (state.phase !== 'generating') return '';
  if (state.statusMessage) return state.statusMessage;
  return state.status === 'processing' ? 'Generating your video…' : 'Waiting in the queue…';
}

/** What the polite live region says: state changes, not every percent. */
function announcement(state: GenerationState): string {
  if (state.phase === 'success') return 'Your video is ready.';
  return statusText(state);
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

function Idle() {
  return (
    <div className="gen-result__idle">
      <span className="icon-circle">
        <Icon icon={icons.film} />
      </span>
      <p className="gen-result__title">Your video will appear here</p>
      <p className="gen-result__text">
        Describe a scene, or add an image and say how it should move, then press Generate Video. You
        can watch and download the clip here when it is ready.
      </p>
    </div>
  );
}

function Generating({
  state,
}: {
  state: Extract<GenerationState, { phase: 'submitting' | 'generating' }>;
}) {
  const progress = state.phase === 'generating' ? state.progress : null;
  return (
    <div className="gen-result__generating">
      <div className="gen-stage" aria-hidden="true">
        <span className="spinner" />
      </div>
      <p className="gen-result__title">Generating your video</p>
      <p className="gen-status">{statusText(state)}</p>
      <div
        className={`gen-progress${progress === null ? ' is-indeterminate' : ''}`}
        role="progressbar"
        aria-label="Video generation progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={progress ?? undefined}
        aria-valuetext={progress === null ? 'Starting' : `${progress}%`}
        data-testid="progress"
      >
        <span className="gen-progress__bar" style={{ width: `${progress ?? 0}%` }} />
      </div>
      <dl className="gen-facts">
        <div>
          <dt>Progress</dt>
          <dd>{progress === null ? '…' : `${progress}%`}</dd>
        </div>
        <div>
          <dt>Elapsed</dt>
          <dd>
            <Elapsed startedAt={state.startedAt} />
          </dd>
        </div>
        <div>
          <dt>Estimated time</dt>
          <dd>{ESTIMATED_TIME}</dd>
        </div>
      </dl>
      {state.prompt && <p className="gen-result__prompt">“{state.prompt}”</p>}
      <p className="gen-result__note">
        You can stay on this page or reload it: the progress is kept. Finished videos are also saved
        in your <a href="/video-history">History</a>.
      </p>
    </div>
  );
}

function Success({
  state,
  onReset,
}: {
  state: Extract<GenerationState, { phase: 'success' }>;
  onReset: () => void;
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
        aria-label="Your generated video"
      />
      {state.prompt && <p className="gen-result__prompt">“{state.prompt}”</p>}
      <div className="gen-result__actions">
        <DownloadButton url={state.videoUrl} prompt={state.prompt} className="btn btn-primary" />
        <button
          type="button"
          className="btn btn-secondary"
          onClick={onReset}
          data-testid="generate-new"
        >
          <Icon icon={icons.plus} />
          Generate New
        </button>
      </div>
      <p className="gen-result__note">
        Saved to your <a href="/video-history">History</a>.
      </p>
    </div>
  );
}

/**
 * What to do next after a failure besides Try Again (issue 20 item 12): buy credits when there
 * were too few, log in when signed out, look in History when the page lost track of a task that
 * may still finish.
 */
function NextStep({ message }: { message: string }) {
  if (/not enough credits/i.test(message)) {
    return (
      <a className="btn btn-secondary" href="/pricing" data-testid="failure-next-step">
        Buy Credits
      </a>
    );
  }
  if (message === GENERATE_MESSAGES.signInRequired) {
    return (
      <SignInLink className="btn btn-secondary" data-testid="failure-next-step">
        Log in
      </SignInLink>
    );
  }
  if (message === GENERATION_MESSAGES.timedOut || message === GENERATION_MESSAGES.network) {
    return (
      <p className="gen-result__note" data-testid="failure-next-step">
        The video may still finish: it will appear in your <a href="/video-history">History</a>.
      </p>
    );
  }
  return null;
}

function Failure({ message, onReset }: { message: string; onReset: () => void }) {
  return (
    <div className="gen-result__error">
      <div className="gen-result__alert" role="alert">
        <span className="icon-circle gen-result__icon--error">
          <Icon icon={icons.alert} />
        </span>
        <p className="gen-result__title">{ERROR_TITLE}</p>
        <p className="gen-result__text" data-testid="result-error">
          {message || ERROR_FALLBACK}
        </p>
      </div>
      <button type="button" className="btn btn-primary" onClick={onReset} data-testid="try-again">
        <Icon icon={icons.retry} />
        Try Again
      </button>
      <NextStep message={message || ERROR_FALLBACK} />
    </div>
  );
}

export default function ResultPanel({ state, onReset, panelRef }: ResultPanelProps) {
  const current = panelState(state);
  return (
    <section
      ref={panelRef}
      className={`gen-card gen-result gen-result--${current}`}
      data-testid="result-panel"
      data-state={current}
      aria-labelledby="gen-result-heading"
      tabIndex={-1}
    >
      <h2 id="gen-result-heading" className="gen-card__heading">
        Result
      </h2>
      <p className="sr-only" aria-live="polite">
        {announcement(state)}
      </p>
      {state.phase === 'idle' && <Idle />}
      {(state.phase === 'submitting' || state.phase === 'generating') && (
        <Generating state={state} />
      )}
      {state.phase === 'success' && <Success state={state} onReset={onReset} />}
      {state.phase === 'error' && <Failure message={state.message} onReset={onReset} />}
    </section>
  );
}
