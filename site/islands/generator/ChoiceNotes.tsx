/**
 * What the generator says about a choice of options (issue 35): the options in words, the
 * settings and cost lines of the chosen clip (in place of the page's fixed lines, which describe
 * the default), and, when a video is being extended, which one, how long the result will be, and
 * a way back. Loaded only once options are chosen (Generator.tsx), not up front.
 */
import { EXTEND_SECONDS, type VideoOptions } from '../../../shared/video-options.ts';
import type { Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import { formatCredits } from '../../lib/format.ts';
import { optionLabels, secondsText } from './option-summary.ts';
import type { SourceTask } from './use-source-task.ts';
import { optionsData } from './video-choice.ts';

/** The chosen options in words, for the Advanced summary: "9:16 · 1080p · Seed 42". */
export function ChosenOptions({ options, locale }: { options: VideoOptions; locale: Locale }) {
  return <>{optionLabels(optionsData(options), locale).join(' · ')}</>;
}

/** The settings and cost lines of a clip with options (the duration, "Audio on" and e.g. "9:16 1080p"). */
export function OptionSettings({
  options,
  seconds,
  price,
  locale,
}: {
  options: VideoOptions;
  seconds: number;
  price: number;
  locale: Locale;
}) {
  return (
    <div className="gen-settings gen-settings--options" data-testid="option-settings">
      <p className="gen-settings__line">
        <span>{m.generator_duration(locale, { seconds })}</span>
        <span aria-hidden="true">·</span>
        <span>{m.generator_audio_on(locale)}</span>
        <span aria-hidden="true">·</span>
        <span>{`${options.aspectRatio} ${options.resolution}`}</span>
        {options.tier === 'fast' && (
          <>
            <span aria-hidden="true">·</span>
            <span>{m.generator_tier_fast(locale)}</span>
          </>
        )}
      </p>
      <p className="gen-settings__cost">
        <span>
          {m.generator_cost(locale)}{' '}
          <strong data-testid="option-cost">{formatCredits(price, locale)}</strong>
        </span>
        <span>
          {m.generator_estimated_time_label(locale)}{' '}
          <strong>{m.generator_estimated_time(locale)}</strong>
        </span>
      </p>
    </div>
  );
}

/** The video being continued, from its status; "Don't extend" goes back to a new video. */
export function ExtendBanner({
  source,
  seconds,
  onCancel,
  locale,
}: {
  source: SourceTask;
  /** Length of the result. */
  seconds: number | null;
  onCancel: () => void;
  locale: Locale;
}) {
  const task = source.state === 'ready' ? source.task : null;
  return (
    <section
      className="gen-extend"
      aria-labelledby="gen-extend-title"
      data-testid="extend-banner"
      data-state={source.state}
    >
      {task?.poster_url && <img className="gen-extend__poster" src={task.poster_url} alt="" />}
      <div className="gen-extend__text">
        <p id="gen-extend-title" className="gen-extend__title">
          {m.generator_extending_title(locale)}
        </p>
        {task && (
          <p className="gen-extend__prompt" title={task.prompt}>
            “{task.prompt}”
          </p>
        )}
        <p className="gen-hint">
          {source.state === 'unavailable'
            ? m.generator_extending_unavailable(locale)
            : task && seconds !== null
              ? m.generator_extending_length(locale, {
                  from: secondsText(task.duration_seconds ?? seconds - EXTEND_SECONDS, locale),
                  to: secondsText(seconds, locale),
                })
              : m.generator_extending_loading(locale)}
        </p>
      </div>
      <button
        type="button"
        className="btn btn-secondary gen-extend__cancel"
        onClick={onCancel}
        data-testid="extend-cancel"
      >
        {m.generator_extending_cancel(locale)}
      </button>
    </section>
  );
}
