/**
 * One completed video in the history list: plays inline, shows prompt, mode, model and date, and
 * offers Download and Delete (which asks first: DeleteVideoDialog.tsx).
 */
import type { HistoryItem } from '../../../shared/api/video.ts';
import { INTL_LOCALES, type Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import { MODEL_NAMES } from '../../../shared/video.ts';
import DownloadButton from '../shared/DownloadButton.tsx';

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
  onDelete,
  locale = 'en',
}: {
  item: HistoryItem;
  onDelete: (item: HistoryItem) => void;
  locale?: Locale;
}) {
  const date = item.completed_at || item.created_at;
  const dateText = formatDate(date, locale);
  const promptId = `history-prompt-${item.id}`;

  return (
    <li className="card history-card" data-testid="history-item">
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
      </div>
    </li>
  );
}
