/**
 * A video's settings where it is shown (issue 35 item 3), in the result panel and on each
 * history card: its length, the options it was made with when they differ from the default
 * ("9:16 · 1080p · Fast · Seed 42"), the video it extends, and the two ways on: "Generate again
 * with these settings" and "Extend by 7 s". Both are links to the generator (settings-link.ts),
 * so they work in a new tab too; on the generator page they refill the form in place.
 */
import { useCanExtend } from './use-quote.ts';
import type { MouseEvent } from 'react';
import type { VideoOptionsData } from '../../../shared/api/video.ts';
import { EXTEND_SECONDS, MAX_EXTENDED_SECONDS } from '../../../shared/video-options.ts';
import { localizePath, type Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import { optionLabels, secondsText } from './option-summary.ts';
import { againHref, extendHref, type TaskSettings } from './settings-link.ts';

/** What the facts and actions need of a task (the status and the history item both have it). */
export interface TaskFactsData extends TaskSettings {
  options?: Partial<VideoOptionsData> | null;
  duration_seconds?: number | null;
  source_task_id?: string | null;
}

interface TaskFactsProps {
  task: TaskFactsData;
  /** Where the source of an extension is shown, and what it is called (its prompt, if known). */
  source?: { href: string; label: string | null } | null;
  locale: Locale;
}

/** The length and the options ("9:16 · 1080p · Seed 42"), and "Extends: “…”" for an extension. */
export function TaskFacts({ task, source, locale }: TaskFactsProps) {
  const labels = optionLabels(task.options, locale);
  const seconds = task.duration_seconds;
  return (
    <div className="task-facts" data-testid="task-facts">
      <p className="task-facts__options">
        <span className="sr-only">{m.generator_settings_used(locale)}</span>
        {typeof seconds === 'number' && (
          <span data-testid="task-length">
            <span className="sr-only">{m.generator_length(locale)} </span>
            {secondsText(seconds, locale)}
          </span>
        )}
        {labels.map((label) => (
          <span key={label}>{label}</span>
        ))}
      </p>
      {task.source_task_id && (
        <p className="task-facts__source" data-testid="task-source">
          {m.generator_extends(locale)}{' '}
          {source ? (
            <a href={source.href} data-source-id={task.source_task_id}>
              {source.label ? `“${source.label}”` : m.generator_extends_earlier(locale)}
            </a>
          ) : (
            m.generator_extends_earlier(locale)
          )}
        </p>
      )}
    </div>
  );
}

interface TaskActionsProps {
  task: TaskFactsData;
  /** On the generator page: refill the form from this (unlocalized) link instead of loading it. */
  onUse?: (href: string) => void;
  className?: string;
  describedBy?: string;
  locale: Locale;
}

/** The two ways on from a finished video. */
export function TaskActions({
  task,
  onUse,
  className = '',
  describedBy,
  locale,
}: TaskActionsProps) {
  const seconds = task.duration_seconds ?? 0;
  const routeCanExtend = useCanExtend(task.id, task.options);
  const canExtend = routeCanExtend && seconds + EXTEND_SECONDS <= MAX_EXTENDED_SECONDS;
  const link = (href: string, text: string, testId: string) => (
    <a
      className={`btn btn-secondary ${className}`.trim()}
      href={localizePath(href, locale)}
      aria-describedby={describedBy}
      onClick={
        onUse &&
        ((event: MouseEvent<HTMLAnchorElement>) => {
          if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
          event.preventDefault();
          onUse(href);
        })
      }
      data-testid={testId}
    >
      {text}
    </a>
  );
  return (
    <>
      {link(againHref(task), m.generator_again_with_settings(locale), 'generate-again')}
      {canExtend &&
        link(
          extendHref(task),
          m.generator_extend(locale, { seconds: EXTEND_SECONDS }),
          'extend-video',
        )}
    </>
  );
}
