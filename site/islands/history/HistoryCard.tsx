/**
 * One completed video in the history list: plays inline, shows prompt, mode, model and date, and
 * offers Download and Delete (which asks first: DeleteVideoDialog.tsx). Issue 35: its length,
 * the options it was made with, the video it extends (linked to that card, `#video-{id}`), and
 * "Generate again with these settings" and "Extend by 7 s".
 */
import type { HistoryItem } from '../../../shared/api/video.ts';
import { INTL_LOCALES, type Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import { MODEL_NAMES } from '../../../shared/video.ts';
import DownloadButton from '../shared/DownloadButton.tsx';
import { TaskActions, TaskFacts } from '../generator/TaskFacts.tsx';

/** The id of a video's card, which an extension's "Extends:" link points at. */
const cardId = (taskId: string) => `video-${taskId}`;

const MODE_LABELS: Record<HistoryItem['mode'], (locale: Locale) => string> = {
  text: m.history_mode_text,
  image: m.history_mode_image,
};

/** Dates as the page's language writes them: "Jan 1, 2025, 3:01 PM", "2025年1月1日 15:01". */
const DATE_FORMATS = new Map<Locale, Intl.DateTimeFormat>();

function formatDate(value: string, locale: Locale): string | null {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  let format = DATE_FORMATS.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(INTL_LOCALES[locale], {
      dateStyle: 'medium',
      timeStyle: 'short',
    });
    DATE_FORMATS.set(locale, format);
  }
  return format.format(date);
}

export default function HistoryCard({
  item,
  source,
  onDelete,
  locale = 'en',
}: {
  item: HistoryItem;
  /** The video this one extends, when it is on the same page. */
  source?: HistoryItem | null;
  onDelete: (item: HistoryItem) => void;
  locale?: Locale;
}) {
  const date = item.completed_at || item.created_at;
  const dateText = formatDate(date, locale);
  const promptId = `history-prompt-${item.id}`;

  return (
    <li
      className="card history-card"
      id={cardId(item.id)}
      data-testid="history-item"
      data-task-id={item.id}
    >
      <video
        className="history-card__video"
        src={item.result_url}
        poster={item.poster_url ?? undefined}
        controls
        playsInline
        preload="none"
        aria-describedby={promptId}
      />
      <div className="history-card__body">
        <p className="history-card__prompt" id={promptId} title={item.prompt}>
          {item.prompt}
        </p>
        <p className="history-card__meta">
          <span className={`history-card__mode history-card__mode--${item.mode}`}>
            {MODE_LABELS[item.mode]?.(locale) ?? item.mode}
          </span>
          <span>{MODEL_NAMES[item.model] ?? item.model}</span>
          {dateText && <time dateTime={date}>{dateText}</time>}
        </p>
        <TaskFacts
          task={item}
          source={source ? { href: `#${cardId(source.id)}`, label: source.prompt } : null}
          locale={locale}
        />
        <div className="history-card__actions">
          <DownloadButton
            url={item.result_url}
            prompt={item.prompt}
            className="btn btn-secondary history-card__download"
            describedBy={promptId}
            locale={locale}
          />
          <button
            type="button"
            className="btn btn-secondary history-card__delete"
            aria-describedby={promptId}
            aria-haspopup="dialog"
            onClick={() => onDelete(item)}
            data-testid="history-delete"
          >
            {m.history_delete(locale)}
          </button>
        </div>
        <div className="history-card__actions history-card__actions--more">
          <TaskActions task={item} describedBy={promptId} locale={locale} />
        </div>
      </div>
    </li>
  );
}
