/** One completed video in the history list: plays inline, shows prompt, mode, model and date. */
import type { HistoryItem } from '../../../server/contracts/video.ts';
import { MODEL_NAMES } from '../../../shared/video.ts';
import DownloadButton from '../shared/DownloadButton.tsx';

const MODE_LABELS: Record<HistoryItem['mode'], string> = {
  text: 'Text to Video',
  image: 'Image to Video',
};

const DATE_FORMAT = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

function formatDate(value: string): string | null {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : DATE_FORMAT.format(date);
}

export default function HistoryCard({ item }: { item: HistoryItem }) {
  const date = item.completed_at || item.created_at;
  const dateText = formatDate(date);
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
            {MODE_LABELS[item.mode] ?? item.mode}
          </span>
          <span>{MODEL_NAMES[item.model] ?? item.model}</span>
          {dateText && <time dateTime={date}>{dateText}</time>}
        </p>
        <DownloadButton
          url={item.result_url}
          prompt={item.prompt}
          className="btn btn-secondary history-card__download"
          describedBy={promptId}
        />
      </div>
    </li>
  );
}
